// transpose_fine_grained: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include "common/random.hpp"
#include "common/transpose/testing.hpp"
#include "transpose_fine_grained.cuh"

HOST_TEST_CASE("fine-grained reference transposes each tile in its place") {
  const std::vector<float> in = common::random_floats(32 * 64, 6, -1.0f, 1.0f);
  const auto out = common::expected_output(common::matrix_result::tiles_transposed, in, 32, 64, 32);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 64; ++c) CHECK(out[(c % 32) * 64 + (c / 32) * 32 + r] == in[r * 64 + c]);
  CHECK_THROWS(transpose_fine_grained::launch(nullptr, nullptr, 64, 33));
}

GPU_TEST_CASE("transpose_fine_grained equals its own reference at every test shape") {
  common::testing::check_matrix_shapes(transpose_fine_grained::launch,
                                       common::matrix_result::tiles_transposed);
}
