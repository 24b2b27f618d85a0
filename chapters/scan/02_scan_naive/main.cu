// scan_naive: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
#include "common/scan/program.cuh"
#include "scan_naive.cuh"

int main(int argc, char** argv) {
  return common::run_scan_program(
      argc, argv,
      {"scan_naive",
       "exclusive scan in one block: Hillis-Steele, double-buffered (n <= 1024)",
       scan_naive::MAX_N,
       {common::variant_of("", scan_naive::launch<std::int32_t>, scan_naive::launch<float>)},
       ""});
}
