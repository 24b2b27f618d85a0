// scan_cpu: the slides' CPU column: the sequential exclusive scan on one core of the GPU's host.
// The one idea: one loop, one add per element, the running sum carried in a register: n - 1 adds,
//   the fewest any scan can do, and the yardstick every GPU scan of the slides is compared with.
// Changes from the GPU steps: no kernel; std::chrono around the loop, median of the repetitions.
// What limits it: one core: one dependent add per element (the running sum), and its memory
//   traffic once the arrays no longer fit in the caches.
// Run: build/bin/scan_cpu [--n 2^24] [--type int32|float|both] [--reps 3]
// Source: the slides' sequential algorithm (source 001, part 4, "Parallel scan: sequential
//   algorithm"), after GPU Gems 3, chapter 39.
#pragma once

#include <cstdint>
#include <type_traits>

namespace scan_cpu {

//! [scan]
// out[0] = 0, out[i] = in[0] + ... + in[i-1]. int32 adds in unsigned arithmetic, where wrapping
// modulo 2^32 is defined (signed overflow is not), as the GPU's 32-bit adds wrap.
template <class T>
struct sum_type_of {
  using type = T;
};
template <>
struct sum_type_of<std::int32_t> {
  using type = std::uint32_t;
};

template <class T>
void scan(const T* in, T* out, std::int64_t n) {
  using sum_type = typename sum_type_of<T>::type;
  sum_type running = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const sum_type x = sum_type(in[i]);  // read first: in and out may be the same array
    out[i] = T(running);
    running += x;
  }
}
//! [scan]

}  // namespace scan_cpu
