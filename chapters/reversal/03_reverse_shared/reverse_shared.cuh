// reverse_shared: the course's second kernel: reverse each block in shared memory, then write it
//   forward into the mirrored block of the output.
// The one idea: thread t stores its element at tile[BLOCK - 1 - t]; after a barrier it writes
//   tile[t] to consecutive, ascending output addresses. The slides' reason: "forward" writes.
// Changes from the previous step (reverse_naive): a shared tile and a barrier; the output block of
//   input block b starts at n - (b + 1) * 256 (negative places of a partial last block are
//   skipped).
// What limits it: the same as reverse_naive (one 4-byte load in flight per thread), plus the
//   barrier; descending writes were never the problem (see its page).
// Run: build/bin/reverse_shared [--n 2^28]
// Source: "Optimizing CUDA code" slides, Exercise 3 (3/4 and 4/4) (source 001).
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace reverse_shared {

constexpr int BLOCK_THREADS = 256;

//! [kernel]
__global__ void kernel(const std::int32_t* d_in, std::int32_t* d_out, int n) {
  __shared__ std::int32_t reversed[BLOCK_THREADS];  // this block's elements, last one first
  const int t = threadIdx.x;                        // [0, BLOCK_THREADS)
  const int in = blockIdx.x * BLOCK_THREADS + t;
  if (in < n) reversed[BLOCK_THREADS - 1 - t] = d_in[in];
  // Thread t reads the element thread BLOCK_THREADS - 1 - t stored.
  __syncthreads();
  // The block's output starts at n - (blockIdx.x + 1) * 256: below 0 for a partial last block,
  // exactly where reversed[] holds nothing. (n - b * 256 >= 1 first: no overflow.)
  const int out = n - blockIdx.x * BLOCK_THREADS - BLOCK_THREADS + t;
  if (out >= 0) d_out[out] = reversed[t];
}
//! [kernel]

//! [launch]
inline void launch(const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n) {
  if (n == 0) return;
  const std::int64_t blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  kernel<<<unsigned(blocks), BLOCK_THREADS>>>(d_in, d_out, int(n));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace reverse_shared
