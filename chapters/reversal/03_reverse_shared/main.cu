// The reverse_shared program; common/reversal/program.cuh does the contract.
#include "common/reversal/program.cuh"
#include "reverse_shared.cuh"

int main(int argc, char** argv) {
  common::reversal_step step;
  step.step = "reverse_shared";
  step.summary = "the course's shared-memory reversal: reverse in the block, write forward";
  step.variants = {{"", {reverse_shared::launch, {}}, {}, {}}};
  return common::run_reversal_program(argc, argv, step);
}
