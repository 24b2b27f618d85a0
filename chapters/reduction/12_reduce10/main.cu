// reduce10: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce10.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce10", "sum reduction in one launch: one cluster finishes in distributed shared memory",
       reduce10::workspace_elements, reduce10::launch<std::int32_t>, reduce10::launch<float>});
}
