// One result row per measured configuration, printed for people (aligned text) or for machines
// (CSV with a fixed header, or one JSON object per line) with the same fields.
#pragma once

#include <cstdint>
#include <string>

#include "common/stats.hpp"

namespace common {

struct result_row {
  std::string part;        // "intro", "reduction", "transpose", ... or "yardstick"
  std::string step;        // program name: "increment", "reduce3", "memcpy_d2d", ...
  std::string variant;     // what distinguishes rows of one step, e.g. "block=64"; may be empty
  std::string type;        // element type: "float", "int32"
  std::int64_t n = 0;      // elements
  std::int64_t rows = 0;   // 2-D parts only (0 otherwise)
  std::int64_t cols = 0;
  double bytes = 0;        // bytes the algorithm must move (the effective-bandwidth numerator)
  timing_stats time;       // per repetition, milliseconds
  double gbps = 0;         // bytes / median time
  double copy_gbps = 0;    // cudaMemcpy device-to-device yardstick, same process, same size
  double read_gbps = 0;    // read-only streaming yardstick, same process, same size
  std::string peer;        // library peer measured in the same process ("cub::DeviceReduce::Sum")
  double peer_gbps = 0;
  bool ok = false;         // the checked result (before and after timing) matched the reference
};

// Fills gbps from bytes and the median time.
void finish_row(result_row& row);

std::string csv_header();
std::string to_csv(const result_row& row);
std::string to_json(const result_row& row);
std::string human_header();
std::string to_human(const result_row& row);

// Formats a byte count for people: "1.07 GB", "16.8 MB", "512 B" (powers of 1000).
std::string show_bytes(double bytes);

}  // namespace common
