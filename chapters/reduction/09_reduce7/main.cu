// reduce7: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce7.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce7", "sum reduction, warp shuffles (__shfl_down_sync) inside each warp",
       reduce7::workspace_elements, reduce7::launch<std::int32_t>, reduce7::launch<float>});
}
