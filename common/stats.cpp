#include "common/stats.hpp"

#include <algorithm>
#include <numeric>

namespace common {

timing_stats summarize(std::vector<double> samples_ms) {
  timing_stats s;
  if (samples_ms.empty()) return s;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  s.reps = int(n);
  s.min_ms = samples_ms.front();
  s.max_ms = samples_ms.back();
  s.median_ms = n % 2 == 1 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  s.mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / double(n);
  return s;
}

}  // namespace common
