// transpose_block_sweep: tests. Host: the blog's six shapes, each a legal block. GPU: every test
// shape at every block shape, into a poisoned output, checked exactly.
#include "common/transpose/testing.hpp"
#include "transpose_block_sweep.cuh"

HOST_TEST_CASE("the six block shapes are the blog's and each is a legal block") {
  int count = 0;
  for (const auto block : transpose_block_sweep::SHAPES) {
    CHECK(block.x * block.y <= 1024);
    CHECK(block.x % 32 == 0);  // whole warps along the rows
    ++count;
  }
  CHECK(count == 6);
}

GPU_TEST_CASE("transpose_block_sweep equals the CPU transpose at every block shape") {
  for (const auto block : transpose_block_sweep::SHAPES) {
    CAPTURE(block.x);
    CAPTURE(block.y);
    auto launch = [block](const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
      transpose_block_sweep::launch(d_in, d_out, rows, cols, block);
    };
    common::testing::check_matrix_shapes(launch, common::matrix_result::transpose,
                                         common::matrix_limits{block.y, true});
  }
}
