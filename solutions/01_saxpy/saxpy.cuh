// Exercise 01, saxpy: y = a * x + y for float arrays of any length, one thread per element.
// Practises Part 0: the launch arithmetic (how many blocks for n elements, and the last block).
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace saxpy {

// The course's Exercise 1 launches blocks of 64 threads; --block and --sweep try others.
constexpr int BLOCK_THREADS = 64;

__global__ void kernel(float a, const float* x, float* y, std::int64_t n) {
  // >>> YOUR CODE: kernel
  // [0, gridDim.x * blockDim.x), in 64 bits: n may pass 2^31 on a large GPU.
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];  // the last block may reach past n; nvcc fuses to one fma
  // <<< YOUR CODE
}

// The largest n one launch of block_threads threads per block covers (2^31 - 1 blocks).
constexpr std::int64_t max_elements(int block_threads) {
  return std::int64_t(0x7FFFFFFF) * block_threads;
}

// d_x and d_y hold n floats on the device; n is in [0, max_elements(block_threads)].
inline void launch(float a, const float* d_x, float* d_y, std::int64_t n,
                   int block_threads = BLOCK_THREADS) {
  // >>> YOUR CODE: launch
  if (n == 0) return;  // a grid of zero blocks is a launch error
  const std::int64_t blocks = (n + block_threads - 1) / block_threads;  // round up
  kernel<<<unsigned(blocks), block_threads>>>(a, d_x, d_y, n);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace saxpy
