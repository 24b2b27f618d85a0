// Yardsticks: what this GPU can do with the same number of bytes, measured in the same process,
// so that every step's bandwidth is also a percentage of something real rather than of a
// datasheet number.
//   copy: cudaMemcpy device-to-device of `bytes` (moves 2 * bytes: one read, one write);
//   read: a streaming kernel that reads `bytes` with 16-byte loads and writes nothing.
#pragma once

#include <cstddef>

#include "common/timing.cuh"

namespace common {

struct yardsticks {
  double copy_gbps = 0;
  double read_gbps = 0;
  timing_stats copy_time, read_time;
  std::size_t bytes = 0;
};

yardsticks measure_yardsticks(std::size_t bytes, const timing_options& options,
                              l2_flusher& flusher);

}  // namespace common
