// reverse_vectorized: 16-byte loads and stores, four elements reversed in registers, for every n.
// The one idea: each thread writes one aligned group of four output elements with one 16-byte
//   store. Its four input elements start at n - 4 - 4j: aligned only when n % 4 == 0. Otherwise
//   they straddle two aligned input groups, and the upper one is exactly the group that the
//   previous lane loaded: one warp shuffle fetches it, and only lane 0 loads a second group.
//   The straddle, n % 4, is the same for every thread: a template parameter, picked at launch.
// Changes from the previous step (reverse_naive): int4 accesses, the shuffle, one thread for the
//   n % 4 elements at the end of the output.
// What limits it: bytes in flight (one 16-byte load per thread) and plain stores; pointers must be
//   16-byte aligned, as cudaMalloc's are (reverse_fast lifts that).
// Run: build/bin/reverse_vectorized [--n 2^28]
// Source: none of the five; the float4 step of Part 0 (increment_float4) applied to a reversal.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "common/check.cuh"

namespace reverse_vectorized {

constexpr int BLOCK_THREADS = 256;
constexpr int VEC = 4;  // int32 per 16-byte group

//! [window]
// Input elements 4q + SHIFT .. 4q + SHIFT + 3, taken from the aligned groups q (lo) and q + 1 (hi),
// in reverse order: the output group they make.
template <int SHIFT>
__device__ __forceinline__ int4 reversed_window(int4 lo, int4 hi) {
  if constexpr (SHIFT == 0) return make_int4(lo.w, lo.z, lo.y, lo.x);
  if constexpr (SHIFT == 1) return make_int4(hi.x, lo.w, lo.z, lo.y);
  if constexpr (SHIFT == 2) return make_int4(hi.y, hi.x, lo.w, lo.z);
  return make_int4(hi.z, hi.y, hi.x, lo.w);
}
//! [window]

//! [kernel]
// SHIFT = n % 4. d_in and d_out 16-byte aligned.
template <int SHIFT>
__global__ void kernel(const std::int32_t* d_in, std::int32_t* d_out, int n) {
  const int groups = n / VEC;                           // whole output groups
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // output group, [0, groups] + padding
  const int lane = threadIdx.x % 32;
  const int4* in = reinterpret_cast<const int4*>(d_in);
  // Output group j takes input elements [n - 4 - 4j, n - 4j) = 4q + SHIFT .. 4q + SHIFT + 3.
  const int q = groups - 1 - j;
  int4 lo = make_int4(0, 0, 0, 0);
  if (j < groups) lo = in[q];
  int4 hi = lo;
  if constexpr (SHIFT != 0) {
    // Group q + 1 is the previous lane's lo (its j is one less). Every lane takes part.
    hi.x = __shfl_up_sync(0xffffffffu, lo.x, 1);
    hi.y = __shfl_up_sync(0xffffffffu, lo.y, 1);
    hi.z = __shfl_up_sync(0xffffffffu, lo.z, 1);
    hi.w = __shfl_up_sync(0xffffffffu, lo.w, 1);
    if (lane == 0 && j < groups) {
      if (q + 1 < groups) {
        hi = in[q + 1];
      } else {  // j == 0: the partial group at the end of the input holds only SHIFT elements
        hi.x = d_in[VEC * groups];
        if (SHIFT > 1) hi.y = d_in[VEC * groups + 1];
        if (SHIFT > 2) hi.z = d_in[VEC * groups + 2];
      }
    }
  }
  if (j < groups) reinterpret_cast<int4*>(d_out)[j] = reversed_window<SHIFT>(lo, hi);
  // The last SHIFT output elements come from the first SHIFT input elements.
  if (j == groups)
    for (int k = 0; k < SHIFT; ++k) d_out[VEC * groups + k] = d_in[SHIFT - 1 - k];
}
//! [kernel]

//! [launch]
// n < 2^31; d_in and d_out 16-byte aligned (cudaMalloc's pointers are; others are refused).
inline void launch(const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n) {
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(d_in) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(d_out) % 16 != 0)
    throw std::invalid_argument("reverse_vectorized: d_in and d_out must be 16-byte aligned");
  const std::int64_t threads = n / VEC + 1;  // one per output group, one for the last n % 4
  const unsigned blocks = unsigned((threads + BLOCK_THREADS - 1) / BLOCK_THREADS);
  switch (n % VEC) {
    case 0:
      kernel<0><<<blocks, BLOCK_THREADS>>>(d_in, d_out, int(n));
      break;
    case 1:
      kernel<1><<<blocks, BLOCK_THREADS>>>(d_in, d_out, int(n));
      break;
    case 2:
      kernel<2><<<blocks, BLOCK_THREADS>>>(d_in, d_out, int(n));
      break;
    default:
      kernel<3><<<blocks, BLOCK_THREADS>>>(d_in, d_out, int(n));
      break;
  }
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace reverse_vectorized
