// Summary statistics of repeated timings.
#pragma once

#include <vector>

namespace common {

struct timing_stats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double mean_ms = 0;
  int reps = 0;
};

// Median (mean of the middle two for an even count), min, max, mean. Empty input gives all zeros.
timing_stats summarize(std::vector<double> samples_ms);

}  // namespace common
