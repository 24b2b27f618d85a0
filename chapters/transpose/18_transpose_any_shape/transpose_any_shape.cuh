// transpose_any_shape: transpose_fast for every shape, at or past cublasSgeam's speed.
// The one idea: a row that does not start on a 16-byte boundary still moves in whole 16-byte
//   pieces. Each lane loads the two aligned chunks that hold its four floats and picks them out
//   (window); each output row is shifted to its own alignment across the 16 lanes that hold it
//   (warp shuffles) and stored in whole aligned chunks, the chunk that straddles the seam with
//   the tile below stored by this tile, from the 3 input rows below it that it loads too
//   (store_whole_chunks). Partial tiles take the same code (any_tile) in the same launch as the
//   whole ones (kernel), and the last 1 to 3 rows or columns go into the tiles beside them.
// Changes from transpose_fast: kernel_edge (one float at a time, in launches of its own) becomes
//   any_tile; whole tiles keep the bulk stores, behind realigned loads or from each output row's
//   first whole chunk; and launch() = run(choose_plan(shape, gpu)): a plan (plan.hpp) picks,
//   for shapes the tiles serve poorly, a kernel of its own (kernel_*.cuh: narrow matrices, a side
//   of a few dozen floats, about one wave of them, both sides odd, only the input rows odd,
//   output rows 16 bytes off a sector) and the order of the tiles; tuning.hpp holds its
//   thresholds and the evidence for each. `--explain` prints the plan for a shape.
// What limits it: DRAM for sides that are multiples of 64 (nearly cudaMemcpy's speed); at other
//   sides about the same bytes take longer, most where the output rows start off 16-byte
//   boundaries (see its page, for every shape class against cublasSgeam and cudaMemcpy).
// Run: build/bin/transpose_any_shape [--rows 4097 --cols 4099] [--sweep] [--explain] [--quick]
// Source: none of the five; it finishes transpose_fast for the shapes its bench did not measure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "chapters/transpose/17_transpose_fast/transpose_fast.cuh"
#include "common/bandwidth.hpp"
#include "common/check.cuh"
#include "common/per_device.cuh"
#include "common/transpose/program.cuh"
#include "geometry.hpp"
#include "launch_trace.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "variants.hpp"
#include "wide_fetch.cuh"

