// transpose_coarse_grained: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x
// 1000, 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output,
// checked exactly.
#include "common/random.hpp"
#include "common/transpose/testing.hpp"
#include "transpose_coarse_grained.cuh"

HOST_TEST_CASE("coarse-grained reference moves tiles and keeps their content") {
  // 64 x 32: two tiles stacked; out is 32 x 64 with the tiles side by side, each unchanged.
  const std::vector<float> in = common::random_floats(64 * 32, 5, -1.0f, 1.0f);
  const auto out = common::expected_output(common::matrix_result::tiles_moved, in, 64, 32, 32);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 32; ++c) CHECK(out[(r % 32) * 64 + (r / 32) * 32 + c] == in[r * 32 + c]);
  CHECK_THROWS(transpose_coarse_grained::launch(nullptr, nullptr, 31, 32));
}

GPU_TEST_CASE("transpose_coarse_grained equals its own reference at every test shape") {
  common::testing::check_matrix_shapes(transpose_coarse_grained::launch,
                                       common::matrix_result::tiles_moved);
}
