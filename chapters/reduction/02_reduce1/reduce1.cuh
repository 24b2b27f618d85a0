// reduce1: interleaved addressing with a strided index (Harris's Kernel 2, source 001).
// The one idea: at stride s, thread tid works on element 2 * s * tid, so the threads that add are
//   the lowest-numbered ones, packed into as few warps as possible: no divergence inside a warp.
// Changes from the previous step: the `tid % (2 * s)` test becomes a strided index; same tree.
// What limits it: the strided index makes the threads of a warp hit the same shared-memory banks
//   (2s words apart), so each access is replayed (bank conflicts); blocks still idle after loading.
// Run: build/bin/reduce1 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 2 / reduce1 (source 001, after Harris).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce1 {

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
    const int index = 2 * s * tid;                   // multiples of 2s; those < BLOCK_THREADS add
    if (index < BLOCK_THREADS) partial_sums[index] += partial_sums[index + s];
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

}  // namespace reduce1
