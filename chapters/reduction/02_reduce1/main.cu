// reduce1: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce1.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce1", "sum reduction, interleaved addressing with a strided index (bank conflicts)",
       reduce1::workspace_elements, reduce1::launch<std::int32_t>, reduce1::launch<float>});
}
