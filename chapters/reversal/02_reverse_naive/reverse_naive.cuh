// reverse_naive: the course's first kernel: one thread per element, each writes its mirror.
// The one idea: thread i reads in[i] and writes out[n - 1 - i]. A warp reads 32 consecutive
//   elements going up and writes 32 consecutive elements going down: both coalesce.
// Changes from the previous step (reverse_cpu): the loop becomes a grid; the listing's launch
//   (numBlocks = n / 256) becomes a rounded-up grid with a guard, so that every n works.
// What limits it: one 4-byte load in flight per thread, and one block per 256 elements.
// Run: build/bin/reverse_naive [--n 2^28] [--classic]
// Source: "Optimizing CUDA code" slides, Exercise 3 (2/4), reverseArrayBlock (source 001).
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace reverse_naive {

constexpr int BLOCK_THREADS = 256;  // the listing's numThreadsPerBlock

//! [classic]
// The listing, in our names: block b reverses into the mirrored block, element t into the
// mirrored place. Right only if the grid covers the array exactly.
__global__ void kernel_classic(const std::int32_t* d_in, std::int32_t* d_out) {
  const int in_offset = blockDim.x * blockIdx.x;
  const int out_offset = blockDim.x * (gridDim.x - 1 - blockIdx.x);
  const int in = in_offset + threadIdx.x;
  const int out = out_offset + (blockDim.x - 1 - threadIdx.x);
  d_out[out] = d_in[in];
}

// The listing's launch: n / 256 blocks, rounded down. For n not a multiple of 256 it reverses only
// the first 256 * (n / 256) elements, into the wrong places; below 256 it launches zero blocks,
// which is an error (cudaErrorInvalidValue on our GPU). Returns the launch's error instead of
// stopping, so that a test can show it.
inline cudaError_t launch_classic(const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n) {
  const int blocks = int(n / BLOCK_THREADS);  // numBlocks = dimA / numThreadsPerBlock
  kernel_classic<<<blocks, BLOCK_THREADS>>>(d_in, d_out);
  return cudaGetLastError();
}
//! [classic]

//! [kernel]
__global__ void kernel(const std::int32_t* d_in, std::int32_t* d_out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // [0, gridDim.x * blockDim.x)
  if (i < n) d_out[n - 1 - i] = d_in[i];                // the last block may reach past n
}
//! [kernel]

//! [launch]
// n < 2^31 (int indices, as the course's).
inline void launch(const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n) {
  if (n == 0) return;  // a grid of zero blocks is a launch error, and there is nothing to do
  const std::int64_t blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;  // round up
  kernel<<<unsigned(blocks), BLOCK_THREADS>>>(d_in, d_out, int(n));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace reverse_naive
