// increment_float4: the same operation, each thread moving 16 bytes at a time.
// The one idea: more work per block. A float4 per thread means 4x fewer blocks to dispatch and
//   4x more bytes in flight per SM; VECTORS_PER_THREAD (1, 2 or 4 independent float4 loads issued
//   before any use) lets the sweep test whether even more in flight helps.
// Changes from the previous step: float4 loads and stores, a scalar path for the last partial
//   block and for arrays not aligned to 16 bytes, 256-thread blocks.
// What limits it: DRAM bandwidth; it runs at the speed of cudaMemcpy.
// Run: build/bin/increment_float4 [--n 2^28] [--block 256] [--vectors 1] [--sweep]
// Source: beyond source 001's Exercise 1; see the page for the measurement that motivates it.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace increment_float4 {

constexpr int BLOCK_THREADS = 256;
constexpr int VECTORS_PER_THREAD = 1;  // the sweep's best on our GPU: more adds nothing
constexpr int FLOATS_PER_VECTOR = 4;

//! [cpu]
inline void increment_cpu(float* data, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) data[i] += 1.0f;
}
//! [cpu]

//! [kernel]
template <int VECTORS>
__global__ void kernel(float* data, std::int64_t n, bool aligned) {
  constexpr int FLOATS_PER_THREAD = VECTORS * FLOATS_PER_VECTOR;
  // The first float of this thread's FLOATS_PER_THREAD; the vectors of a warp's threads are
  // interleaved (vector v of thread t is block vector v * blockDim.x + t) so that each load
  // instruction of the warp reads 512 contiguous bytes.
  const std::int64_t block_first = std::int64_t(blockIdx.x) * blockDim.x * FLOATS_PER_THREAD;
  if (aligned && block_first + std::int64_t(blockDim.x) * FLOATS_PER_THREAD <= n) {
    float4* vectors = reinterpret_cast<float4*>(data + block_first);
    float4 v[VECTORS];
#pragma unroll
    for (int k = 0; k < VECTORS; ++k) v[k] = vectors[k * blockDim.x + threadIdx.x];  // all loads
#pragma unroll
    for (int k = 0; k < VECTORS; ++k) {                                                // then use
      v[k].x += 1.0f;
      v[k].y += 1.0f;
      v[k].z += 1.0f;
      v[k].w += 1.0f;
      vectors[k * blockDim.x + threadIdx.x] = v[k];
    }
  } else {  // the last block, or an array not on a 16-byte boundary: one float at a time
    for (int k = 0; k < FLOATS_PER_THREAD; ++k) {
      const std::int64_t i = block_first + std::int64_t(k) * blockDim.x + threadIdx.x;
      if (i < n) data[i] += 1.0f;
    }
  }
}
//! [kernel]

// The largest n one launch covers (a grid has at most 2^31 - 1 blocks).
constexpr std::int64_t max_elements(int block_threads, int vectors) {
  return std::int64_t(0x7FFFFFFF) * block_threads * vectors * FLOATS_PER_VECTOR;
}

//! [launch]
template <int VECTORS = VECTORS_PER_THREAD>
void launch(float* d_data, std::int64_t n, int block_threads = BLOCK_THREADS) {
  if (n == 0) return;
  const std::int64_t per_block = std::int64_t(block_threads) * VECTORS * FLOATS_PER_VECTOR;
  const std::int64_t blocks = (n + per_block - 1) / per_block;
  const bool aligned = reinterpret_cast<std::uintptr_t>(d_data) % sizeof(float4) == 0;
  kernel<VECTORS><<<unsigned(blocks), block_threads>>>(d_data, n, aligned);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

// launch() for a vector count chosen at run time (the program's --vectors): 1, 2 or 4.
inline void launch_vectors(int vectors, float* d_data, std::int64_t n, int block_threads) {
  switch (vectors) {
    case 1: return launch<1>(d_data, n, block_threads);
    case 2: return launch<2>(d_data, n, block_threads);
    case 4: return launch<4>(d_data, n, block_threads);
  }
  CUDA_CHECK(cudaErrorInvalidValue);  // the program accepts only 1, 2, 4
}

}  // namespace increment_float4
