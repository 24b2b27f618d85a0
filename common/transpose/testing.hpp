// doctest helpers of the transpose part: one step's launch against the CPU at every test shape.
#pragma once

#include "common/testing.hpp"
#include "common/transpose/program.cuh"

namespace common::testing {

// Runs launch at every shape of test_shapes() that limits allow (poisoned output, exact check,
// a different seed per shape) and checks that the harness rejects the others with a reason.
inline void check_matrix_shapes(const matrix_launch& launch, matrix_result result,
                                const matrix_limits& limits = {}) {
  std::uint64_t seed = 1;
  for (const auto& shape : test_shapes()) {
    const std::int64_t rows = shape.first, cols = shape.second;
    CAPTURE(rows);
    CAPTURE(cols);
    const std::string why = why_unsupported(limits, result, rows, cols);
    if (!why.empty()) {
      INFO(why);
      CHECK((result == matrix_result::tiles_moved || result == matrix_result::tiles_transposed));
      continue;
    }
    const check_result r = check_launch(launch, result, rows, cols, seed++, limits.tile);
    INFO(describe(r));
    CHECK(r.ok());
  }
}

}  // namespace common::testing
