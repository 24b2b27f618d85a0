// scan_naive: Hillis and Steele's scan in one block, double-buffered in shared memory.
// The one idea: log2(n) rounds; in round d every element adds the one 2^d places to its left.
//   Each round reads one buffer and writes the other, so no thread overwrites a value another
//   thread still has to read, and one barrier per round suffices.
// Changes from the previous step (scan_cpu): n threads instead of one loop; n log2 n adds instead
//   of n - 1. The slides' listing updates with `+=` from the other buffer, which adds values two
//   rounds old (and, in the first round, a buffer never written): kernel_classic keeps it, the
//   tests show its wrong output, and kernel writes the sum of the two inputs instead.
// What limits it: one block: n <= 1024 (larger n are refused); n log2 n adds; one launch.
// Run: build/bin/scan_naive [--n 1024] [--type int32|float|both]
// Source: the slides' naive parallel scan (source 001, part 4, "naive parallel algorithm",
//   4/4), after GPU Gems 3, chapter 39, example 39-1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/check.cuh"

namespace scan_naive {

constexpr int BLOCK_THREADS = 1024;  // one thread per element
constexpr std::int64_t MAX_N = BLOCK_THREADS;

//! [classic]
// The slides' listing in this book's names, kept to show its error (the program never runs it).
// Launched with n threads, n <= BLOCK_THREADS. Wrong: `+=` adds to what the output buffer held
// two rounds ago, not to buffers[in][k]; in the first round that buffer was never written.
template <class T>
__global__ void kernel_classic(const T* in, int n, T* out) {
  __shared__ T buffers[2 * BLOCK_THREADS];
  const int k = threadIdx.x;  // [0, n)
  int pout = 0, pin = 1;
  buffers[pout * n + k] = (k > 0) ? in[k - 1] : T(0);  // exclusive: shifted right by one
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (k >= offset)
      buffers[pout * n + k] += buffers[pin * n + k - offset];
    else
      buffers[pout * n + k] = buffers[pin * n + k];
    __syncthreads();
  }
  out[k] = buffers[pout * n + k];
}
//! [classic]

//! [kernel]
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS) kernel(const T* in, int n, T* out) {
  __shared__ T buffers[2][BLOCK_THREADS];
  const int k = threadIdx.x;  // [0, BLOCK_THREADS); elements past n are 0 and never stored
  int out_buffer = 0;
  buffers[out_buffer][k] = (k > 0 && k <= n) ? in[k - 1] : T(0);  // exclusive: shifted right
  __syncthreads();                                                // round 0's buffer is complete
  for (int offset = 1; offset < n; offset *= 2) {
    const int in_buffer = out_buffer;
    out_buffer = 1 - out_buffer;
    const T x = buffers[in_buffer][k];
    buffers[out_buffer][k] = k >= offset ? x + buffers[in_buffer][k - offset] : x;
    __syncthreads();  // this round's output is complete before the next round reads it
  }
  if (k < n) out[k] = buffers[out_buffer][k];
}
//! [kernel]

//! [launch]
// n <= MAX_N (the program refuses larger n); n = 0 launches nothing.
template <class T>
void launch(const T* d_in, std::int64_t n, T* d_out) {
  if (n == 0) return;
  kernel<T><<<1, BLOCK_THREADS>>>(d_in, int(n), d_out);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

// The slides' listing as they launch it: one block of n threads.
template <class T>
void launch_classic(const T* d_in, std::int64_t n, T* d_out) {
  if (n == 0) return;
  kernel_classic<T><<<1, int(n)>>>(d_in, int(n), d_out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace scan_naive
