// segmented_scan: the problem, shared by the skeleton and the solution (students do not edit this
// file; the grader uses the repository's copy). An inclusive scan of int32 values that starts
// again at every segment head: out[i] = values[i] if heads[i] != 0 or i == 0, else
// out[i - 1] + values[i]. Sums wrap around modulo 2^32, as uint32 arithmetic does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/parallel.hpp"
#include "common/random.hpp"

namespace segmented_scan_problem {

// --mean-segment's default: a head about every 1000 elements, so segments start and end inside
// tiles and many span a tile boundary of a few thousand elements.
constexpr std::int64_t DEFAULT_MEAN_SEGMENT = 1000;
constexpr std::int64_t MAX_MEAN_SEGMENT = std::int64_t(1) << 40;
// The program's limit on --n (far above any device's memory; the device is the real limit).
constexpr std::int64_t MAX_N = std::int64_t(1) << 36;

// The values: uniform over all of int32, so the sums wrap around all the time.
inline std::vector<std::int32_t> make_values(std::int64_t n, std::uint64_t seed) {
  return common::random_ints(std::size_t(n), seed, std::numeric_limits<std::int32_t>::min(),
                             std::numeric_limits<std::int32_t>::max());
}

// The heads: 1 where a segment starts, 0 elsewhere. mean_segment 0: no heads at all (one segment,
// a plain scan); 1: every element a head (out = values); m: each element a head with probability
// 1/m, fixed by (seed, i).
inline std::vector<std::uint8_t> make_heads(std::int64_t n, std::uint64_t seed,
                                            std::int64_t mean_segment) {
  std::vector<std::uint8_t> heads(std::size_t(n), 0);
  if (mean_segment == 0) return heads;
  common::parallel_ranges(heads.size(), common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t, std::size_t begin, std::size_t end) {
                            for (std::size_t i = begin; i < end; ++i)
                              heads[i] = common::mix64(seed, i) % std::uint64_t(mean_segment) == 0;
                          });
  return heads;
}

// The host version: one loop, the running sum reset at each head.
inline void segmented_scan_cpu(const std::int32_t* values, const std::uint8_t* heads,
                               std::int64_t n, std::int32_t* out) {
  std::uint32_t running = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    running = heads[i] != 0 ? std::uint32_t(values[i]) : running + std::uint32_t(values[i]);
    out[i] = std::int32_t(running);
  }
}

// The reference: the same result on all host cores. Each range is scanned as if nothing came
// before it; the value that flows into each range (the last one of the range before it, or that
// plus the whole range when the range has no head) is then added to the range's elements before
// its first head.
inline std::vector<std::int32_t> segmented_scan_reference(const std::vector<std::int32_t>& values,
                                                          const std::vector<std::uint8_t>& heads) {
  const std::size_t n = values.size();
  std::vector<std::int32_t> out(n);
  const std::size_t ranges = common::parallel_range_count(n, common::MIN_ITEMS_PER_THREAD);
  std::vector<std::size_t> first_head(ranges);  // end of the range when it has none
  std::vector<std::size_t> range_end(ranges);
  common::parallel_ranges(n, common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t part, std::size_t begin, std::size_t end) {
                            segmented_scan_cpu(values.data() + begin, heads.data() + begin,
                                               std::int64_t(end - begin), out.data() + begin);
                            std::size_t h = begin;
                            while (h < end && heads[h] == 0) ++h;
                            first_head[part] = h;
                            range_end[part] = end;
                          });
  std::vector<std::uint32_t> carry_in(ranges, 0);
  for (std::size_t p = 1; p < ranges; ++p) {
    const std::size_t last = range_end[p - 1] - 1;  // ranges are never empty when there are >1
    const bool no_head = first_head[p - 1] == range_end[p - 1];
    carry_in[p] = std::uint32_t(out[last]) + (no_head ? carry_in[p - 1] : 0u);
  }
  common::parallel_ranges(n, common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t part, std::size_t begin, std::size_t) {
                            for (std::size_t i = begin; i < first_head[part]; ++i)
                              out[i] = std::int32_t(std::uint32_t(out[i]) + carry_in[part]);
                          });
  return out;
}

}  // namespace segmented_scan_problem
