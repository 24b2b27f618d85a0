// transpose_no_bank_conflicts: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x
// 1000, 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output,
// checked exactly.
#include <set>

#include "common/transpose/testing.hpp"
#include "transpose_no_bank_conflicts.cuh"

HOST_TEST_CASE("a column of the 32-wide tile is in one bank and of the 33-wide tile in 32") {
  using transpose_no_bank_conflicts::bank_of;
  constexpr int T = transpose_no_bank_conflicts::TILE_DIM;
  for (int col = 0; col < T; ++col) {
    std::set<int> unpadded, padded, padded_row;
    for (int row = 0; row < T; ++row) {
      unpadded.insert(bank_of(row, col, T));
      padded.insert(bank_of(row, col, T + 1));
      padded_row.insert(bank_of(col, row, T + 1));  // a row stays conflict-free too
    }
    CHECK(unpadded.size() == 1);
    CHECK(padded.size() == 32);
    CHECK(padded_row.size() == 32);
  }
}

GPU_TEST_CASE("transpose_no_bank_conflicts equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_no_bank_conflicts::launch,
                                       common::matrix_result::transpose);
}
