// reduce6: multiple elements per thread (Harris's Kernel 7, source 001).
// The one idea: launch a fixed grid (at most GRID_BLOCKS blocks) and let each thread loop over the
//   array with a stride of the whole grid, adding pairs into a register; only then does the block
//   run its tree, once per thread's many elements instead of once per two.
// Changes from the previous step: the two loads become a grid-stride loop (stride gridDim.x *
//   BLOCK_ELEMENTS, so each trip's loads stay coalesced); blocks_for() caps the grid, which makes
//   the second pass a single block: at most two passes.
// What limits it: each trip issues two 4-byte loads per thread; the tree, its __syncthreads()
//   and a second kernel launch remain; the grid size is a constant, not fitted to the GPU.
// Run: build/bin/reduce6 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 7 / reduce6 (source 001, after Harris),
//   with the __syncwarp() pattern of NVIDIA's "Using CUDA Warp-Level Primitives" (2018).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce6 {

constexpr int BLOCK_THREADS = 256;
constexpr int BLOCK_ELEMENTS = 2 * BLOCK_THREADS;  // elements a block sums per trip of its loop
constexpr int GRID_BLOCKS = 1024;                  // the most blocks a pass launches
constexpr int MIN_BLOCK_ELEMENTS = 4 * BLOCK_THREADS;  // and none for fewer elements than this
static_assert(GRID_BLOCKS <= MIN_BLOCK_ELEMENTS, "one block sums a pass's partial sums");
static_assert(BLOCK_THREADS >= 64 && BLOCK_THREADS <= 1024 &&
                  (BLOCK_THREADS & (BLOCK_THREADS - 1)) == 0,
              "the unrolled levels handle a power of two in [64, 1024]");

//! [warp]
// The last six levels, by the 32 lanes of warp 0: [0, 32) += [32, 64), then [0, 16) += [16, 32),
// ... Lanes past s add too: their sums are never read. Each level: every lane reads (lane t reads
// sums[t + s], which lane t + s is about to overwrite), __syncwarp() so that all reads are done,
// every lane writes its own sums[t], __syncwarp() so that the next level reads the new values.
template <class T>
__device__ void warp_reduce(T* sums, int tid) {  // tid: [0, 32)
  T sum = sums[tid];
  sum += sums[tid + 32]; __syncwarp(); sums[tid] = sum; __syncwarp();
  sum += sums[tid + 16]; __syncwarp(); sums[tid] = sum; __syncwarp();
  sum += sums[tid + 8];  __syncwarp(); sums[tid] = sum; __syncwarp();
  sum += sums[tid + 4];  __syncwarp(); sums[tid] = sum; __syncwarp();
  sum += sums[tid + 2];  __syncwarp(); sums[tid] = sum; __syncwarp();
  sum += sums[tid + 1];  __syncwarp(); sums[tid] = sum; __syncwarp();
}
//! [warp]

//! [kernel]
template <class T>
__global__ void kernel(const T* in, int n, T* block_sums) {
  __shared__ T partial_sums[BLOCK_THREADS];
  const int tid = threadIdx.x;                       // [0, BLOCK_THREADS)
  // Unsigned: i + grid_elements passes INT_MAX when n is near it, but never 2^32.
  const unsigned count = n;
  const unsigned grid_elements = gridDim.x * BLOCK_ELEMENTS;  // elements the grid sums per trip
  T sum = T(0);
  for (unsigned i = blockIdx.x * BLOCK_ELEMENTS + tid; i < count; i += grid_elements) {
    const T second = i + BLOCK_THREADS < count ? in[i + BLOCK_THREADS] : T(0);  // second half
    sum += in[i] + second;                           // first half + second half of this trip
  }
  partial_sums[tid] = sum;                           // all of this thread's elements
  __syncthreads();                                   // all loads are in shared memory

  // [0, s) += [s, 2s) for s = 512, 256, 128, 64; the levels a smaller block lacks compile away.
  if constexpr (BLOCK_THREADS >= 1024) {
    if (tid < 512) partial_sums[tid] += partial_sums[tid + 512];
    __syncthreads();                                 // this level's sums are complete
  }
  if constexpr (BLOCK_THREADS >= 512) {
    if (tid < 256) partial_sums[tid] += partial_sums[tid + 256];
    __syncthreads();
  }
  if constexpr (BLOCK_THREADS >= 256) {
    if (tid < 128) partial_sums[tid] += partial_sums[tid + 128];
    __syncthreads();
  }
  if constexpr (BLOCK_THREADS >= 128) {
    if (tid < 64) partial_sums[tid] += partial_sums[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(partial_sums, tid);      // s = 32 .. 1, warp 0 alone
  if (tid == 0) block_sums[blockIdx.x] = partial_sums[0];
}
//! [kernel]

//! [launch]
// One block per MIN_BLOCK_ELEMENTS elements, at most GRID_BLOCKS: from 2^20 elements on, the grid
// is full and each thread loops more. Each pass leaves one partial sum per block; the second pass
// (at most GRID_BLOCKS <= MIN_BLOCK_ELEMENTS sums) is one block (common::reduce_in_passes).
inline int blocks_for(int count) {
  const int blocks = count / MIN_BLOCK_ELEMENTS + (count % MIN_BLOCK_ELEMENTS != 0);  // no overflow
  return blocks < GRID_BLOCKS ? blocks : GRID_BLOCKS;
}

inline std::size_t workspace_elements(int n) {
  return common::passes_workspace_elements(n, blocks_for);
}

template <class T>
void launch(const T* d_in, int n, T* d_out, T* d_workspace) {
  common::reduce_in_passes(d_in, n, d_out, d_workspace, blocks_for,
                           [](const T* in, int count, T* out, int blocks) {
                             kernel<T><<<blocks, BLOCK_THREADS>>>(in, count, out);
                             CUDA_CHECK_LAUNCH();
                           });
}
//! [launch]

}  // namespace reduce6
