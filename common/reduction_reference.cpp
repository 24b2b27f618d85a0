#include "common/reduction_reference.hpp"

#include <cmath>

#include "common/random.hpp"

namespace common {

std::vector<std::int32_t> reduction_input_int32(std::size_t n, std::uint64_t seed) {
  return random_ints(n, seed, -100, 100);
}

std::vector<float> reduction_input_float(std::size_t n, std::uint64_t seed) {
  return random_floats(n, seed, -1.0f, 2.0f);
}

std::int32_t reference_sum(const std::vector<std::int32_t>& values) {
  std::uint32_t sum = 0;  // unsigned: wrap-around is defined in C++
  for (const std::int32_t v : values) sum += static_cast<std::uint32_t>(v);
  return static_cast<std::int32_t>(sum);
}

float_sum_reference reference_sum(const std::vector<float>& values) {
  float_sum_reference r;
  r.n = values.size();
  for (const float v : values) {
    r.sum += v;
    r.sum_abs += std::fabs(v);
  }
  return r;
}

check_result check_sum(const std::string& what, std::int32_t got, std::int32_t want) {
  return compare_exact(what, &got, &want, 1);
}

check_result check_sum(const std::string& what, float got, const float_sum_reference& want) {
  return compare_scalar(what, got, want.sum, sum_tolerance(want.n, want.sum_abs));
}

}  // namespace common
