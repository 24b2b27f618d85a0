// reduce0: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce0.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce0", "sum reduction, interleaved addressing with a divergent branch",
       reduce0::workspace_elements, reduce0::launch<std::int32_t>, reduce0::launch<float>});
}
