// reduce4: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce4.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce4", "sum reduction, last warp unrolled with __syncwarp()",
       reduce4::workspace_elements, reduce4::launch<std::int32_t>, reduce4::launch<float>});
}
