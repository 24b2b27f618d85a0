// The reverse_vectorized program; common/reversal/program.cuh does the contract.
#include "common/reversal/program.cuh"
#include "reverse_vectorized.cuh"

int main(int argc, char** argv) {
  common::reversal_step step;
  step.step = "reverse_vectorized";
  step.summary = "16-byte groups reversed in registers; a warp shuffle when n % 4 != 0";
  step.variants = {{"", {reverse_vectorized::launch, {}}, {}, {}}};
  return common::run_reversal_program(argc, argv, step);
}
