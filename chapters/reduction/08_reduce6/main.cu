// reduce6: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce6.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce6", "sum reduction, multiple elements per thread (grid-stride loop, fixed grid)",
       reduce6::workspace_elements, reduce6::launch<std::int32_t>, reduce6::launch<float>});
}
