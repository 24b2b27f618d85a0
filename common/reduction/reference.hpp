// Part I's inputs, CPU references and checks (host only, unit-tested without a GPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/verify.hpp"

namespace common {

// int32 inputs in [-100, 100]; float inputs in [-1, 2) (mean 0.5, so the sum grows with n and
// a relative tolerance means something).
std::vector<std::int32_t> reduction_input_int32(std::size_t n, std::uint64_t seed);
std::vector<float> reduction_input_float(std::size_t n, std::uint64_t seed);

// The input of element type T (std::int32_t or float), for code written once for both types.
template <class T>
std::vector<T> reduction_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, float>) return reduction_input_float(n, seed);
  else return reduction_input_int32(n, seed);
}

// The int32 sum as the GPU computes it: 32-bit two's-complement addition wraps modulo 2^32 and
// is associative, so every summation order gives these exact bits (computed in 64 bits here).
std::int32_t reference_sum(const std::vector<std::int32_t>& values);

struct float_sum_reference {
  double sum = 0;      // in double precision
  double sum_abs = 0;  // of |x|, for the tolerance
  std::size_t n = 0;
};
float_sum_reference reference_sum(const std::vector<float>& values);

check_result check_sum(const std::string& what, std::int32_t got, std::int32_t want);
check_result check_sum(const std::string& what, float got, const float_sum_reference& want);

}  // namespace common
