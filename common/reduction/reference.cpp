#include "common/reduction/reference.hpp"

#include <cmath>

#include "common/parallel.hpp"
#include "common/random.hpp"

namespace common {

std::vector<std::int32_t> reduction_input_int32(std::size_t n, std::uint64_t seed) {
  return random_ints(n, seed, -100, 100);
}

std::vector<float> reduction_input_float(std::size_t n, std::uint64_t seed) {
  return random_floats(n, seed, -1.0f, 2.0f);
}

// Both references add contiguous ranges on all host cores, then the ranges' sums in order.
std::int32_t reference_sum(const std::vector<std::int32_t>& values) {
  const std::size_t n = values.size();
  std::vector<std::uint32_t> partial(parallel_range_count(n, MIN_ITEMS_PER_THREAD), 0);
  parallel_ranges(n, MIN_ITEMS_PER_THREAD, [&](std::size_t part, std::size_t begin,
                                               std::size_t end) {
    std::uint32_t sum = 0;  // unsigned: wrap-around is defined in C++ (and exact mod 2^32)
    for (std::size_t i = begin; i < end; ++i) sum += static_cast<std::uint32_t>(values[i]);
    partial[part] = sum;
  });
  std::uint32_t sum = 0;
  for (const std::uint32_t s : partial) sum += s;
  return static_cast<std::int32_t>(sum);
}

float_sum_reference reference_sum(const std::vector<float>& values) {
  const std::size_t n = values.size();
  std::vector<float_sum_reference> partial(parallel_range_count(n, MIN_ITEMS_PER_THREAD));
  parallel_ranges(n, MIN_ITEMS_PER_THREAD, [&](std::size_t part, std::size_t begin,
                                               std::size_t end) {
    float_sum_reference& r = partial[part];
    for (std::size_t i = begin; i < end; ++i) {
      r.sum += values[i];
      r.sum_abs += std::fabs(values[i]);
    }
  });
  float_sum_reference r;
  r.n = n;
  for (const float_sum_reference& p : partial) {
    r.sum += p.sum;
    r.sum_abs += p.sum_abs;
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
