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
  // TODO: each thread updates one element, y[i] = a * x[i] + y[i]. Which i is this thread's?
  //       The last block may reach past n.
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
  // TODO: launch kernel with enough blocks of block_threads threads to cover n elements, then
  //       CUDA_CHECK_LAUNCH(). What must happen when n is 0?
  common::todo("saxpy::launch");
  // <<< YOUR CODE
}

}  // namespace saxpy
