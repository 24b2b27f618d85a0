// reduce3: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
#include "common/reduction/program.cuh"
#include "reduce3.cuh"

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {"reduce3", "sum reduction, first add during the global load (half the blocks)",
       reduce3::workspace_elements, reduce3::launch<std::int32_t>, reduce3::launch<float>});
}
