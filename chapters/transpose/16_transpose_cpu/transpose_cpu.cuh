// transpose_cpu: the reports' baseline: the transpose on one CPU core, timed on the GPU's host.
// The one idea: the two loops of the reports (sources 004 and 003), and the same loops in
//   32 x 32 blocks so that the strided side stays in the cache: what a GPU is compared with.
// Changes from the GPU steps: no kernel; std::chrono around the loops, median of the repetitions.
// What limits it: one core's memory traffic: the naive loop touches a new cache line (64 bytes)
//   for every 4-byte write, once the output's columns no longer fit in the cache.
// Run: build/bin/transpose_cpu [--rows 4096 --cols 4096] [--reps 3] [--sweep]
// Source: the report on a GTX 850M and a K80 (source 004), "CPU transpose"; the blog (source 003).
#pragma once

#include <algorithm>
#include <cstdint>

namespace transpose_cpu {

constexpr std::int64_t BLOCK = 32;  // the blocked version's square blocks

//! [naive]
// Rows of the input in order: reads contiguous, writes one output column (strided).
inline void naive(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}
//! [naive]

//! [blocked]
// The same loops over BLOCK x BLOCK blocks: a block's 32 output rows stay in the cache while
// each of them is written 32 times.
inline void blocked(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r0 = 0; r0 < rows; r0 += BLOCK)
    for (std::int64_t c0 = 0; c0 < cols; c0 += BLOCK)
      for (std::int64_t r = r0; r < std::min(rows, r0 + BLOCK); ++r)
        for (std::int64_t c = c0; c < std::min(cols, c0 + BLOCK); ++c)
          out[c * rows + r] = in[r * cols + c];
}
//! [blocked]

// Same parameters as the GPU steps' launch(), on host pointers.
inline void launch(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
  naive(in, out, rows, cols);
}

}  // namespace transpose_cpu
