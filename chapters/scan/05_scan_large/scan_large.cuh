// scan_large: any n: scan every tile in its own block, scan the tiles' sums (recursively, the same
//   way), add each tile's prefix to its elements.
// The one idea: a scan of tiles composes: element i's prefix is its prefix within its tile plus
//   the sum of all earlier tiles, which is the exclusive scan of the tile sums.
// Changes from the previous step (scan_conflict_free): the kernel scans the tile at
//   blockIdx.x * TILE_ELEMENTS of a grid of tiles (64-bit offsets) and writes its sum; the tile
//   sums (a 2048th of n) are scanned by the same launch, recursively, in a workspace; a second
//   kernel adds the scanned sums back.
// What limits it: bytes: the tile pass reads and writes n elements and the add pass does it again,
//   4 n elements moved where a scan needs 2 n: at best half the copy yardstick's speed.
// Run: build/bin/scan_large [--n 2^28] [--type int32|float|both]
// Source: GPU Gems 3, chapter 39, section 39.2.4 ("Arrays of Arbitrary Size"), which source 001's
//   slides follow; the recursion over the sums as there.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "chapters/scan/04_scan_conflict_free/scan_conflict_free.cuh"
#include "common/check.cuh"

namespace scan_large {

using scan_conflict_free::padded_index;
using scan_conflict_free::padding;
constexpr int BLOCK_THREADS = scan_conflict_free::BLOCK_THREADS;
constexpr int TILE_ELEMENTS = scan_conflict_free::TILE_ELEMENTS;

//! [kernel]
// The tile at blockIdx.x: scan_conflict_free's kernel, at an offset, writing the tile's sum.
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* in, std::int64_t n, T* out, T* tile_sums) {
  constexpr padding P = padding::correct;
  __shared__ T tree[scan_conflict_free::tree_words<P>()];
  const std::int64_t base = std::int64_t(blockIdx.x) * TILE_ELEMENTS;
  const int count = n - base < TILE_ELEMENTS ? int(n - base) : TILE_ELEMENTS;  // [1, TILE]
  const int k = threadIdx.x;  // [0, BLOCK_THREADS); owns elements k and k + BLOCK_THREADS
  const int a = k, b = k + BLOCK_THREADS;
  tree[padded_index<P>(a)] = a < count ? in[base + a] : T(0);
  tree[padded_index<P>(b)] = b < count ? in[base + b] : T(0);
  int stride = 1;
  for (int active = TILE_ELEMENTS / 2; active > 0; active /= 2) {  // up-sweep
    __syncthreads();                                               // the level below is complete
    if (k < active) {
      const int left = stride * (2 * k + 1) - 1, right = stride * (2 * k + 2) - 1;
      tree[padded_index<P>(right)] += tree[padded_index<P>(left)];
    }
    stride *= 2;
  }
  if (k == 0) {  // the root holds the tile's sum: keep it for the next level, then clear it
    tile_sums[blockIdx.x] = tree[padded_index<P>(TILE_ELEMENTS - 1)];
    tree[padded_index<P>(TILE_ELEMENTS - 1)] = T(0);
  }
  for (int active = 1; active < TILE_ELEMENTS; active *= 2) {  // down-sweep
    stride /= 2;
    __syncthreads();  // the level above is complete
    if (k < active) {
      const int left = padded_index<P>(stride * (2 * k + 1) - 1);
      const int right = padded_index<P>(stride * (2 * k + 2) - 1);
      const T left_value = tree[left];
      tree[left] = tree[right];
      tree[right] += left_value;
    }
  }
  __syncthreads();  // the scan is complete
  if (a < count) out[base + a] = tree[padded_index<P>(a)];
  if (b < count) out[base + b] = tree[padded_index<P>(b)];
}

// Adds the scanned tile sums: every element of tile t gets tile_prefixes[t]. Tile 0's prefix is
// 0, so its block has nothing to do. Any block size; TILE elements per block.
template <int TILE, class T>
__global__ void add_tile_prefixes(T* out, std::int64_t n, const T* tile_prefixes) {
  if (blockIdx.x == 0) return;
  const std::int64_t base = std::int64_t(blockIdx.x) * TILE;
  const int count = n - base < TILE ? int(n - base) : TILE;
  const T prefix = tile_prefixes[blockIdx.x];
  for (int i = threadIdx.x; i < count; i += blockDim.x) out[base + i] += prefix;
}
//! [kernel]

//! [launch]
// Elements of workspace for n: the tile sums of every level of the recursion, and the sum that
// the last level (one tile) writes too.
inline std::int64_t workspace_elements_for(std::int64_t n, std::int64_t tile) {
  std::int64_t total = 0;
  for (std::int64_t tiles = (n + tile - 1) / tile; tiles > 1; tiles = (tiles + tile - 1) / tile)
    total += tiles;
  return total + 1;
}

// Scans d_in[0, n) into d_out with tile_kernel (one block of THREADS per TILE elements, writing
// each tile's sum), then the tile sums in place into d_sums (recursively, by the same function),
// then adds them back. d_in may equal d_out. d_sums holds workspace_elements_for(n, TILE).
template <int TILE, int THREADS, class T>
void scan_in_passes(void (*tile_kernel)(const T*, std::int64_t, T*, T*), const T* d_in,
                    std::int64_t n, T* d_out, T* d_sums) {
  if (n == 0) return;
  const std::int64_t tiles = (n + TILE - 1) / TILE;  // < 2^31 for n < 2^40
  tile_kernel<<<unsigned(tiles), THREADS>>>(d_in, n, d_out, d_sums);
  CUDA_CHECK_LAUNCH();
  if (tiles == 1) return;  // one tile: its scan is the answer
  scan_in_passes<TILE, THREADS, T>(tile_kernel, d_sums, tiles, d_sums, d_sums + tiles);
  add_tile_prefixes<TILE, T><<<unsigned(tiles), THREADS>>>(d_out, n, d_sums);
  CUDA_CHECK_LAUNCH();
}

inline std::size_t workspace_bytes(std::int64_t n) {
  return std::size_t(workspace_elements_for(n, TILE_ELEMENTS)) * 4;  // int32 or float sums
}

template <class T>
void launch(const T* d_in, std::int64_t n, T* d_out, void* d_workspace) {
  scan_in_passes<TILE_ELEMENTS, BLOCK_THREADS, T>(kernel<T>, d_in, n, d_out,
                                                  static_cast<T*>(d_workspace));
}
//! [launch]

}  // namespace scan_large
