// transpose_double: the problem, shared by the skeleton and the solution (students do not edit this
// file; the grader uses the repository's copy). out = in^T for a rows x cols matrix of doubles,
// both row-major: out is cols x rows and out[c * rows + r] = in[r * cols + c]. Any shape.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/parallel.hpp"
#include "common/random.hpp"

namespace transpose_double_problem {

// Seeded doubles in [-1, 1) with 53 random bits each, so both 4-byte halves of every element
// differ from element to element: a kernel that moves only half of a double, or mixes halves of
// two, fails the exact check. Element (r, c) depends only on (seed, r * cols + c).
inline std::vector<double> make_input(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::vector<double> in(static_cast<std::size_t>(rows * cols));
  common::parallel_ranges(in.size(), common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t, std::size_t begin, std::size_t end) {
                            for (std::size_t i = begin; i < end; ++i)
                              in[i] = double(common::mix64(seed, i) >> 11) * 0x1p-52 - 1.0;
                          });
  return in;
}

// The reference, on all host cores: each core writes a band of output rows, 64 x 64 blocks at a
// time so that the strided reads stay in its cache.
inline void transpose_cpu(const double* in, double* out, std::int64_t rows, std::int64_t cols) {
  constexpr std::int64_t BLOCK = 64;
  const std::size_t bands = std::size_t((cols + BLOCK - 1) / BLOCK);
  common::parallel_ranges(
      bands,
      std::max<std::size_t>(
          1, common::MIN_ITEMS_PER_THREAD / std::size_t(BLOCK * std::max<std::int64_t>(rows, 1))),
      [&](std::size_t, std::size_t first_band, std::size_t end_band) {
        for (std::int64_t c0 = std::int64_t(first_band) * BLOCK;
             c0 < std::min(cols, std::int64_t(end_band) * BLOCK); c0 += BLOCK) {
          const std::int64_t c1 = std::min(cols, c0 + BLOCK);
          for (std::int64_t r0 = 0; r0 < rows; r0 += BLOCK) {
            const std::int64_t r1 = std::min(rows, r0 + BLOCK);
            for (std::int64_t c = c0; c < c1; ++c)
              for (std::int64_t r = r0; r < r1; ++r) out[c * rows + r] = in[r * cols + c];
          }
        }
      });
}

}  // namespace transpose_double_problem
