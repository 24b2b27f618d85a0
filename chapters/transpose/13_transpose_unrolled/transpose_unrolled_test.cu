// transpose_unrolled: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include "common/transpose/testing.hpp"
#include "transpose_unrolled.cuh"

HOST_TEST_CASE("transpose_unrolled keeps the 33-column tile and 4 elements per thread") {
  CHECK(transpose_unrolled::TILE_DIM / transpose_unrolled::BLOCK_ROWS == 4);
}

GPU_TEST_CASE("transpose_unrolled equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_unrolled::launch,
                                       common::matrix_result::transpose);
}
