// doctest helpers of the transpose part: one step's launch against the CPU at every test shape.
#pragma once

#include <optional>
#include <vector>

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

// check_matrix_shapes for several variants of one step, the shape in the outer loop: each shape's
// input and expected output are made once for all of them (a different seed per shape).
inline void check_matrix_shapes(const std::vector<matrix_variant>& variants, matrix_result result) {
  std::uint64_t seed = 1;
  for (const auto& shape : test_shapes()) {
    const std::int64_t rows = shape.first, cols = shape.second;
    CAPTURE(rows);
    CAPTURE(cols);
    std::optional<prepared_matrix> m;  // made by the first variant that takes this shape
    for (const matrix_variant& v : variants) {
      CAPTURE(v.name);
      const std::string why = why_unsupported(v.limits, result, rows, cols);
      if (!why.empty()) {
        INFO(why);
        CHECK((result == matrix_result::tiles_moved || result == matrix_result::tiles_transposed));
        continue;
      }
      if (!m || m->tile != v.limits.tile)
        m = prepare_matrix(result, rows, cols, seed, v.limits.tile);
      const check_result r = check_launch(v.launch, *m);
      INFO(describe(r));
      CHECK(r.ok());
    }
    ++seed;
  }
}

}  // namespace common::testing
