// scan_reduce_then_scan: any n in three passes over 4096-element tiles: sum each tile, scan the
//   tile sums in one block, scan each tile again starting from its prefix.
// The one idea: a tile's prefix needs only the sums of the earlier tiles, not their scans. So the
//   first pass reads n elements and writes one sum per tile, and the last pass reads n and writes
//   n: 3 n elements move instead of scan_large's 4 n, and no pass writes an intermediate array.
// Changes from the previous step (scan_large): the tile scan is rebuilt for today's GPUs: 16-byte
//   loads and stores, 16 elements per thread (4 vectors of 4), a sequential scan in registers of
//   each vector, warp shuffles instead of a shared-memory tree, one shared word per warp; 256
//   threads per block; no recursion (one block scans all tile sums, a tile at a time).
// What limits it: the extra read of the input (3 n instead of 2 n elements): at best about two
//   thirds of the copy yardstick's time-per-byte; three launches.
// Run: build/bin/scan_reduce_then_scan [--n 2^28] [--type int32|float|both]
// Source: beyond the slides (source 001); the reduce-then-scan structure is that of Merrill and
//   Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (NVIDIA, 2016), section 3.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/check.cuh"
#include "common/vector4.cuh"

namespace scan_reduce_then_scan {

constexpr int WARP_THREADS = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;

// The shape of a tile: THREADS threads per block, VECTORS 16-byte vectors (4 elements of 4 bytes)
// per thread. The step runs shape<256, 4>; scan_lookback sweeps others.
template <int THREADS, int VECTORS_PER_THREAD>
struct shape {
  static constexpr int BLOCK_THREADS = THREADS;
  static constexpr int WARPS = THREADS / WARP_THREADS;
  static constexpr int VECTORS = VECTORS_PER_THREAD;
  static constexpr int ITEMS = 4 * VECTORS;                   // elements per thread
  static constexpr int CHUNK_ELEMENTS = 4 * WARP_THREADS;     // one vector of every lane
  static constexpr int WARP_ELEMENTS = ITEMS * WARP_THREADS;  // a warp's slice of the tile
  static constexpr int TILE_ELEMENTS = ITEMS * BLOCK_THREADS;
  static_assert(THREADS % WARP_THREADS == 0 && VECTORS >= 1, "whole warps, one vector at least");
};
using default_shape = shape<256, 4>;  // 4096-element tiles, 16 elements per thread
constexpr int BLOCK_THREADS = default_shape::BLOCK_THREADS;
constexpr int TILE_ELEMENTS = default_shape::TILE_ELEMENTS;

//! [tile]
// A thread's S::ITEMS elements: items[v][j] is element warp * WARP_ELEMENTS + v * CHUNK_ELEMENTS +
// lane * 4 + j of the tile; every v is one 16-byte load of 32 consecutive vectors by the warp.
template <class S, class T>
struct thread_items {
  T items[S::VECTORS][4];
};

using common::vector4;  // the 16-byte vector of four T: int4, float4

// This thread's first element of chunk 0, relative to the tile.
template <class S>
__device__ int thread_offset() {
  return (threadIdx.x / WARP_THREADS) * S::WARP_ELEMENTS + (threadIdx.x % WARP_THREADS) * 4;
}

// Loads the tile at tile_base; elements at n or beyond read as 0. A whole tile uses 16-byte loads
// (tile_base is a multiple of the tile, so the addresses are 16-byte aligned when `in` is).
template <class S, class T>
__device__ thread_items<S, T> load_tile(const T* in, std::int64_t n, std::int64_t tile_base,
                                        bool vector_io) {
  using V = typename vector4<T>::type;
  thread_items<S, T> t;
  const T* p = in + tile_base + thread_offset<S>();
  if (vector_io && tile_base + S::TILE_ELEMENTS <= n) {
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v) {
      const V x = *reinterpret_cast<const V*>(p + v * S::CHUNK_ELEMENTS);
      t.items[v][0] = x.x, t.items[v][1] = x.y, t.items[v][2] = x.z, t.items[v][3] = x.w;
    }
  } else {
    const std::int64_t first = tile_base + thread_offset<S>();
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const std::int64_t i = first + v * S::CHUNK_ELEMENTS + j;
        t.items[v][j] = i < n ? in[i] : T(0);
      }
  }
  return t;
}

