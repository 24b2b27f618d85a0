// reduce9: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce9.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce9", "sum reduction in one launch: the last block to finish adds the partial sums",
       reduce9::workspace_elements, reduce9::launch<std::int32_t>, reduce9::launch<float>});
}
