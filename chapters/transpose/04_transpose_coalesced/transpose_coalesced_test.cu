// transpose_coalesced: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000,
// 1000 x 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked
// exactly.
#include <utility>
#include <vector>

#include "common/random.hpp"
#include "common/transpose/testing.hpp"
#include "transpose_coalesced.cuh"

HOST_TEST_CASE("transposing twice gives the input back at odd shapes") {
  for (const auto& [rows, cols] : {std::pair<int, int>{31, 33}, {1, 7}, {7, 1}, {40, 40}}) {
    const std::vector<float> in = common::random_floats(rows * cols, 3, -1.0f, 1.0f);
    std::vector<float> once(in.size()), twice(in.size());
    common::transpose_reference(in.data(), once.data(), rows, cols);
    common::transpose_reference(once.data(), twice.data(), cols, rows);
    CHECK(twice == in);
  }
}

GPU_TEST_CASE("transpose_coalesced equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_coalesced::launch,
                                       common::matrix_result::transpose);
}
