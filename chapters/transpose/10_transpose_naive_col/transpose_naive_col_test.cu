// transpose_naive_col: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include <vector>

#include "common/random.hpp"
#include "common/transpose/testing.hpp"
#include "transpose_naive_col.cuh"

HOST_TEST_CASE("a 1 x n or n x 1 transpose has the same memory image as its input") {
  // Such shapes are the edge cases where a column kernel's "strided" side is contiguous.
  const std::vector<float> in = common::random_floats(1000, 4, -1.0f, 1.0f);
  CHECK(common::expected_output(common::matrix_result::transpose, in, 1, 1000, 32) == in);
  CHECK(common::expected_output(common::matrix_result::transpose, in, 1000, 1, 32) == in);
}

GPU_TEST_CASE("transpose_naive_col equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_naive_col::launch,
                                       common::matrix_result::transpose,
                                       common::matrix_limits{transpose_naive_col::TILE_DIM, true});
}
