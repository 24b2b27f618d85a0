// The transpose_block_sweep program; common/transpose/program.cuh does the contract. --sweep
// measures the six block shapes of the blog's table, one row each.
#include <string>

#include "common/transpose/program.cuh"
#include "transpose_block_sweep.cuh"

int main(int argc, char** argv) {
  common::matrix_step step;
  step.step = "transpose_block_sweep";
  step.summary = "naive column transpose, one element per thread, six block shapes (source 003)";
  step.result = common::matrix_result::transpose;
  for (const transpose_block_sweep::block_shape block : transpose_block_sweep::SHAPES) {
    auto launch = [block](const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
      transpose_block_sweep::launch(d_in, d_out, rows, cols, block);
    };
    // blockIdx.y walks the columns, block.y of them per block.
    step.variants.push_back({"block=" + std::to_string(block.x) + "x" + std::to_string(block.y),
                             launch, common::matrix_limits{block.y, true}});
  }
  step.sweep_help = "measure all six block shapes of the blog's table (default: 32x32 only)";
  return common::run_matrix_program(argc, argv, step);
}
