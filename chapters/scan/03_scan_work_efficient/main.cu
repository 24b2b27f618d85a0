// scan_work_efficient: the program (common/scan/program.cu does input, reference, checks, timing,
// CUB).
#include "common/scan/program.cuh"
#include "scan_work_efficient.cuh"

int main(int argc, char** argv) {
  return common::run_scan_program(
      argc, argv,
      {"scan_work_efficient",
       "exclusive scan in one block: Blelloch up-sweep and down-sweep (n <= 2048)",
       scan_work_efficient::MAX_N,
       {common::variant_of("", scan_work_efficient::launch<std::int32_t>,
                           scan_work_efficient::launch<float>)},
       ""});
}
