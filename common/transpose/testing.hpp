// doctest helpers of the transpose part: one step's launch against the CPU at every test shape.
#pragma once

#include <optional>
#include <vector>

#include "common/testing.hpp"
#include "common/transpose/program.cuh"

namespace common::testing {

// Runs each variant at each of `shapes` that its limits allow (poisoned output, exact check) and
// checks that the harness rejects the others with a reason. The shape is the outer loop: its
// seeded input and expected output are made once for every variant that takes it (a test of many
// variants pays for the host's share once); the seed goes up by one per shape taken, from
// `first_seed`.
inline void check_shapes(const std::vector<matrix_variant>& variants, matrix_result result,
                         const std::vector<std::pair<std::int64_t, std::int64_t>>& shapes,
                         std::uint64_t first_seed) {
  std::uint64_t seed = first_seed;
  for (const auto& shape : shapes) {
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
    if (m) ++seed;
  }
}

// check_shapes at every shape of test_shapes(), for one launch or for several variants.
inline void check_matrix_shapes(const std::vector<matrix_variant>& variants, matrix_result result) {
  check_shapes(variants, result, test_shapes(), 1);
}
inline void check_matrix_shapes(const matrix_launch& launch, matrix_result result,
                                const matrix_limits& limits = {}) {
  check_matrix_shapes({matrix_variant{"", launch, limits}}, result);
}

}  // namespace common::testing
