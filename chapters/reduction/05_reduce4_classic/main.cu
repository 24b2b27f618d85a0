// reduce4_classic: the program (common/reduction/program.cu does input, reference, checks,
// timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce4_classic.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce4_classic", "sum reduction, last warp unrolled the classic way (volatile, RACY)",
       reduce4_classic::workspace_elements, reduce4_classic::launch<std::int32_t>,
       reduce4_classic::launch<float>});
}
