// increment: add 1 to every element of a float array (course Exercise 1, source 001).
// The one idea: one thread per element on a 1-D grid, blocks of 64 threads as the exercise asks.
// Changes from the previous step: none; this is the first program of the book.
// What limits it: DRAM bandwidth (4 bytes read and 4 written per element for one add) and, for
//   small blocks, how many bytes each SM can keep in flight.
// Run: build/bin/increment [--n 2^28] [--block 64] [--sweep]
// Source: "Optimizing CUDA code" slides, Exercise 1 (source 001).
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace increment {

constexpr int BLOCK_THREADS = 64;

//! [cpu]
// The host version the exercise starts from, and the reference the GPU result must equal.
inline void increment_cpu(float* data, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) data[i] += 1.0f;
}
//! [cpu]

//! [kernel]
__global__ void kernel(float* data, std::int64_t n) {
  // [0, gridDim.x * blockDim.x): 64-bit, since n may exceed 2^31 on a large GPU.
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;  // the last block may be partly past the end
}
//! [kernel]

// The largest n one launch covers: a grid has at most 2^31 - 1 blocks.
constexpr std::int64_t max_elements(int block_threads) {
  return std::int64_t(0x7FFFFFFF) * block_threads;
}

//! [launch]
inline void launch(float* d_data, std::int64_t n, int block_threads = BLOCK_THREADS) {
  if (n == 0) return;  // a grid of zero blocks is a launch error, and there is nothing to do
  const std::int64_t blocks = (n + block_threads - 1) / block_threads;  // round up
  kernel<<<unsigned(blocks), block_threads>>>(d_data, n);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace increment
