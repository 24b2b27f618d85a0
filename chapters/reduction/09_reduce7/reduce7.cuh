// reduce7: warp shuffles instead of the shared-memory tree (beyond the source).
// The one idea: the 32 lanes of a warp can read each other's registers (__shfl_down_sync), so a
//   warp sums its 32 values in five register-to-register steps; only one value per warp goes
//   through shared memory, and a block of 256 needs one __syncthreads() instead of three (and
//   no __syncwarp() instead of twelve).
// Changes from the previous step (reduce6): the grid-stride loop, the grid and the passes are
//   unchanged; partial_sums[BLOCK_THREADS], its four levels and warp_reduce() give way to
//   warp_sum() and block_sum() (warp_sums[BLOCK_WARPS], one slot per warp).
// What limits it: the loads. Each trip of the loop issues two 4-byte loads per thread, and the
//   grid is a constant (GRID_BLOCKS), not what fits on this GPU; reduce8 loads 16 bytes at a time.
// Run: build/bin/reduce7 [--n 2^22] [--type int32|float|both]
// Source: none of the slides (source 001 stops at reduce6); warp shuffles are the technique of
//   NVIDIA's "Faster Parallel Reductions on Kepler" (Luitjens, 2014), written here with the
//   *_sync intrinsics that CUDA 9 introduced.
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce7 {

constexpr int BLOCK_THREADS = 256;
constexpr int BLOCK_ELEMENTS = 2 * BLOCK_THREADS;  // elements a block sums per trip of its loop
constexpr int GRID_BLOCKS = 1024;                  // the most blocks a pass launches
constexpr int MIN_BLOCK_ELEMENTS = 4 * BLOCK_THREADS;  // and none for fewer elements than this
static_assert(GRID_BLOCKS <= MIN_BLOCK_ELEMENTS, "one block sums a pass's partial sums");

constexpr int WARP_THREADS = 32;
constexpr unsigned FULL_WARP = 0xFFFFFFFFu;  // __shfl_*_sync mask: all 32 lanes take part

//! [warp_sum]
// Lane t adds lane t + offset's value, for offset = 16, 8, 4, 2, 1: after the first step lanes
// [0, 16) hold sums of two values, after the last lane 0 holds the sum of all 32. A lane whose
// t + offset is past 31 gets its own value back; what it adds is never read by lane 0. The mask
// says that all 32 lanes execute the call, which also makes the exchange wait for them: no
// __syncwarp(), no shared memory, no volatile.
template <class T>
__device__ T warp_sum(T value) {
  for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(FULL_WARP, value, offset);
  return value;  // lane 0: the sum of the warp's 32 values
}
//! [warp_sum]

//! [block_sum]
// The sum of one value per thread of a block of BLOCK threads, in thread 0 (other threads get a
// partial value). Every thread must call it. warp_sums is static shared memory, the same array
// in every call from one kernel: a second call needs a __syncthreads() between the two.
template <int BLOCK, class T>
__device__ T block_sum(T value) {
  constexpr int BLOCK_WARPS = BLOCK / WARP_THREADS;
  static_assert(BLOCK % WARP_THREADS == 0 && BLOCK_WARPS <= WARP_THREADS,
                "whole warps, and one warp sums the warps' sums");
  __shared__ T warp_sums[BLOCK_WARPS];         // one slot per warp
  const int lane = threadIdx.x % WARP_THREADS;  // [0, 32)
  const int warp = threadIdx.x / WARP_THREADS;  // [0, BLOCK_WARPS)
  value = warp_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();  // every warp's sum is in warp_sums
  if (warp == 0) value = warp_sum(lane < BLOCK_WARPS ? warp_sums[lane] : T(0));
  return value;
}
//! [block_sum]

//! [kernel]
template <class T>
__global__ void kernel(const T* in, int n, T* block_sums) {
  const int tid = threadIdx.x;                       // [0, BLOCK_THREADS)
  // Unsigned: i + grid_elements passes INT_MAX when n is near it, but never 2^32.
  const unsigned count = n;
  const unsigned grid_elements = gridDim.x * BLOCK_ELEMENTS;  // elements the grid sums per trip
  T sum = T(0);
  for (unsigned i = blockIdx.x * BLOCK_ELEMENTS + tid; i < count; i += grid_elements) {
    const T second = i + BLOCK_THREADS < count ? in[i + BLOCK_THREADS] : T(0);  // second half
    sum += in[i] + second;                           // first half + second half of this trip
  }
  sum = block_sum<BLOCK_THREADS>(sum);               // all of this block's elements, in thread 0
  if (tid == 0) block_sums[blockIdx.x] = sum;
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

}  // namespace reduce7
