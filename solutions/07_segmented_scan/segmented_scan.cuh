// Exercise 07, segmented_scan: an inclusive scan of int32 values that starts again at every segment
// head (heads given as one uint8 flag per element).
// Practises Part III: a scan over many tiles, where the state carried from tile to tile is no
// longer a plain sum but a (seen a head, value) pair.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace segmented_scan {

// >>> YOUR CODE: kernels
// Three passes over 4096-element tiles (256 threads; each warp owns 512 consecutive elements, read
// in 16 rounds of 32): reduce each tile to its pair (has a head, value flowing out), scan the
// tiles' pairs in one block into the value flowing into each tile, scan each tile again from it.
// Inside a round, a ballot of the heads finds each lane's last head at or before it, and a plain
// warp sum gives the segment's sum as a difference of two prefix sums (exact modulo 2^32).
constexpr int BLOCK_THREADS = 256;
constexpr int ROUNDS = 16;          // per warp: 16 loads of values and heads in flight
constexpr int CHUNK = 32 * ROUNDS;  // a warp's consecutive elements
constexpr int WARPS = BLOCK_THREADS / 32;
constexpr int TILE = WARPS * CHUNK;  // 4096
constexpr unsigned FULL_MASK = 0xFFFFFFFFu;
static_assert(ROUNDS <= 32, "a thread keeps one bit per round");

constexpr std::int64_t tile_count(std::int64_t n) { return (n + TILE - 1) / TILE; }

// A tile's or a warp's summary: whether it holds a head, and the value that flows out of its last
// element when nothing flows in. Combining a left and a right summary: the right one's value if
// it holds a head, else the two values added; (no head, 0) is the identity.
struct summary {
  unsigned has_head;
  unsigned value;
};
__device__ summary combine(summary left, summary right) {
  return {left.has_head | right.has_head, right.has_head ? right.value : left.value + right.value};
}
// Packed into 64 bits for the scratch: head flag above, value below.
__device__ unsigned long long pack(summary s) {
  return (static_cast<unsigned long long>(s.has_head) << 32) | s.value;
}
__device__ summary unpack(unsigned long long bits) {
  return {unsigned(bits >> 32), unsigned(bits)};
}

__device__ unsigned warp_inclusive_sum(unsigned value) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const unsigned left = __shfl_up_sync(FULL_MASK, value, d);
    if (lane >= d) value += left;
  }
  return value;
}

__device__ summary warp_inclusive_combine(summary s) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const summary left{__shfl_up_sync(FULL_MASK, s.has_head, d),
                       __shfl_up_sync(FULL_MASK, s.value, d)};
    if (lane >= d) s = combine(left, s);
  }
  return s;
}

// One tile. WRITE = false (pass 1): the tile's summary to *tile_summary. WRITE = true (pass 3):
// the scanned tile to out, with carry_in the value flowing into the tile.
template <bool WRITE>
__device__ void scan_tile(const std::int32_t* values, const std::uint8_t* heads, std::int64_t n,
                          unsigned carry_in, std::int32_t* out, unsigned long long* tile_summary) {
  __shared__ summary warp_summaries[WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const std::int64_t tile_base = std::int64_t(blockIdx.x) * TILE;
  const std::int64_t chunk = tile_base + std::int64_t(warp) * CHUNK + lane;
  const bool full = tile_base + TILE <= n;
  unsigned value[ROUNDS];
  unsigned head_ballot[ROUNDS];
#pragma unroll
  for (int r = 0; r < ROUNDS; ++r) {
    const std::int64_t i = chunk + r * 32;
    const bool inside = full || i < n;  // past n: value 0 and no head change nothing
    value[r] = inside ? unsigned(values[i]) : 0u;
    head_ballot[r] = __ballot_sync(FULL_MASK, inside && heads[i] != 0);
  }
  // The warp's chunk as if nothing flowed into it: value[r] becomes the chunk-local result;
  // bit r of open says that no head of the chunk precedes or is the element (it needs the carry).
  const unsigned lanes_up_to_me = FULL_MASK >> (31 - lane);
  unsigned carry = 0, open = 0;
  bool seen_head = false;
#pragma unroll
  for (int r = 0; r < ROUNDS; ++r) {
    const unsigned prefix = warp_inclusive_sum(value[r]);
    const unsigned heads_up_to_me = head_ballot[r] & lanes_up_to_me;
    const int last_head = heads_up_to_me != 0 ? 31 - __clz(heads_up_to_me) : -1;
    // The prefix sum just before my segment's head (every lane takes part in the shuffle).
    const unsigned before_head = __shfl_sync(FULL_MASK, prefix, last_head > 0 ? last_head - 1 : 0);
    value[r] = last_head >= 0 ? prefix - (last_head > 0 ? before_head : 0u) : carry + prefix;
    if (!seen_head && last_head < 0) open |= 1u << r;
    carry = __shfl_sync(FULL_MASK, value[r], 31);
    seen_head = seen_head || head_ballot[r] != 0;
  }
  if (lane == 0) warp_summaries[warp] = summary{seen_head ? 1u : 0u, carry};
  __syncthreads();
  if constexpr (WRITE) {
    unsigned flowing_in = carry_in;  // into this warp's chunk: the tile's, then each warp before
    for (int w = 0; w < warp; ++w)
      flowing_in = combine(summary{0, flowing_in}, warp_summaries[w]).value;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
      const std::int64_t i = chunk + r * 32;
      if (full || i < n) out[i] = std::int32_t(value[r] + (((open >> r) & 1u) ? flowing_in : 0u));
    }
  } else if (threadIdx.x == 0) {
    summary tile{0, 0};
    for (int w = 0; w < WARPS; ++w) tile = combine(tile, warp_summaries[w]);
    *tile_summary = pack(tile);
  }
}

