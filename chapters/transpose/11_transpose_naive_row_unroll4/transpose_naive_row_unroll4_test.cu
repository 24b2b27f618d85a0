// transpose_naive_row_unroll4: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x
// 1000, 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output,
// checked exactly.
#include "common/transpose/testing.hpp"
#include "transpose_naive_row_unroll4.cuh"

HOST_TEST_CASE("row unroll4 tiles are 128 columns x 8 rows with 4 elements per thread") {
  using namespace transpose_naive_row_unroll4;
  CHECK(BLOCK_COLS * UNROLL == 128);
  CHECK(BLOCK_COLS * BLOCK_ROWS * UNROLL == 1024);  // the whitepaper's 4 elements per thread
}

GPU_TEST_CASE("transpose_naive_row_unroll4 equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(
      transpose_naive_row_unroll4::launch, common::matrix_result::transpose,
      common::matrix_limits{transpose_naive_row_unroll4::BLOCK_ROWS, false});
}
