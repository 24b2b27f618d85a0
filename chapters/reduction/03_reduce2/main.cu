// reduce2: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce2.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce2", "sum reduction, sequential addressing (conflict-free)",
       reduce2::workspace_elements, reduce2::launch<std::int32_t>, reduce2::launch<float>});
}
