// reduce2: sequential addressing (Harris's Kernel 3, source 001).
// The one idea: fold the upper half of the partial sums onto the lower half, halving each round:
//   thread tid adds element tid + s to element tid, so a warp reads 32 consecutive words.
// Changes from the previous step: the loop runs s from BLOCK_THREADS / 2 down to 1 and indexes by
//   tid; the strided index and its bank conflicts are gone.
// What limits it: half of the threads only load: in the first round, threads [128, 256) are idle,
//   and every block spends 8 synchronised rounds on 256 elements it read in one.
// Run: build/bin/reduce2 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 3 / reduce2 (source 001, after Harris).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce2 {

constexpr int BLOCK_THREADS = 256;

//! [kernel]
template <class T>
__global__ void kernel(const T* in, int n, T* block_sums) {
  __shared__ T partial_sums[BLOCK_THREADS];
  const int tid = threadIdx.x;                       // [0, BLOCK_THREADS)
  const int i = blockIdx.x * BLOCK_THREADS + tid;    // [0, gridDim.x * BLOCK_THREADS)
  partial_sums[tid] = i < n ? in[i] : T(0);          // past the end: add nothing
  __syncthreads();                                   // all loads are in shared memory

  for (int s = BLOCK_THREADS / 2; s > 0; s /= 2) {
    if (tid < s) partial_sums[tid] += partial_sums[tid + s];  // [0, s) += [s, 2s)
    __syncthreads();                                 // this round's sums are complete
  }
  if (tid == 0) block_sums[blockIdx.x] = partial_sums[0];
}
//! [kernel]

//! [launch]
// One block per BLOCK_THREADS elements; each pass leaves one partial sum per block, and passes
// repeat until one value remains (common::reduce_in_passes).
inline int blocks_for(int count) { return count / BLOCK_THREADS + (count % BLOCK_THREADS != 0); }

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

}  // namespace reduce2
