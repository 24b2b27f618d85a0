// rotate_array: the problem, shared by the skeleton and the solution (students do not edit this
// file; the grader uses the repository's copy). Rotate an int32 array by k places, out of place:
// out[(i + k) mod n] = in[i], for any 64-bit k (negative k rotates the other way).
#pragma once

#include <cstdint>
#include <vector>

#include "common/parallel.hpp"

namespace rotate_array_problem {

// The program's limit on --n (far above any device's memory; the device is the real limit).
constexpr std::int64_t MAX_N = std::int64_t(1) << 36;
// --k's range: what the command line parses (|k| up to 2^62). The rotation itself takes any k.
constexpr std::int64_t MAX_ABS_K = std::int64_t(1) << 62;
// --k's default: not a multiple of 4, so 16-byte groups of in and out do not line up.
constexpr std::int64_t DEFAULT_K = 1000003;

// The shift in [0, n): (i + k) mod n = (i + shift(k, n)) mod n for every i, the mathematical
// modulo (never negative), for every k including INT64_MIN. n must be > 0.
inline std::int64_t shift(std::int64_t k, std::int64_t n) {
  const std::int64_t r = k % n;  // in (-n, n), with the sign of k
  return r < 0 ? r + n : r;
}

// The host version: one loop.
inline void rotate_cpu(const std::int32_t* in, std::int64_t n, std::int64_t k, std::int32_t* out) {
  if (n == 0) return;
  const std::int64_t s = shift(k, n);
  for (std::int64_t i = 0; i < n; ++i) out[i + s < n ? i + s : i + s - n] = in[i];
}

// The reference: the same on all host cores, each writing a range of out (out[j] = in[j - s]).
inline std::vector<std::int32_t> rotate_reference(const std::vector<std::int32_t>& in,
                                                  std::int64_t k) {
  const auto n = std::int64_t(in.size());
  std::vector<std::int32_t> out(in.size());
  if (n == 0) return out;
  const std::int64_t s = shift(k, n);
  common::parallel_ranges(in.size(), common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t, std::size_t begin, std::size_t end) {
                            for (auto j = std::int64_t(begin); j < std::int64_t(end); ++j)
                              out[j] = in[j >= s ? j - s : j - s + n];
                          });
  return out;
}

}  // namespace rotate_array_problem