namespace transpose_any_shape {

// transpose_fast's tile, its swizzle, its thread-to-block mapping, its register transpose, its
// bulk stores and its whole-tile code (full_tile), unchanged.
using transpose_fast::block_of;
using transpose_fast::block_of_thread;
using transpose_fast::bulk_store;
using transpose_fast::BULK_STORES;
using transpose_fast::full_tile;
using transpose_fast::MIN_BLOCKS_PER_SM;  // 6 blocks of 256 threads per SM
using transpose_fast::resident_blocks;
using transpose_fast::ship_row;
using transpose_fast::SLOTS;
using transpose_fast::tile_offset;
using transpose_fast::transpose_block;
using transpose_fast::transposed_block;
static_assert(BLOCK_THREADS == transpose_fast::BLOCK_THREADS &&
                  TILE_DIM == transpose_fast::TILE_DIM && VEC == transpose_fast::VEC &&
                  MAX_GRID_Y == transpose_fast::MAX_GRID_Y,
              "geometry.hpp repeats transpose_fast's tile for the host-only plan");
constexpr int LOAD_ROWS = BLOCK_THREADS / SLOTS;  // tile rows loaded per pass
constexpr int LOADS = TILE_DIM / LOAD_ROWS;       // passes: float4 loads per thread
constexpr unsigned FULL_WARP = 0xffffffffu;

// The floats of a side that a tile starting at float `first` of it holds: TILE_DIM, or fewer at
// the matrix's last tile (the kernels that take no thin edges into the tiles beside them).
__device__ __forceinline__ int tile_extent(std::int64_t side, std::int64_t first) {
  return side - first < TILE_DIM ? int(side - first) : TILE_DIM;
}

//! [window]
// Float k (in [0, 8)) of the 8 floats lo, hi; then the 4 floats that start at float `shift`
// (in [0, 4]) of them. Selects, not an indexed array: an array indexed at run time would live in
// local memory.
__host__ __device__ inline float float_of(float4 v, int k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}
__host__ __device__ inline float float_of(float4 lo, float4 hi, int k) {
  return k < VEC ? float_of(lo, k) : float_of(hi, k - VEC);
}
__host__ __device__ inline float4 window(float4 lo, float4 hi, int shift) {
  return make_float4(float_of(lo, hi, shift), float_of(lo, hi, shift + 1),
                     float_of(lo, hi, shift + 2), float_of(lo, hi, shift + 3));
}
//! [window]

// A whole tile of a matrix whose rows and cols are multiples of 4: transpose_fast's full_tile with
// its bulk stores, from an output tile of this kernel's own. WIDE_FETCH: load_input's.
template <bool WIDE_FETCH>
__device__ __forceinline__ void whole_tile(const float* __restrict__ in, float* __restrict__ out,
                                           std::int64_t rows, std::int64_t cols, std::int64_t row0,
                                           std::int64_t col0, float* tile) {
  __shared__ __align__(128) float out_tile[TILE_DIM * TILE_DIM];  // output rows, dense
  full_tile<BULK_STORES, input_loads<WIDE_FETCH>>(in, out, rows, cols, row0, col0, tile, out_tile);
}

//! [load]
// The 16-byte chunk of the input that starts at float `first` (a multiple of 4), if it holds a
// float of the tile (`needed`); the float-by-float load is for the last chunk of a matrix whose
// size is not a multiple of 4, which reaches past the end of the allocation. WIDE_FETCH:
// load_input's (wide_fetch.cuh).
template <bool WIDE_FETCH = false>
__device__ __forceinline__ float4 load_chunk(const float* __restrict__ in, std::int64_t first,
                                             bool needed, std::int64_t n) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (!needed) return v;
  if (first + VEC <= n) return load_input<WIDE_FETCH>(in + first);
  v.x = in[first];  // `needed`: at least the chunk's first float is inside the matrix
  if (first + 1 < n) v.y = in[first + 1];
  if (first + 2 < n) v.z = in[first + 2];
  return v;
}
//! [load]

//! [any]
// The two aligned 16-byte chunks that hold the 4 floats of a tile row that the lane of slot `slot`
// loads: floats 4 slot .. 4 slot + 3 of the row (`width` floats), which starts at input float
// `start`, `shift` = start % 4 floats past a 16-byte boundary. They are the aligned chunks slot and
// slot + 1 counted from that boundary (the second is also the next lane's first; it is not loaded
// where the row is aligned). MAY_SHIFT false: the row is aligned (shift 0). WIDE_FETCH:
// load_chunk's.
struct row_chunks {
  float4 lo, hi;
  int shift;
  __device__ float4 piece() const { return window(lo, hi, shift); }
};
template <bool MAY_SHIFT, bool WIDE_FETCH = false>
__device__ __forceinline__ row_chunks load_row_chunks(const float* __restrict__ in,
                                                      std::int64_t start, int slot, int width,
                                                      bool row_in, std::int64_t n) {
  const int shift = MAY_SHIFT ? int(start % VEC) : 0;
  const std::int64_t first = start - shift + VEC * slot;
  return {
      load_chunk<WIDE_FETCH>(in, first, row_in && VEC * slot < shift + width, n),
      load_chunk<WIDE_FETCH>(
          in, first + VEC, MAY_SHIFT && shift > 0 && row_in && VEC * slot + VEC < shift + width, n),
      shift};
}

// Load phase: this thread's tile rows load_row + k LOAD_ROWS, each `shift` = start % 4 floats past
// a 16-byte boundary (REALIGN_LOADS; else 0), windowed into the swizzled tile, GROUP rows' loads in
// flight at a time (LOADS: all of them at once); with WHOLE_CHUNKS also the input row TILE_DIM +
// load_row below the tile (the BELOW rows 64 .. 66; 67 gets zeros), loaded once the tile's own
// loads have left their registers. WIDE_FETCH: load_chunk's.
template <bool REALIGN_LOADS, bool WHOLE_CHUNKS, bool WIDE_FETCH, int GROUP = LOADS>
__device__ __forceinline__ void load_tile(const float* __restrict__ in, std::int64_t rows,
                                          std::int64_t cols, std::int64_t row0, std::int64_t col0,
                                          int height, int width, int load_row, int load_slot,
                                          float* tile) {
  const std::int64_t n = rows * cols;
  const auto load_row_at = [&](int r, bool row_in) {
    return load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + r) * cols + col0, load_slot,
                                                      width, row_in, n);
  };
