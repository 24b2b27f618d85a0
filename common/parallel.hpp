// Host-side parallelism for the CPU references and checks: a GPU step's check at 2^28 elements
// (or a 16384 x 16384 transpose) would otherwise spend seconds on one core, and the bench runs
// hundreds of them. The results never depend on how the work is split.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace common {

// Below this many items per thread, starting a thread costs more than it saves.
constexpr std::size_t MIN_ITEMS_PER_THREAD = std::size_t(1) << 20;

// How many contiguous ranges parallel_ranges() splits [0, n) into (1 for small n).
inline std::size_t parallel_range_count(std::size_t n, std::size_t min_per_thread) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(n / std::max<std::size_t>(min_per_thread, 1), 1, cores);
}

// Calls body(index, begin, end) for each of parallel_range_count() contiguous ranges of [0, n),
// in order of index, each on its own thread (the first on the calling thread).
template <class Body>
void parallel_ranges(std::size_t n, std::size_t min_per_thread, Body body) {
  const std::size_t ranges = parallel_range_count(n, min_per_thread);
  const std::size_t chunk = (n + ranges - 1) / std::max<std::size_t>(ranges, 1);
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < ranges; ++t)
    workers.emplace_back(body, t, std::min(n, t * chunk), std::min(n, (t + 1) * chunk));
  body(std::size_t(0), std::size_t(0), std::min(n, chunk));
  for (auto& w : workers) w.join();
}

}  // namespace common
