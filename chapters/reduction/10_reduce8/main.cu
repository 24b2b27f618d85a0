// reduce8: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce8.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce8", "sum reduction, 16-byte vector loads, grid sized from the SM count",
       reduce8::workspace_elements, reduce8::launch<std::int32_t>, reduce8::launch<float>});
}