#pragma unroll
  for (int g = 0; g < LOADS; g += GROUP) {
    row_chunks v[GROUP];
#pragma unroll
    for (int k = 0; k < GROUP; ++k) {
      const int r = load_row + (g + k) * LOAD_ROWS;  // [0, TILE_DIM)
      v[k] = load_row_at(r, r < height);
    }
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
      *reinterpret_cast<float4*>(
          &tile[tile_offset(load_row + (g + k) * LOAD_ROWS, VEC * load_slot)]) = v[k].piece();
  }
  if (WHOLE_CHUNKS && load_row < VEC) {
    const int r = TILE_DIM + load_row;
    *reinterpret_cast<float4*>(&tile[tile_offset(r, VEC * load_slot)]) =
        load_row_at(r, load_row < BELOW && row0 + r < rows).piece();
  }
}

// at(0) .. at(3) as one 16-byte store at `to` (16-byte aligned), evict-first.
template <typename At>
__device__ __forceinline__ void store_four(float* to, At at) {
  __stcs(reinterpret_cast<float4*>(to), make_float4(at(0), at(1), at(2), at(3)));
}

// One aligned 16-byte chunk of realigned output rows, at `to`: output floats `row` .. `row` + 3
// of its output row, float i being at(i). Whole where all four are inside the matrix (row + 4 <=
// rows), else float by float at the matrix's last row. Evict-first.
template <typename At>
__device__ __forceinline__ void store_chunk(float* to, std::int64_t row, std::int64_t rows, At at) {
  if (row + VEC <= rows) {
    store_four(to, at);
  } else {
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      if (row + i < rows) __stcs(to + i, at(i));
  }
}

// The floats of a realigned output row's segment that no whole chunk of the tile holds: its first
// `ahead` (stored here only in the first row of tiles; elsewhere the block above stores them with
// its last chunk), at(i) being tile row i; and, where the tile takes the matrix's last rows, those
// past its last chunk, tile rows TILE_DIM + ahead .. height - 1, at(i) being tile row
// TILE_DIM + ahead + i. out + start: the output float of tile row 0. Evict-first.
template <typename At>
__device__ __forceinline__ void store_head(float* out, std::int64_t start, int ahead, int height,
                                           At at) {
#pragma unroll
  for (int i = 0; i < VEC - 1; ++i)
    if (i < ahead && i < height) __stcs(out + start + i, at(i));
}
template <typename At>
__device__ __forceinline__ void store_tail(float* out, std::int64_t start, int ahead, int height,
                                           At at) {
#pragma unroll
  for (int i = 0; i < BELOW; ++i)
    if (TILE_DIM + ahead + i < height) __stcs(out + start + TILE_DIM + ahead + i, at(i));
}

