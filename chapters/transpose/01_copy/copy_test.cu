// copy: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000, 1000 x 1,
// 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked exactly.
#include "common/transpose/testing.hpp"
#include "copy.cuh"

HOST_TEST_CASE("copy tiles are 32 x 32 and each thread moves 4 elements") {
  static_assert(copy::TILE_DIM % copy::BLOCK_ROWS == 0);
  CHECK(copy::TILE_DIM / copy::BLOCK_ROWS == 4);
}

GPU_TEST_CASE("copy equals the input at every test shape") {
  common::testing::check_matrix_shapes(copy::launch, common::matrix_result::copy);
}
