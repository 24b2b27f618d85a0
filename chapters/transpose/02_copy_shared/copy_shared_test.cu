// copy_shared: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000, 1000 x 1,
// 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked exactly.
#include "common/transpose/testing.hpp"
#include "copy_shared.cuh"

HOST_TEST_CASE("copy_shared tile fits the 48 KB of static shared memory") {
  CHECK(copy_shared::TILE_DIM * copy_shared::TILE_DIM * sizeof(float) <= 48 * 1024);
  CHECK(copy_shared::TILE_DIM % copy_shared::BLOCK_ROWS == 0);
}

GPU_TEST_CASE("copy_shared equals the input at every test shape") {
  common::testing::check_matrix_shapes(copy_shared::launch, common::matrix_result::copy);
}
