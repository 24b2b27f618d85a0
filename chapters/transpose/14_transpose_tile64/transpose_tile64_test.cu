// transpose_tile64: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000, 1000
// x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include <set>

#include "common/transpose/testing.hpp"
#include "transpose_tile64.cuh"

HOST_TEST_CASE("the 65-wide tile puts a warp's 32 column writes in 32 banks") {
  constexpr int W = transpose_tile64::TILE_DIM + 1;
  for (int col = 0; col < transpose_tile64::TILE_DIM; ++col) {
    std::set<int> banks;
    for (int lane = 0; lane < 32; ++lane) banks.insert((lane * W + col) % 32);  // tile[lane][col]
    CHECK(banks.size() == 32);
  }
  // 64 x 65 floats: within the 48 KB of static shared memory.
  CHECK(transpose_tile64::TILE_DIM * W * sizeof(float) <= 48 * 1024);
}

GPU_TEST_CASE("transpose_tile64 equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_tile64::launch, common::matrix_result::transpose,
                                       common::matrix_limits{transpose_tile64::TILE_DIM, false});
}