// any_tile's store phase where output rows start off 16-byte boundaries: each aligned 16-byte
// chunk of the output whole. The thread whose 4 x 4 block is `mine` (block_of) holds w, that block
// transposed: tile rows in_row .. in_row + 3 of output rows in_col .. in_col + 3. Output row c of
// the tile starts start % 4 floats past a 16-byte boundary; its chunks begin `ahead` = (4 - start %
// 4) % 4 tile rows after each lane's piece: the lane stores the last 4 - ahead floats of its piece
// and the first `ahead` of the next lane's, and the lane of rho = 15 those of tile rows 64 .. 66,
// loaded below the tile. The first `ahead` floats of the tile's segment were stored by the block
// above with its own last chunk, except in the first row of tiles. Evict-first, as in any_tile's
// other stores. (Whole chunks measured faster than split ones at every shape measured with output
// rows off 16-byte boundaries: see the page.) SHIP (a whole tile whose 64 rows and the 3 below it
// are all inside the matrix): the chunks go into the dense output tile instead, each output row
// shifted to its first whole chunk, and each row's 16 chunks (256 aligned bytes) leave in one bulk
// copy, as transpose_fast's bulk_store sends aligned rows.
template <bool SHIP>
__device__ __forceinline__ void store_whole_chunks(float* __restrict__ out, std::int64_t rows,
                                                   std::int64_t row0, std::int64_t col0, int height,
                                                   int width, block_of_thread mine, const float4* w,
                                                   const float* tile, float* out_tile) {
  const int rho = mine.rho, in_row = VEC * mine.rho, in_col = VEC * mine.quad;
#pragma unroll
  for (int f = 0; f < VEC; ++f) {
    const int c = in_col + f;  // output row in the tile, [0, TILE_DIM)
    const std::int64_t start = (col0 + c) * rows + row0;
    const int ahead = (VEC - int(start % VEC)) % VEC;
    float4 next;  // every lane of the warp takes part, also those whose row is outside
    next.x = __shfl_down_sync(FULL_WARP, w[f].x, 1, SLOTS);
    next.y = __shfl_down_sync(FULL_WARP, w[f].y, 1, SLOTS);
    next.z = __shfl_down_sync(FULL_WARP, w[f].z, 1, SLOTS);
    next.w = __shfl_down_sync(FULL_WARP, w[f].w, 1, SLOTS);
    if (rho == SLOTS - 1)  // tile rows 64 .. 67 of column c, read when needed
      next = make_float4(tile[tile_offset(TILE_DIM, c)], tile[tile_offset(TILE_DIM + 1, c)],
                         tile[tile_offset(TILE_DIM + 2, c)], tile[tile_offset(TILE_DIM + 3, c)]);
    if (c >= width) continue;
    const float4 v = window(w[f], next, ahead);
    const int first = in_row + ahead;  // the tile row of v.x
    float* to = out + start + first;   // 16-byte aligned
    if (SHIP)
      *reinterpret_cast<float4*>(&out_tile[c * TILE_DIM + in_row]) = v;
    else
      store_chunk(to, row0 + first, rows, [&](int i) { return float_of(v, i); });
    if (row0 == 0 && rho == 0)
      store_head(out, start, ahead, height, [&](int i) { return float_of(w[f], i); });
    if (!SHIP && rho == SLOTS - 1 && height > TILE_DIM)  // absorbed rows past the last chunk
      store_tail(out, start, ahead, height, [&](int i) { return float_of(next, ahead + i); });
  }
  if constexpr (SHIP) {  // bulk_store's hand-over, with each row's destination shifted
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    __syncwarp();
    const int lane = threadIdx.x % 32;
    if (lane < 8) {
      const int c = 8 * (threadIdx.x / 32) + lane;  // output row in the tile
      const std::int64_t start = (col0 + c) * rows + row0;
      const int ahead = (VEC - int(start % VEC)) % VEC;
      ship_row<TILE_DIM * sizeof(float)>(out + start + ahead, &out_tile[c * TILE_DIM]);
    }
  }
}
//! [any]

}  // namespace transpose_any_shape

#include "any_tile.cuh"

