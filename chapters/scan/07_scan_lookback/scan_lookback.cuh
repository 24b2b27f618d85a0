// scan_lookback: any n in one pass: each tile learns its prefix from its predecessors' published
//   sums (decoupled look-back), so every element is read once and written once (2 n).
// The one idea: a block takes the next tile from an atomic counter, scans it, publishes the tile's
//   sum (flag AGGREGATE) at once, then one warp reads the status words of the 32 tiles before it:
//   it adds aggregates back to the nearest tile that has published its inclusive prefix (flag
//   PREFIX), then publishes its own prefix. No tile waits for a whole chain of prefixes.
// Changes from the previous step (scan_reduce_then_scan): the same tile code (loads, registers,
//   shuffles) in one kernel instead of three; a tile counter and a status word per tile in the
//   workspace, zeroed by cudaMemsetAsync in every launch; --inclusive; a sweep of tile shapes and
//   look-back windows (default: 128 threads x 32 elements, a window of 32 tiles).
// What limits it: not DRAM bandwidth yet: on the H200 it moves 2 n elements in about the time
//   scan_reduce_then_scan takes for 3 n; the kernel is slower than that step's last pass, which
//   runs the same tile code on the same bytes (see the page). At small n, the two launches.
// Run: build/bin/scan_lookback [--n 2^28] [--inclusive] [--sweep]
// Source: beyond the slides (source 001); Merrill and Garland, "Single-pass Parallel Prefix Scan
//   with Decoupled Look-back" (NVIDIA technical report NVR-2016-002), section 4.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "chapters/scan/06_scan_reduce_then_scan/scan_reduce_then_scan.cuh"
#include "common/check.cuh"
#include "common/scan/program.cuh"

namespace scan_lookback {

using scan_reduce_then_scan::block_scan;
using scan_reduce_then_scan::FULL_MASK;
using scan_reduce_then_scan::load_tile;
using scan_reduce_then_scan::shape;
using scan_reduce_then_scan::store_tile;
using scan_reduce_then_scan::thread_items;
using scan_reduce_then_scan::warp_sum;
using scan_reduce_then_scan::WARP_THREADS;
// The default: 128 threads x 32 elements (4096-element tiles) and a window of 32 tiles, the
// fastest of the sweep at 2^28 on the H200 for both types (wider windows were slower: see the
// page).
using default_shape = shape<128, 8>;
constexpr int DEFAULT_WINDOW = 32;
constexpr int BLOCK_THREADS = default_shape::BLOCK_THREADS;
constexpr int TILE_ELEMENTS = default_shape::TILE_ELEMENTS;

//! [status]
// A tile's status: flag in the high 32 bits, the value's bits in the low 32, in one 64-bit word,
// so that a reader sees a flag and its value together or not at all. The workspace is zeroed
// before every launch: INVALID (0) means "not published yet".
enum : unsigned { STATUS_INVALID = 0, STATUS_AGGREGATE = 1, STATUS_PREFIX = 2 };

__device__ inline unsigned bits_of(std::int32_t x) { return unsigned(x); }
__device__ inline unsigned bits_of(float x) { return __float_as_uint(x); }
template <class T>
__device__ T value_of(unsigned long long word) {
  const unsigned bits = unsigned(word);
  if constexpr (std::is_same_v<T, float>)
    return __uint_as_float(bits);
  else
    return T(bits);
}
__device__ inline unsigned flag_of(unsigned long long word) { return unsigned(word >> 32); }

// Relaxed, at GPU scope: the load goes to L2 (never a stale L1 line), and a single 64-bit access
// cannot be torn. No acquire/release is needed: a status word carries all it publishes.
template <class T>
__device__ void publish(unsigned long long* status, unsigned flag, T value) {
  const unsigned long long word = (static_cast<unsigned long long>(flag) << 32) | bits_of(value);
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(status), "l"(word) : "memory");
}
__device__ inline unsigned long long read_status(const unsigned long long* status) {
  unsigned long long word;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(word) : "l"(status) : "memory");
  return word;
}
//! [status]

//! [look_back]
// Run by warp 0 of the block that owns `tile`, once its sum tile_total is known: publishes the
// aggregate (unless the caller already has: PUBLISH_AGGREGATE false), looks back, publishes the
// inclusive prefix; returns the exclusive prefix (in every lane). Window by window of WINDOW
// predecessors, lane l reads the status words of tiles window_start + 32 j + l (j in [0, WINDOW /
// 32), coalesced); the warp waits until none of them is INVALID, then adds the values from the
// nearest PREFIX on, or all WINDOW aggregates and moves a window back when there is none. A wider
// window needs fewer round trips to L2 when the nearest PREFIX is far back, but holds WINDOW / 32
// status words per thread in registers (every thread of the kernel pays for them); on the H200 the
// 32-tile window was the fastest (see the page).
template <int WINDOW, bool PUBLISH_AGGREGATE = true, class T>
__device__ T look_back(unsigned long long* status, std::int64_t tile, T tile_total) {
  static_assert(WINDOW % WARP_THREADS == 0, "whole warps");
  constexpr int WORDS = WINDOW / WARP_THREADS;  // status words per lane
  const int lane = threadIdx.x % WARP_THREADS;
  if (tile == 0) {
    if (lane == 0) publish(&status[0], STATUS_PREFIX, tile_total);
    return T(0);
  }
  if (PUBLISH_AGGREGATE && lane == 0) publish(&status[tile], STATUS_AGGREGATE, tile_total);
  // Before tile 0: a PREFIX of 0, which ends the look-back.
  constexpr unsigned long long PREFIX_OF_ZERO = static_cast<unsigned long long>(STATUS_PREFIX)
                                                << 32;
  T exclusive = T(0);
  for (std::int64_t window_start = tile - WINDOW;; window_start -= WINDOW) {
    unsigned long long words[WORDS];
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      const std::int64_t predecessor = window_start + j * WARP_THREADS + lane;
      words[j] = predecessor >= 0 ? read_status(&status[predecessor]) : PREFIX_OF_ZERO;
    }
    for (;;) {  // until every word of the window is published
      bool invalid = false;
#pragma unroll
      for (int j = 0; j < WORDS; ++j) invalid = invalid || flag_of(words[j]) == STATUS_INVALID;
      if (!__any_sync(FULL_MASK, invalid)) break;
#pragma unroll
      for (int j = 0; j < WORDS; ++j)
        if (flag_of(words[j]) == STATUS_INVALID)
          words[j] = read_status(&status[window_start + j * WARP_THREADS + lane]);
    }
    int nearest = -1;  // the window position of the nearest PREFIX (the same in every lane)
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      const unsigned prefix_lanes = __ballot_sync(FULL_MASK, flag_of(words[j]) == STATUS_PREFIX);
      if (prefix_lanes) nearest = j * WARP_THREADS + WARP_THREADS - 1 - __clz(prefix_lanes);
    }
    T sum = T(0);
