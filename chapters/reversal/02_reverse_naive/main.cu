// The reverse_naive program; common/reversal/program.cuh does the contract. --classic also runs
// the listing's launch (n / 256 blocks): its check fails unless n is a multiple of 256.
#include "common/reversal/program.cuh"
#include "reverse_naive.cuh"

int main(int argc, char** argv) {
  common::reversal_step step;
  step.step = "reverse_naive";
  step.summary = "the course's reversal kernel, one thread per element, guarded";
  common::reversal_variant guarded{"", {reverse_naive::launch, {}}, {}, {}};
  common::reversal_variant classic{
      "classic launch",
      {[](const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n) {
         CUDA_CHECK(reverse_naive::launch_classic(d_in, d_out, n));
       },
       {}},
      {},
      {}};
  step.variants = {guarded, classic};
  step.sweep_flag = "classic";
  step.sweep_help =
      "also run the listing's launch (numBlocks = n / 256): its check fails unless n is a "
      "multiple of 256, and below 256 elements the launch itself fails";
  return common::run_reversal_program(argc, argv, step);
}
