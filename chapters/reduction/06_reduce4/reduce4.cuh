// reduce4: unroll the last warp, correct under independent thread scheduling (Kernel 5).
// The one idea: once s <= 32 only warp 0 works, so its six levels need neither __syncthreads()
//   nor the `tid < s` test: they are written out, and __syncwarp() orders the lanes of the warp,
//   which since Volta are scheduled independently and are not promised to run in lockstep.
// Changes from the previous step (reduce4_classic): each level reads into a register, waits for
//   the warp (__syncwarp), writes, waits again; no volatile (__syncwarp orders memory too).
// What limits it: the levels above the last warp are still written as a loop; reduce5 writes them
//   out for a block size known at compile time (nvcc already unrolls this loop: see reduce5.md).
// Run: build/bin/reduce4 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 5 / reduce4 (source 001, after Harris),
//   with the __syncwarp() pattern of NVIDIA's "Using CUDA Warp-Level Primitives" (2018).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce4 {

constexpr int BLOCK_THREADS = 256;
constexpr int BLOCK_ELEMENTS = 2 * BLOCK_THREADS;  // elements each block sums

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
  const int i = blockIdx.x * BLOCK_ELEMENTS + tid;   // first half of this block's elements
  const T first = i < n ? in[i] : T(0);              // past the end: add nothing
  const T second = i + BLOCK_THREADS < n ? in[i + BLOCK_THREADS] : T(0);  // second half
  partial_sums[tid] = first + second;                // the tree's first level, done in registers
  __syncthreads();                                   // all loads are in shared memory

  for (int s = BLOCK_THREADS / 2; s > 32; s /= 2) {
    if (tid < s) partial_sums[tid] += partial_sums[tid + s];  // [0, s) += [s, 2s)
    __syncthreads();                                 // this round's sums are complete
  }
  if (tid < 32) warp_reduce(partial_sums, tid);      // s = 32 .. 1, warp 0 alone
  if (tid == 0) block_sums[blockIdx.x] = partial_sums[0];
}
//! [kernel]

//! [launch]
// One block per BLOCK_ELEMENTS elements; each pass leaves one partial sum per block, and passes
// repeat until one value remains (common::reduce_in_passes).
inline int blocks_for(int count) { return count / BLOCK_ELEMENTS + (count % BLOCK_ELEMENTS != 0); }

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

}  // namespace reduce4
