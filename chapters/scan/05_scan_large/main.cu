// scan_large: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_large.cuh"

int main(int argc, char** argv) {
  return common::run_scan_program(
      argc, argv,
      {"scan_large",
       "exclusive scan of any n: scan tiles, scan their sums recursively, add them back",
       common::MAX_N,
       {common::variant_of("", scan_large::launch<std::int32_t>, scan_large::launch<float>,
                           scan_large::workspace_bytes)},
       ""});
}
