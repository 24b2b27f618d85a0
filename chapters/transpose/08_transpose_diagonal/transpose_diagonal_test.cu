// transpose_diagonal: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include <set>
#include <utility>

#include "common/transpose/testing.hpp"
#include "transpose_diagonal.cuh"

HOST_TEST_CASE("diagonal reordering is a bijection of square and non-square grids") {
  for (const auto& [gx, gy] : {std::pair<unsigned, unsigned>{4, 4},
                               {1, 1},
                               {3, 5},
                               {5, 3},
                               {1, 9},
                               {9, 1},
                               {64, 64},
                               {128, 33}}) {
    std::set<std::pair<unsigned, unsigned>> tiles;
    for (unsigned by = 0; by < gy; ++by)
      for (unsigned bx = 0; bx < gx; ++bx) {
        unsigned tx = 0, ty = 0;
        transpose_diagonal::diagonal_to_cartesian(bx, by, gx, gy, tx, ty);
        CHECK(tx < gx);
        CHECK(ty < gy);
        tiles.insert({tx, ty});
      }
    CHECK(tiles.size() == std::size_t(gx) * gy);
  }
}

GPU_TEST_CASE("transpose_diagonal equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_diagonal::launch,
                                       common::matrix_result::transpose);
}
