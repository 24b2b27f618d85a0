// Part I's shared pieces: the multi-pass driver that the classic reduction steps use to turn a
// per-block kernel into a complete sum, and the workspace it needs.
//
// Every step of Part I exposes, for T in {std::int32_t, float}:
//   std::size_t <step>::workspace_elements(int n)        scratch elements launch() needs
//   void <step>::launch(const T* d_in, int n, T* d_out, T* d_workspace)
//       writes the sum of d_in[0, n) to *d_out (every pass), all work enqueued on stream 0.
// The sum of n = 0 elements is 0.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/check.cuh"

namespace common {

// The one place where reduce_in_passes() would go wrong silently: a pass that does not shrink.
inline int checked_blocks(int blocks, int count) {
  if (blocks < 1 || (count > 1 && blocks >= count)) {
    std::fprintf(stderr, "reduce_in_passes: a pass over %d elements asked for %d blocks\n", count,
                 blocks);
    std::abort();
  }
  return blocks;
}

// Elements of workspace reduce_in_passes() needs for n inputs: pass k writes its partial sums to
// half (k % 2) of the workspace, so the halves hold the first and the second pass's outputs.
template <class BlocksFor>
std::size_t passes_workspace_elements(int n, BlocksFor blocks_for) {
  if (n <= 0) return 0;
  const int first = blocks_for(n);
  return std::size_t(first) + (first > 1 ? std::size_t(blocks_for(first)) : 0);
}

// Runs pass(in, count, out, blocks) until one value remains in *d_out. Each pass reduces `count`
// elements to `blocks = blocks_for(count)` partial sums, one per block; the last pass (one block)
// writes straight into d_out.
template <class T, class BlocksFor, class Pass>
void reduce_in_passes(const T* d_in, int n, T* d_out, T* d_workspace, BlocksFor blocks_for,
                      Pass pass) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(d_out, 0, sizeof(T)));  // the empty sum
    return;
  }
  T* halves[2] = {d_workspace, d_workspace + blocks_for(n)};
  const T* in = d_in;
  int count = n;
  for (int pass_index = 0;; ++pass_index) {
    const int blocks = checked_blocks(blocks_for(count), count);
    T* out = blocks == 1 ? d_out : halves[pass_index % 2];
    pass(in, count, out, blocks);
    if (blocks == 1) return;
    in = out;
    count = blocks;
  }
}

}  // namespace common