// Stores the tile at tile_base, elements below n only.
template <class S, class T>
__device__ void store_tile(T* out, std::int64_t n, std::int64_t tile_base, bool vector_io,
                           const thread_items<S, T>& t) {
  using V = typename vector4<T>::type;
  T* p = out + tile_base + thread_offset<S>();
  if (vector_io && tile_base + S::TILE_ELEMENTS <= n) {
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
      *reinterpret_cast<V*>(p + v * S::CHUNK_ELEMENTS) =
          V{t.items[v][0], t.items[v][1], t.items[v][2], t.items[v][3]};
  } else {
    const std::int64_t first = tile_base + thread_offset<S>();
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const std::int64_t i = first + v * S::CHUNK_ELEMENTS + j;
        if (i < n) out[i] = t.items[v][j];
      }
  }
}

// 16-byte loads and stores need 16-byte aligned arrays (cudaMalloc's are); others use scalars.
template <class T>
bool vector_io_possible(const T* in, const T* out) {
  return (reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) % 16 == 0;
}
//! [tile]

//! [block_scan]
// The sum of the whole warp's x, in every lane.
template <class T>
__device__ T warp_sum(T x) {
#pragma unroll
  for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2)
    x += __shfl_xor_sync(FULL_MASK, x, offset);
  return x;
}

// The barrier of all the block's threads. (scan_pipelined passes one of only the threads that
// hold the tile: a warp of its blocks does something else.)
struct block_barrier {
  __device__ void operator()() const { __syncthreads(); }
};

// The tile's sum, in every thread. warp_totals: S::WARPS words of shared memory.
template <class S, class T, class Barrier = block_barrier>
__device__ T block_sum(const thread_items<S, T>& t, T* warp_totals, Barrier barrier = {}) {
  T sum = T(0);
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
    for (int j = 0; j < 4; ++j) sum += t.items[v][j];
  sum = warp_sum(sum);
  if (threadIdx.x % WARP_THREADS == 0) warp_totals[threadIdx.x / WARP_THREADS] = sum;
  barrier();  // every warp's total is written
  T total = T(0);
#pragma unroll
  for (int w = 0; w < S::WARPS; ++w) total += warp_totals[w];
  return total;
}

// Replaces the tile's elements by their exclusive (or inclusive) scan within the tile and returns
// the tile's sum, in every thread. Three levels: each 4-element vector in registers; the 32
// vectors of a chunk by a warp scan of their sums (shuffles, all VECTORS chunks interleaved); the
// warps by one shared word each. warp_totals: S::WARPS words of shared memory, free on entry (the
// caller separates two uses by a barrier).
template <bool INCLUSIVE, class S, class T, class Barrier = block_barrier>
__device__ T block_scan(thread_items<S, T>& t, T* warp_totals, Barrier barrier = {}) {
  const int lane = threadIdx.x % WARP_THREADS, warp = threadIdx.x / WARP_THREADS;
  T lane_prefix[S::VECTORS], chunk_total[S::VECTORS];
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v) {  // inclusive scan of each vector, in registers
#pragma unroll
    for (int j = 1; j < 4; ++j) t.items[v][j] += t.items[v][j - 1];
    lane_prefix[v] = t.items[v][3];
  }
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset *= 2) {  // inclusive warp scans
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v) {
      const T left = __shfl_up_sync(FULL_MASK, lane_prefix[v], offset);
      if (lane >= offset) lane_prefix[v] += left;
    }
  }
  T warp_total = T(0);
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v) {  // inclusive -> exclusive, by a shift (no subtraction)
    chunk_total[v] = __shfl_sync(FULL_MASK, lane_prefix[v], WARP_THREADS - 1);
    warp_total += chunk_total[v];
    const T left = __shfl_up_sync(FULL_MASK, lane_prefix[v], 1);
    lane_prefix[v] = lane > 0 ? left : T(0);
  }
  if (lane == 0) warp_totals[warp] = warp_total;
  barrier();                           // every warp's total is written
  T offset = T(0), tile_total = T(0);  // the warps before this one; all warps
