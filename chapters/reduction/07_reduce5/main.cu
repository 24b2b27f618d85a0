// reduce5: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce5.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce5", "sum reduction, completely unrolled for a compile-time block size",
       reduce5::workspace_elements, reduce5::launch<std::int32_t>, reduce5::launch<float>});
}
