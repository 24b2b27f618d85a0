// reduce0: interleaved addressing with a divergent branch (Harris's Kernel 1, source 001).
// The one idea: each block sums its 256 elements in shared memory as a tree; at stride s, the
//   threads whose index is a multiple of 2s add in the element s to their right.
// Changes from the previous step: none; this is the first kernel of Part I.
// What limits it: `tid % (2 * s) == 0` leaves most threads of every warp idle but still issued
//   (divergence; today's compiler predicates it, see the page); each block reads 256 elements and
//   then works for 8 rounds.
// Run: build/bin/reduce0 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 1 / reduce0 (source 001, after Harris).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce0 {

constexpr int BLOCK_THREADS = 256;

//! [kernel]
template <class T>
__global__ void kernel(const T* in, int n, T* block_sums) {
  __shared__ T partial_sums[BLOCK_THREADS];
  const int tid = threadIdx.x;                       // [0, BLOCK_THREADS)
  const int i = blockIdx.x * BLOCK_THREADS + tid;    // [0, gridDim.x * BLOCK_THREADS)
  partial_sums[tid] = i < n ? in[i] : T(0);          // past the end: add nothing
  __syncthreads();                                   // all loads are in shared memory

  for (int s = 1; s < BLOCK_THREADS; s *= 2) {
    if (tid % (2 * s) == 0) partial_sums[tid] += partial_sums[tid + s];
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

}  // namespace reduce0