#pragma unroll
  for (int w = 0; w < S::WARPS; ++w) {
    const T x = warp_totals[w];
    if (w < warp) offset += x;
    tile_total += x;
  }
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v) {
    // Before this vector: the earlier warps, the earlier chunks of this warp, the earlier lanes.
    const T before = offset + lane_prefix[v];
#pragma unroll
    for (int j = 3; j >= 0; --j) {
      const T exclusive_in_vector = j > 0 ? t.items[v][j - 1] : T(0);
      t.items[v][j] = before + (INCLUSIVE ? t.items[v][j] : exclusive_in_vector);
    }
    offset += chunk_total[v];
  }
  return tile_total;
}
//! [block_scan]

//! [kernel]
using S = default_shape;  // this step's tile shape

// Pass 1: tile_sums[t] = the sum of the tile t = blockIdx.x.
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    reduce_tiles(const T* in, std::int64_t n, T* tile_sums, bool vector_io) {
  __shared__ T warp_totals[S::WARPS];
  const std::int64_t tile_base = std::int64_t(blockIdx.x) * TILE_ELEMENTS;
  const T total = block_sum(load_tile<S>(in, n, tile_base, vector_io), warp_totals);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = total;
}

// Pass 2, one block: sums[0, tiles) = their exclusive scan, in place, a tile of sums at a time.
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS) scan_tile_sums(T* sums, std::int64_t tiles) {
  __shared__ T warp_totals[S::WARPS];
  T carry = T(0);  // the sum of the tiles of sums before this one
  for (std::int64_t base = 0; base < tiles; base += TILE_ELEMENTS) {
    thread_items<S, T> t = load_tile<S>(sums, tiles, base, false);
    const T total = block_scan<false>(t, warp_totals);
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) t.items[v][j] += carry;
    store_tile(sums, tiles, base, false, t);
    carry += total;
    __syncthreads();  // warp_totals is read by every warp before the next tile writes it
  }
}

// Pass 3: the tile at blockIdx.x, scanned within the tile and offset by its prefix.
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* in, std::int64_t n, T* out, const T* tile_prefixes, bool vector_io) {
  __shared__ T warp_totals[S::WARPS];
  const std::int64_t tile_base = std::int64_t(blockIdx.x) * TILE_ELEMENTS;
  thread_items<S, T> t = load_tile<S>(in, n, tile_base, vector_io);
  block_scan<false>(t, warp_totals);
  const T prefix = tile_prefixes[blockIdx.x];
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
    for (int j = 0; j < 4; ++j) t.items[v][j] += prefix;
  store_tile(out, n, tile_base, vector_io, t);
}
//! [kernel]

//! [launch]
inline std::int64_t tiles_for(std::int64_t n) { return (n + TILE_ELEMENTS - 1) / TILE_ELEMENTS; }

// One sum per tile (int32 or float: 4 bytes).
inline std::size_t workspace_bytes(std::int64_t n) { return std::size_t(tiles_for(n)) * 4; }

// d_out[0, n) = the exclusive scan of d_in[0, n); d_in may equal d_out (each tile is read before
// it is written, by the same block). d_workspace: workspace_bytes(n).
template <class T>
void launch(const T* d_in, std::int64_t n, T* d_out, void* d_workspace) {
  if (n == 0) return;
  const std::int64_t tiles = tiles_for(n);  // < 2^31 for n < 2^42
  const bool vector_io = vector_io_possible(d_in, d_out);
  T* d_sums = static_cast<T*>(d_workspace);
  reduce_tiles<T><<<unsigned(tiles), BLOCK_THREADS>>>(d_in, n, d_sums, vector_io);
  CUDA_CHECK_LAUNCH();
  scan_tile_sums<T><<<1, BLOCK_THREADS>>>(d_sums, tiles);
  CUDA_CHECK_LAUNCH();
  kernel<T><<<unsigned(tiles), BLOCK_THREADS>>>(d_in, n, d_out, d_sums, vector_io);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace scan_reduce_then_scan