namespace transpose_any_shape {

//! [kernel]
// One block per tile. ALIGNED_STORES: rows is a multiple of 4 (output rows start 16-byte aligned);
// ALIGNED_LOADS: cols is too. Whole tiles of an aligned matrix take whole_tile; whole tiles with
// aligned output rows keep its bulk stores behind realigned loads; whole tiles with realigned
// output rows send their whole chunks by bulk copies where the 3 rows below them are inside the
// matrix; every other tile takes any_tile. Output rows off 16-byte boundaries realign both
// sides: aligned loads with realigned stores measured slower there on the H200, and no faster on
// the H100 once the output chunks were whole (see the page), so that pair is not built.
// DOWN_FIRST: blockIdx.x walks down a column of tiles (the tiles that share the sectors at the
// ends of their output rows run one after the other); otherwise along a row of tiles. `first`:
// the first tile of the walk along blockIdx.y (a column of tiles, or a row of them). WHOLE_BULK
// false: whole tiles too leave through any_tile's 16-byte stores from registers. ABSORB: a tile
// also takes the last rows below it and columns beside it, for which the launch counts no tiles:
// 1 .. 3 of each where the output rows are realigned (the rows are those whole chunks load below
// the tile); with aligned output rows 4 or 8 rows and 1 .. 3 columns (launched only for matrices
// that have such edges). WIDE_FETCH (aligned output rows only): the input loads ask the L2 for the
// whole aligned 256 bytes around them (load_input).
template <bool ALIGNED_LOADS, bool ALIGNED_STORES, bool DOWN_FIRST, bool WHOLE_BULK,
          bool SPLIT_CHUNKS = false, bool ABSORB = false, bool WIDE_FETCH = false>
__global__ void __launch_bounds__(BLOCK_THREADS,
                                  resident_blocks(ALIGNED_LOADS ? MIN_BLOCKS_PER_SM
                                                                : MIN_BLOCKS_PER_SM_REALIGNED))
    kernel(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
           std::int64_t cols, std::int64_t first) {
  static_assert(ALIGNED_STORES || !ALIGNED_LOADS, "off 16-byte rows realign both sides");
  static_assert(ALIGNED_STORES || !WIDE_FETCH, "wide fetches: aligned output rows");
  // Input rows, swizzled; 4 more rows (BELOW of them used) where the output chunks are whole.
  constexpr int TILE_ROWS = ALIGNED_STORES || SPLIT_CHUNKS ? TILE_DIM : TILE_DIM + VEC;
  __shared__ __align__(128) float tile[TILE_ROWS * TILE_DIM];
  const std::int64_t col_tile = DOWN_FIRST ? first + blockIdx.y : blockIdx.x;
  const std::int64_t row_tile = DOWN_FIRST ? blockIdx.x : first + blockIdx.y;
  const std::int64_t col0 = col_tile * TILE_DIM;  // first input column
  const std::int64_t row0 = row_tile * TILE_DIM;  // first input row
  // [1, TILE_DIM]; with ABSORB up to TILE_DIM + EDGE_ROWS and TILE_DIM + EDGE_COLS where the tile
  // takes the matrix's last rows or columns too (the launch then counts no tiles for them).
  constexpr int EDGE_ROWS = ABSORB ? (ALIGNED_STORES ? THIN_ROWS_ALIGNED : BELOW) : 0;
  constexpr int EDGE_COLS = ABSORB ? BELOW : 0;
  const int height =
      rows - row0 < TILE_DIM || (EDGE_ROWS > 0 && rows - row0 <= TILE_DIM + EDGE_ROWS)
          ? int(rows - row0)
          : TILE_DIM;
  const int width = cols - col0 < TILE_DIM || (EDGE_COLS > 0 && cols - col0 <= TILE_DIM + EDGE_COLS)
                        ? int(cols - col0)
                        : TILE_DIM;
  // Aligned output rows with ABSORB: one buffer is the output tile of the whole tiles' bulk stores
  // and any_tile's `extra` for the tiles that take thin edges (no block needs both); without bulk
  // stores, `extra` only (tile rows 64 .. 71, then columns 64 .. 67 of tile rows 0 .. 71).
  constexpr bool SCRATCH = ALIGNED_STORES && ABSORB;
  constexpr int EXTRA_FLOATS = THIN_ROWS_ALIGNED * TILE_DIM + (TILE_DIM + THIN_ROWS_ALIGNED) * VEC;
  constexpr int SCRATCH_FLOATS = !SCRATCH ? VEC : WHOLE_BULK ? TILE_DIM * TILE_DIM : EXTRA_FLOATS;
  __shared__ __align__(128) float scratch[SCRATCH_FLOATS];
  if constexpr (SCRATCH && WHOLE_BULK) {
    if (height == TILE_DIM && width == TILE_DIM) {
      if constexpr (ALIGNED_LOADS)
        full_tile<BULK_STORES, input_loads<WIDE_FETCH>>(in, out, rows, cols, row0, col0, tile,
                                                        scratch);
      else
        any_tile<true, false, true, false, false, WIDE_FETCH>(in, out, rows, cols, row0, col0,
                                                              TILE_DIM, TILE_DIM, tile, scratch);
      return;
    }
  } else if constexpr (ALIGNED_STORES && WHOLE_BULK) {
    if (height == TILE_DIM && width == TILE_DIM) {
      if constexpr (ALIGNED_LOADS) {
        whole_tile<WIDE_FETCH>(in, out, rows, cols, row0, col0, tile);
      } else {
        __shared__ __align__(128) float out_tile[TILE_DIM * TILE_DIM];  // output rows, dense
        any_tile<true, false, true, false, false, WIDE_FETCH>(in, out, rows, cols, row0, col0,
                                                              TILE_DIM, TILE_DIM, tile, out_tile);
      }
      return;
    }
  }
  if constexpr (!ALIGNED_STORES && WHOLE_BULK && !SPLIT_CHUNKS) {
    if (height == TILE_DIM && width == TILE_DIM && row0 + TILE_DIM + BELOW <= rows) {
      __shared__ __align__(128) float out_tile[TILE_DIM * TILE_DIM];  // output rows, shifted
      any_tile<true, true, true>(in, out, rows, cols, row0, col0, TILE_DIM, TILE_DIM, tile,
                                 out_tile);
      return;
    }
  }
  // Tile columns 64 .. 67 where the tile takes the last columns too (ABSORB only).
  __shared__ __align__(16) float extra[ABSORB && !ALIGNED_STORES ? (TILE_DIM + VEC) * VEC : VEC];
  any_tile<!ALIGNED_LOADS, !ALIGNED_STORES, false, SPLIT_CHUNKS, SCRATCH, WIDE_FETCH>(
      in, out, rows, cols, row0, col0, height, width, tile, nullptr, SCRATCH ? scratch : extra);
}
//! [kernel]
}  // namespace transpose_any_shape