#pragma unroll
    for (int j = 0; j < WORDS; ++j)
      if (j * WARP_THREADS + lane >= nearest) sum += value_of<T>(words[j]);
    exclusive += warp_sum(sum);
    if (nearest >= 0) break;
  }
  if (lane == 0) publish(&status[tile], STATUS_PREFIX, exclusive + tile_total);
  return exclusive;
}
//! [look_back]

//! [kernel]
// One tile per block; which tile, the counter decides: a block gets a tile only once it runs, so
// every earlier tile belongs to a block that is running or done, and the look-back cannot wait on
// a block that was never scheduled (blockIdx.x gives no such promise).
template <class S, int WINDOW, bool INCLUSIVE, class T>
__global__ void __launch_bounds__(S::BLOCK_THREADS)
    kernel(const T* in, std::int64_t n, T* out, unsigned* tile_counter, unsigned long long* status,
           bool vector_io) {
  __shared__ T warp_totals[S::WARPS];
  __shared__ unsigned tile_of_block;
  __shared__ T tile_prefix;
  if (threadIdx.x == 0) tile_of_block = atomicAdd(tile_counter, 1u);
  __syncthreads();  // tile_of_block is set
  const std::int64_t tile = tile_of_block;
  const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
  thread_items<S, T> t = load_tile<S>(in, n, tile_base, vector_io);
  const T tile_total = block_scan<INCLUSIVE>(t, warp_totals);
  if (threadIdx.x < WARP_THREADS) {
    const T prefix = look_back<WINDOW>(status, tile, tile_total);
    if (threadIdx.x == 0) tile_prefix = prefix;
  }
  __syncthreads();  // tile_prefix is set
  const T prefix = tile_prefix;
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
    for (int j = 0; j < 4; ++j) t.items[v][j] += prefix;
  store_tile(out, n, tile_base, vector_io, t);
}
//! [kernel]

//! [launch]
// The workspace: the tile counter (8 bytes, keeping the status words aligned), one status word per
// tile.
template <class S>
std::size_t workspace_bytes(std::int64_t n) {
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;
  return 8 + std::size_t(tiles) * 8;
}

// d_out[0, n) = the exclusive (or inclusive) scan of d_in[0, n). d_in may equal d_out (a tile is
// read and written by one block). d_workspace: workspace_bytes<S>(n), any content: it is zeroed
// here, on the same stream, before the kernel.
template <class T, bool INCLUSIVE = false, class S = default_shape, int WINDOW = DEFAULT_WINDOW>
void launch(const T* d_in, std::int64_t n, T* d_out, void* d_workspace) {
  if (n == 0) return;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;  // < 2^31 for n < 2^40
  CUDA_CHECK(cudaMemsetAsync(d_workspace, 0, workspace_bytes<S>(n), 0));
  auto* tile_counter = static_cast<unsigned*>(d_workspace);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(d_workspace) + 8);
  kernel<S, WINDOW, INCLUSIVE, T><<<unsigned(tiles), S::BLOCK_THREADS>>>(
      d_in, n, d_out, tile_counter, status, scan_reduce_then_scan::vector_io_possible(d_in, d_out));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

// The program's and the tests' variant of one shape: exclusive and inclusive, int32 and float.
template <int THREADS, int VECTORS, int WINDOW>
common::scan_variant shape_variant() {
  using S = shape<THREADS, VECTORS>;
  common::scan_variant v;
  v.name = "block=" + std::to_string(THREADS) + " items=" + std::to_string(S::ITEMS) +
           " window=" + std::to_string(WINDOW);
  v.exclusive_int32 = launch<std::int32_t, false, S, WINDOW>;
  v.exclusive_float = launch<float, false, S, WINDOW>;
  v.inclusive_int32 = launch<std::int32_t, true, S, WINDOW>;
  v.inclusive_float = launch<float, true, S, WINDOW>;
  v.workspace_bytes = workspace_bytes<S>;
  return v;
}

// The program's and the tests' variants: the default first, then the others the sweep measures.
inline std::vector<common::scan_variant> variants() {
  return {shape_variant<default_shape::BLOCK_THREADS, default_shape::VECTORS, DEFAULT_WINDOW>(),
          shape_variant<256, 4, 32>(),
          shape_variant<256, 4, 256>(),
          shape_variant<128, 8, 256>(),
          shape_variant<128, 8, 128>(),
          shape_variant<256, 8, 256>(),
          shape_variant<256, 6, 256>(),
          shape_variant<128, 4, 256>()};
}

}  // namespace scan_lookback
