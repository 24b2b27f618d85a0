// Exercise 06, compact: keep the int32 elements above a threshold, in order (stream compaction).
// Practises Part III: flags, a scan of the flags, a scatter to the scanned offsets, across tiles.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace compact {

// >>> YOUR CODE: kernels
// Three passes over 4096-element tiles: count each tile's kept elements; scan the counts in one
// block (offsets); write each tile's kept elements from its offset on. The input is read twice,
// the kept elements written once; the counts (8 bytes per tile) are noise.
constexpr int BLOCK_THREADS = 256;
constexpr int ITEMS = 16;  // per thread: 16 loads in flight
constexpr int TILE = BLOCK_THREADS * ITEMS;
constexpr int WARPS = BLOCK_THREADS / 32;
constexpr unsigned FULL_MASK = 0xFFFFFFFFu;
// The scatter scans its ITEMS x WARPS warp counts with one warp, four per lane.
static_assert(ITEMS * WARPS == 4 * 32, "the tile's warp counts are four per lane of one warp");

constexpr std::int64_t tile_count(std::int64_t n) { return (n + TILE - 1) / TILE; }

template <class T>
__device__ T warp_inclusive_sum(T value) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T left = __shfl_up_sync(FULL_MASK, value, d);
    if (lane >= d) value += left;
  }
  return value;
}

// Pass 1: tile_counts[t] = the kept elements of tile t. Order does not matter here, so full tiles
// of a 16-byte aligned input are read as int4 (4 loads per thread instead of 16).
__global__ void __launch_bounds__(BLOCK_THREADS)
    count_tiles(const std::int32_t* in, std::int64_t n, std::int32_t threshold,
                long long* tile_counts) {
  const std::int64_t base = std::int64_t(blockIdx.x) * TILE;
  int kept = 0;
  if (base + TILE <= n && reinterpret_cast<std::uintptr_t>(in) % sizeof(int4) == 0) {
    const int4* in4 = reinterpret_cast<const int4*>(in + base);
#pragma unroll
    for (int r = 0; r < ITEMS / 4; ++r) {
      const int4 v = in4[r * BLOCK_THREADS + threadIdx.x];
      kept += (v.x > threshold) + (v.y > threshold) + (v.z > threshold) + (v.w > threshold);
    }
  } else {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const std::int64_t i = base + r * BLOCK_THREADS + threadIdx.x;
      kept += i < n && in[i] > threshold;
    }
  }
  __shared__ int warp_kept[WARPS];
  kept = warp_inclusive_sum(kept);  // lane 31 holds the warp's total
  if ((threadIdx.x & 31) == 31) warp_kept[threadIdx.x / 32] = kept;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < WARPS; ++w) total += warp_kept[w];
    tile_counts[blockIdx.x] = total;
  }
}

// Pass 2, one block: the tiles' counts become their exclusive offsets, in place, chunk after
// chunk of SCAN_THREADS x SCAN_ITEMS tiles; the grand total goes to *total.
constexpr int SCAN_THREADS = 1024;
constexpr int SCAN_ITEMS = 8;

__global__ void __launch_bounds__(SCAN_THREADS)
    scan_tile_counts(long long* counts, std::int64_t tiles, unsigned long long* total) {
  __shared__ long long warp_sums[SCAN_THREADS / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  long long carry = 0;  // the sum of every earlier chunk
  for (std::int64_t chunk = 0; chunk < tiles; chunk += SCAN_THREADS * SCAN_ITEMS) {
    const std::int64_t first = chunk + std::int64_t(threadIdx.x) * SCAN_ITEMS;
    long long v[SCAN_ITEMS];
    long long sum = 0;
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      v[k] = first + k < tiles ? counts[first + k] : 0;
      sum += v[k];
    }
    const long long inclusive = warp_inclusive_sum(sum);
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) warp_sums[lane] = warp_inclusive_sum(warp_sums[lane]);
    __syncthreads();
    long long offset = carry + (warp > 0 ? warp_sums[warp - 1] : 0) + inclusive - sum;
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      if (first + k < tiles) counts[first + k] = offset;
      offset += v[k];
    }
    carry += warp_sums[SCAN_THREADS / 32 - 1];
    __syncthreads();  // every thread has read warp_sums before the next chunk writes it
  }
  if (threadIdx.x == 0) *total = static_cast<unsigned long long>(carry);
}