// The special-case kernels (each file's header says its shape class, its idea and its limit),
// then run(plan), which launches any of them.
#include "kernel_few.cuh"
#include "kernel_lines.cuh"
#include "kernel_loads_in_halves.cuh"
#include "kernel_narrow.cuh"
#include "kernel_stretch.cuh"
#include "kernel_whole_sectors.cuh"
#include "run_plan.cuh"

namespace transpose_any_shape {

//! [launch]
// Transposes the rows x cols matrix at d_in into d_out (cols x rows) on `stream`, with the plan
// the rules `on` choose for this shape on this GPU. Any pointers of 4-byte floats: those off
// 16-byte boundaries take aligned lines; overlapping buffers, negative sides or null pointers of a
// non-empty matrix are cudaErrorInvalidValue. Returns the first CUDA error (never exits).
inline cudaError_t launch_with(const rules& on, const float* d_in, float* d_out, std::int64_t rows,
                               std::int64_t cols, cudaStream_t stream = 0) {
  if (rows < 0 || cols < 0) return cudaErrorInvalidValue;
  if (rows == 0 || cols == 0) return cudaSuccess;  // nothing to move
  const std::uintptr_t in = reinterpret_cast<std::uintptr_t>(d_in);
  const std::uintptr_t out = reinterpret_cast<std::uintptr_t>(d_out);
  const std::uintptr_t bytes = std::uintptr_t(rows) * std::uintptr_t(cols) * sizeof(float);
  if (d_in == nullptr || d_out == nullptr || in % sizeof(float) != 0 || out % sizeof(float) != 0 ||
      (in < out + bytes && out < in + bytes))
    return cudaErrorInvalidValue;
  gpu_facts gpu;
  CUDA_TRY(gpu_facts_here(gpu));
  const matrix_shape shape{rows, cols, in % 16 == 0 && out % 16 == 0};
  return run(choose_plan(shape, gpu, on), d_in, d_out, rows, cols, stream);
}
inline cudaError_t launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                          cudaStream_t stream = 0) {
  return launch_with(rules{}, d_in, d_out, rows, cols, stream);
}
//! [launch]

// The program's and the tests' variants (variants.hpp's table: the default first), each an
// adapter that ends the program on a CUDA error, as the program contract's launches do.
template <std::size_t I>
void launch_variant_checked(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  CUDA_CHECK(launch_with(variant_table()[I].on, d_in, d_out, rows, cols));
}
template <std::size_t... I>
std::vector<common::matrix_variant> variants_of(std::index_sequence<I...>) {
  // No grid limit (a long walk takes several launches) and 64-bit offsets.
  const common::matrix_limits any_shape{0, false, 64, false};
  return {{variant_table()[I].name, launch_variant_checked<I>, any_shape}...};
}
inline std::vector<common::matrix_variant> variants() {
  return variants_of(std::make_index_sequence<VARIANT_COUNT>{});
}

}  // namespace transpose_any_shape
