// reduce11: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
// --sweep also measures the variants the page compares: eight loads in flight per thread, and the
// fixed shares (reduce8's runs of whole tiles, equal runs of 512-byte groups, strided tiles).
#include "common/reduction/program.cuh"
#include "reduce11.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(argc, argv, reduce11::variants());
}