// Pass 3: each tile again, in element order: round r covers the tile's elements
// [r * BLOCK_THREADS, (r + 1) * BLOCK_THREADS), one per thread. A ballot per round and warp gives
// each kept element its rank in the warp; one warp scans the ITEMS x WARPS warp counts (in
// element order: round-major, warp-minor) into offsets inside the tile.
__global__ void __launch_bounds__(BLOCK_THREADS)
    scatter_kept(const std::int32_t* in, std::int64_t n, std::int32_t threshold,
                 const long long* tile_offsets, std::int32_t* out) {
  __shared__ int warp_offsets[ITEMS * WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const std::int64_t base = std::int64_t(blockIdx.x) * TILE;
  std::int32_t value[ITEMS];
  unsigned ballot[ITEMS];
  if (base + TILE <= n) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) value[r] = in[base + r * BLOCK_THREADS + threadIdx.x];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) ballot[r] = __ballot_sync(FULL_MASK, value[r] > threshold);
  } else {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const std::int64_t i = base + r * BLOCK_THREADS + threadIdx.x;
      value[r] = i < n ? in[i] : threshold;  // past n: never kept
      ballot[r] = __ballot_sync(FULL_MASK, value[r] > threshold);
    }
  }
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) warp_offsets[r * WARPS + warp] = __popc(ballot[r]);
  }
  __syncthreads();
  if (warp == 0) {
    int c[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) c[k] = warp_offsets[4 * lane + k];
    const int sum = c[0] + c[1] + c[2] + c[3];
    int offset = warp_inclusive_sum(sum) - sum;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      warp_offsets[4 * lane + k] = offset;
      offset += c[k];
    }
  }
  __syncthreads();
  std::int32_t* tile_out = out + tile_offsets[blockIdx.x];
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    if ((ballot[r] >> lane) & 1u)
      tile_out[warp_offsets[r * WARPS + warp] + __popc(ballot[r] & lanes_below)] = value[r];
  }
}
// <<< YOUR CODE

// The bytes of device scratch memory launch() needs for n elements (0 if none). The caller
// allocates them once and passes the same scratch to every launch() with this n.
inline std::size_t scratch_bytes(std::int64_t n) {
  // >>> YOUR CODE: scratch_bytes
  return std::size_t(tile_count(n)) * sizeof(long long);  // one count, then offset, per tile
  // <<< YOUR CODE
}

// d_in holds n ints; writes the elements > threshold to d_out[0, count) in their order and count
// to *d_count. d_out has room for n ints; its elements past count may hold anything afterwards.
// d_scratch holds scratch_bytes(n) bytes in any state (earlier launches leave theirs behind).
inline void launch(const std::int32_t* d_in, std::int64_t n, std::int32_t threshold,
                   std::int32_t* d_out, unsigned long long* d_count, void* d_scratch) {
  // >>> YOUR CODE: launch
  if (n == 0) {  // no tile: a grid of zero blocks is a launch error
    CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(*d_count)));
    return;
  }
  const std::int64_t tiles = tile_count(n);  // < 2^31 for any n a device holds
  auto* tile_offsets = static_cast<long long*>(d_scratch);
  count_tiles<<<unsigned(tiles), BLOCK_THREADS>>>(d_in, n, threshold, tile_offsets);
  CUDA_CHECK_LAUNCH();
  scan_tile_counts<<<1, SCAN_THREADS>>>(tile_offsets, tiles, d_count);
  CUDA_CHECK_LAUNCH();
  scatter_kept<<<unsigned(tiles), BLOCK_THREADS>>>(d_in, n, threshold, tile_offsets, d_out);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace compact
