// copy_col: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000, 1000 x 1,
// 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked exactly.
#include "common/transpose/testing.hpp"
#include "copy_col.cuh"

HOST_TEST_CASE("copy_col walks rows with threadIdx.x: a warp strides by a whole row") {
  // Thread x of a warp touches row x: addresses cols floats apart, for every column.
  CHECK(copy_col::TILE_DIM == 32);
  CHECK(copy_col::TILE_DIM % copy_col::BLOCK_ROWS == 0);
}

GPU_TEST_CASE("copy_col equals the input at every test shape") {
  common::testing::check_matrix_shapes(copy_col::launch, common::matrix_result::copy,
                                       common::matrix_limits{copy_col::TILE_DIM, true});
}
