// scan_reduce_then_scan: the program (common/scan/program.cu does input, reference, checks,
// timing, CUB).
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_reduce_then_scan.cuh"

int main(int argc, char** argv) {
  using namespace scan_reduce_then_scan;
  return common::run_scan_program(
      argc, argv,
      {"scan_reduce_then_scan",
       "exclusive scan of any n: sum the tiles, scan the sums, scan the tiles (3 n elements moved)",
       common::MAX_N,
       {common::variant_of("", launch<std::int32_t>, launch<float>, workspace_bytes)},
       ""});
}
