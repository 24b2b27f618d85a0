// Part V (reversal): the CPU reference and the seeded inputs of every step, test and program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/parallel.hpp"
#include "common/random.hpp"

namespace common {

//! [reference]
// out[n - 1 - i] = in[i] for i in [0, n): the result every step must equal, element for element.
template <class T>
void reverse_reference(const T* in, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[n - 1 - i] = in[i];
}
//! [reference]

// The same on all host cores, for the programs' 2^28-element checks (the result does not depend
// on the split).
template <class T>
std::vector<T> reversed(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  const std::size_t n = in.size();
  parallel_ranges(n, MIN_ITEMS_PER_THREAD, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[n - 1 - i] = in[i];
  });
  return out;
}

// The element types of the part: the course's int32, and float and int64 for the last steps.
template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "int64";
  else
    return "int32";
}

// Seeded input: element i depends only on (seed, i). Integers use all their bits (a reversal
// moves bits, it computes nothing); floats are in [-1000, 1000), never NaN (NaN != NaN).
template <class T>
std::vector<T> reversal_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, float>) {
    return random_floats(n, seed, -1000.0f, 1000.0f);
  } else {
    std::vector<T> v(n);
    parallel_ranges(n, MIN_ITEMS_PER_THREAD, [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) v[i] = static_cast<T>(mix64(seed, i));
    });
    return v;
  }
}

}  // namespace common
