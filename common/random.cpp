#include "common/random.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/parallel.hpp"

namespace common {
namespace {

// Fills out[i] = make(i) on all host cores for large arrays (2^28 elements take ~0.1 s on 16
// cores instead of ~1 s on one); the result does not depend on the split.
template <class T, class Make>
void parallel_fill(std::vector<T>& out, Make make) {
  parallel_ranges(out.size(), MIN_ITEMS_PER_THREAD,
                  [&](std::size_t, std::size_t begin, std::size_t end) {
                    for (std::size_t i = begin; i < end; ++i) out[i] = make(i);
                  });
}

}  // namespace

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (!(lo < hi)) throw std::invalid_argument("random_floats: need lo < hi");
  std::vector<float> out(n);
  parallel_fill(out, [&](std::size_t i) { return random_float_at(seed, i, lo, hi); });
  return out;
}

std::vector<std::int32_t> random_ints(std::size_t n, std::uint64_t seed, std::int32_t lo,
                                      std::int32_t hi) {
  if (lo > hi) throw std::invalid_argument("random_ints: need lo <= hi");
  std::vector<std::int32_t> out(n);
  const std::uint64_t span = std::uint64_t(std::int64_t(hi) - lo) + 1;
  parallel_fill(out, [&](std::size_t i) {
    // The modulo bias is below span / 2^64: irrelevant for test inputs.
    return std::int32_t(std::int64_t(lo) + std::int64_t(mix64(seed, i) % span));
  });
  return out;
}

}  // namespace common
