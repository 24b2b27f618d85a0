// reduce4_classic: unroll the last warp the classic way (Harris's Kernel 5, source 001). RACY.
// The one idea: once s <= 32 only warp 0 works, so its six levels need neither __syncthreads()
//   nor the `tid < s` test: they are written out, and the warp's lanes are trusted to run each
//   line together (lockstep), every lane reading before any lane writes.
// Changes from the previous step: the loop stops at s = 64; warp_reduce() does s = 32 .. 1 on a
//   volatile pointer (each += must really load and store shared memory, not keep a register).
// What limits it: correctness. Since Volta, lanes of a warp are scheduled independently, nothing
//   in this code orders lane t's read of [t + s] before lane t + s's write of it, and
//   compute-sanitizer --tool racecheck reports the hazards. It is kept only to show that.
//   reduce4 is the same kernel made correct with __syncwarp().
// Run: build/bin/reduce4_classic [--n 2^22] [--type int32|float|both]
// Source: "Optimizing CUDA code" slides, reduction Kernel 5 / reduce4 (source 001, after Harris).
#pragma once

#include <cstddef>

#include "common/check.cuh"
#include "common/reduction/reduction.cuh"

namespace reduce4_classic {

constexpr int BLOCK_THREADS = 256;
constexpr int BLOCK_ELEMENTS = 2 * BLOCK_THREADS;  // elements each block sums

//! [warp]
// The last six levels, by the 32 lanes of warp 0: [0, 32) += [32, 64), then [0, 16) += [16, 32),
// ... Lanes past s add too: their sums are never read. RACY: lane t reads sums[t + s] while lane
// t + s (for t + s < 32) writes it, and only warp lockstep, which Volta and later GPUs do not
// promise, would put the read first.
template <class T>
__device__ void warp_reduce(volatile T* sums, int tid) {  // tid: [0, 32)
  sums[tid] += sums[tid + 32];
  sums[tid] += sums[tid + 16];
  sums[tid] += sums[tid + 8];
  sums[tid] += sums[tid + 4];
  sums[tid] += sums[tid + 2];
  sums[tid] += sums[tid + 1];
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

}  // namespace reduce4_classic