// Pass 1: every tile's summary.
__global__ void __launch_bounds__(BLOCK_THREADS)
    summarize_tiles(const std::int32_t* values, const std::uint8_t* heads, std::int64_t n,
                    unsigned long long* summaries) {
  scan_tile<false>(values, heads, n, 0, nullptr, summaries + blockIdx.x);
}

// Pass 2, one block: summaries[t] becomes the value flowing into tile t (in the low 32 bits),
// in place, chunk after chunk of SCAN_THREADS x SCAN_ITEMS tiles.
constexpr int SCAN_THREADS = 1024;
constexpr int SCAN_ITEMS = 8;

__global__ void __launch_bounds__(SCAN_THREADS)
    scan_summaries(unsigned long long* summaries, std::int64_t tiles) {
  __shared__ summary warp_totals[SCAN_THREADS / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  unsigned flowing = 0;  // into the current chunk
  for (std::int64_t chunk = 0; chunk < tiles; chunk += SCAN_THREADS * SCAN_ITEMS) {
    const std::int64_t first = chunk + std::int64_t(threadIdx.x) * SCAN_ITEMS;
    summary s[SCAN_ITEMS];
    summary mine{0, 0};
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      s[k] = first + k < tiles ? unpack(summaries[first + k]) : summary{0, 0};
      mine = combine(mine, s[k]);
    }
    const summary inclusive = warp_inclusive_combine(mine);
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) warp_totals[lane] = warp_inclusive_combine(warp_totals[lane]);
    __syncthreads();
    // What flows into my first tile: the chunk's inflow, the warps before, the lanes before.
    const summary lanes_before{__shfl_up_sync(FULL_MASK, inclusive.has_head, 1),
                               __shfl_up_sync(FULL_MASK, inclusive.value, 1)};
    summary before{0, flowing};
    if (warp > 0) before = combine(before, warp_totals[warp - 1]);
    if (lane > 0) before = combine(before, lanes_before);
    unsigned into = before.value;
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      if (first + k < tiles) summaries[first + k] = into;
      into = combine(summary{0, into}, s[k]).value;
    }
    flowing = combine(summary{0, flowing}, warp_totals[SCAN_THREADS / 32 - 1]).value;
    __syncthreads();  // every thread has read warp_totals before the next chunk writes it
  }
}

// Pass 3: every tile scanned from the value flowing into it.
__global__ void __launch_bounds__(BLOCK_THREADS)
    scan_tiles(const std::int32_t* values, const std::uint8_t* heads, std::int64_t n,
               const unsigned long long* carries, std::int32_t* out) {
  scan_tile<true>(values, heads, n, unsigned(carries[blockIdx.x]), out, nullptr);
}
// <<< YOUR CODE

// The bytes of device scratch memory launch() needs for n elements (0 if none). The caller
// allocates them once and passes the same scratch to every launch() with this n.
inline std::size_t scratch_bytes(std::int64_t n) {
  // >>> YOUR CODE: scratch_bytes
  return std::size_t(tile_count(n)) * sizeof(unsigned long long);  // a summary, then a carry
  // <<< YOUR CODE
}

// d_values holds n ints and d_heads n flags (nonzero: a segment starts there). Writes
// d_out[i] = d_values[i] if d_heads[i] != 0 or i == 0, else d_out[i - 1] + d_values[i], with sums
// wrapping around modulo 2^32. d_scratch holds scratch_bytes(n) bytes in any state.
inline void launch(const std::int32_t* d_values, const std::uint8_t* d_heads, std::int64_t n,
                   std::int32_t* d_out, void* d_scratch) {
  // >>> YOUR CODE: launch
  if (n == 0) return;                        // no tile: a grid of zero blocks is a launch error
  const std::int64_t tiles = tile_count(n);  // < 2^31 for any n a device holds
  auto* summaries = static_cast<unsigned long long*>(d_scratch);
  summarize_tiles<<<unsigned(tiles), BLOCK_THREADS>>>(d_values, d_heads, n, summaries);
  CUDA_CHECK_LAUNCH();
  scan_summaries<<<1, SCAN_THREADS>>>(summaries, tiles);
  CUDA_CHECK_LAUNCH();
  scan_tiles<<<unsigned(tiles), BLOCK_THREADS>>>(d_values, d_heads, n, summaries, d_out);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace segmented_scan
