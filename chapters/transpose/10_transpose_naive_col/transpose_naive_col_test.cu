// transpose_naive_col: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include "common/transpose_testing.hpp"
#include "transpose_naive_col.cuh"

HOST_TEST_CASE("the naive column order writes an output row with consecutive threads") {
  // Thread y of a warp writes out[x * rows + y]: consecutive addresses for consecutive y.
  const std::int64_t rows = 100, x = 7;
  for (std::int64_t y = 0; y + 1 < 32; ++y) CHECK((x * rows + y + 1) - (x * rows + y) == 1);
  CHECK(transpose_naive_col::TILE_DIM % transpose_naive_col::BLOCK_ROWS == 0);
}

GPU_TEST_CASE("transpose_naive_col equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_naive_col::launch,
                                       common::matrix_result::transpose,
                                       common::matrix_limits{transpose_naive_col::TILE_DIM, true});
}
