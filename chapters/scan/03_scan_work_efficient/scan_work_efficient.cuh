// scan_work_efficient: Blelloch's scan in one block: an up-sweep builds partial sums in a tree,
//   a down-sweep turns them into the exclusive scan.
// The one idea: a balanced tree over the tile does the scan in 2(n - 1) adds (and n - 1 swaps),
//   not n log2 n: work-efficient, like the CPU loop, yet 2 log2 n rounds deep.
// Changes from the previous step (scan_naive): one buffer updated in place instead of two; two
//   elements per thread (a tile of 2048 for 1024 threads); elements past n are padded with 0 up
//   to the tile, so any n up to the tile works (the slides' listing needs a power of two).
// What limits it: one block (n <= 2048); in both sweeps the threads of a warp touch addresses
//   2^d apart, so they fall into the same shared-memory banks: up to 32-way bank conflicts.
// Run: build/bin/scan_work_efficient [--n 2048] [--type int32|float|both]
// Source: the slides' work-efficient parallel scan (source 001, part 4, 5/6 and 6/6), after GPU
//   Gems 3, chapter 39, example 39-2.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/check.cuh"

namespace scan_work_efficient {

constexpr int BLOCK_THREADS = 1024;
constexpr int TILE_ELEMENTS = 2 * BLOCK_THREADS;  // two elements per thread
constexpr std::int64_t MAX_N = TILE_ELEMENTS;

//! [kernel]
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS) kernel(const T* in, int n, T* out) {
  __shared__ T tree[TILE_ELEMENTS];
  const int k = threadIdx.x;  // [0, BLOCK_THREADS); owns elements 2k and 2k + 1
  tree[2 * k] = 2 * k < n ? in[2 * k] : T(0);
  tree[2 * k + 1] = 2 * k + 1 < n ? in[2 * k + 1] : T(0);
  int stride = 1;
  // Up-sweep: after level d, tree[i] for i = 2^(d+1) m - 1 holds the sum of its 2^(d+1) elements.
  for (int active = TILE_ELEMENTS / 2; active > 0; active /= 2) {
    __syncthreads();  // the level below is complete
    if (k < active) {
      const int left = stride * (2 * k + 1) - 1, right = stride * (2 * k + 2) - 1;
      tree[right] += tree[left];
    }
    stride *= 2;
  }
  if (k == 0) tree[TILE_ELEMENTS - 1] = T(0);  // the root becomes the identity
  // Down-sweep: each node passes its value to its left child and left + its value to its right.
  for (int active = 1; active < TILE_ELEMENTS; active *= 2) {
    stride /= 2;
    __syncthreads();  // the level above is complete (the root's 0 included)
    if (k < active) {
      const int left = stride * (2 * k + 1) - 1, right = stride * (2 * k + 2) - 1;
      const T left_value = tree[left];
      tree[left] = tree[right];
      tree[right] += left_value;
    }
  }
  __syncthreads();  // the scan is complete
  if (2 * k < n) out[2 * k] = tree[2 * k];
  if (2 * k + 1 < n) out[2 * k + 1] = tree[2 * k + 1];
}
//! [kernel]

//! [launch]
// n <= MAX_N (the program refuses larger n); n = 0 launches nothing.
template <class T>
void launch(const T* d_in, std::int64_t n, T* d_out) {
  if (n == 0) return;
  kernel<T><<<1, BLOCK_THREADS>>>(d_in, int(n), d_out);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace scan_work_efficient
