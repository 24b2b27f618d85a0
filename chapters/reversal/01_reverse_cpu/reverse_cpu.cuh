// reverse_cpu: the course's exercise on one host core, the baseline of Part V.
// The one idea: one loop, out[n - 1 - i] = in[i]: reads go up, writes come down, both streaming.
// Changes from the previous step: none; this is the first step of the part.
// What limits it: one core's memory bandwidth (two streams, one of them written).
// Run: build/bin/reverse_cpu [--n 2^28] [--reps 3]
// Source: "Optimizing CUDA code" slides, Exercise 3 (source 001): reverse an integer array.
#pragma once

#include <cstdint>

namespace reverse_cpu {

//! [loop]
inline void reverse(const std::int32_t* in, std::int32_t* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[n - 1 - i] = in[i];
}
//! [loop]

}  // namespace reverse_cpu
