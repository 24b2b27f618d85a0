// Seeded random inputs. Element i depends only on (seed, i): the same seed gives the same array
// on every machine and for every thread count, and a prefix of a long array equals the short one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace common {

// splitmix64 (Steele, Lea, Flood 2014): a fast, well-mixed 64-bit hash of (seed, index).
constexpr std::uint64_t mix64(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform floats in [lo, hi), 24 random bits each.
std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi);
// Element i of random_floats(n, seed, lo, hi), for any n > i: for a program that makes its input
// a piece at a time (lo < hi, as random_floats checks).
inline float random_float_at(std::uint64_t seed, std::size_t i, float lo, float hi) {
  const float scale = (hi - lo) / float(1u << 24);
  const auto bits = std::uint32_t(mix64(seed, i) >> 40);  // 24 bits: exact in a float
  return std::min(lo + float(bits) * scale, std::nextafter(hi, lo));
}
// Uniform integers in [lo, hi] (both inclusive).
std::vector<std::int32_t> random_ints(std::size_t n, std::uint64_t seed, std::int32_t lo,
                                      std::int32_t hi);

}  // namespace common
