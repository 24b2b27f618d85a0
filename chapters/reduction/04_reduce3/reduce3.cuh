// reduce3: first add during the global load (Harris's Kernel 4, source 001).
// The one idea: each thread loads two elements, BLOCK_THREADS apart, and adds them before they
//   reach shared memory, so a block covers 2 * BLOCK_THREADS elements and half as many blocks run.
// Changes from the previous step: BLOCK_ELEMENTS = 2 * BLOCK_THREADS; two loads and one add in
//   place of one load; blocks_for() divides by BLOCK_ELEMENTS. The tree is unchanged.
// What limits it: instruction overhead, not memory: every level tests tid < s in all 256 threads
//   and ends in a block-wide __syncthreads(), even the last six, where only warp 0 still works.
// Run: build/bin/reduce3 [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 4 / reduce3 (source 001, after Harris).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce3 {

constexpr int BLOCK_THREADS = 256;
constexpr int BLOCK_ELEMENTS = 2 * BLOCK_THREADS;  // elements each block sums

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

  for (int s = BLOCK_THREADS / 2; s > 0; s /= 2) {
    if (tid < s) partial_sums[tid] += partial_sums[tid + s];  // [0, s) += [s, 2s)
    __syncthreads();                                 // this round's sums are complete
  }
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

}  // namespace reduce3
