// transpose_any_shape: transpose_fast for every shape: 16-byte accesses at any row alignment,
//   partial tiles in the same launch, tiles taken down the columns first (along the rows where a
//   row of tiles is short, and at some proportions where the input rows start off 64-byte
//   boundaries or the matrix is very tall), and kernels of their own for narrow matrices and
//   vectors, for a side of a few dozen floats (about one wave of them in stretches), and for small
//   matrices with a side off 16-byte boundaries (with only the input rows off, loads in halves at
//   eight blocks per SM) and, on GPUs with much DRAM bandwidth per SM, large ones with both sides
//   odd.
// The one idea: a row that does not start on a 16-byte or 32-byte boundary still moves in whole
//   pieces. Each lane loads the two aligned 16-byte chunks that hold its four floats and picks
//   them out; each output row is shifted to its own alignment across the 16 lanes that hold it
//   (warp shuffles) and stored in whole aligned 16-byte chunks. The chunk that straddles the seam
//   with the tile below is stored by this tile, from the 3 input rows below it, which it loads
//   too: no block writes part of a 16-byte chunk. The 32-byte sectors that two tiles still share
//   are completed at once: the tiles are taken down each column of tiles first, so the two blocks
//   run one after the other. Where every other output row starts 16 bytes past a sector (rows % 8
//   == 4) even that cost on the H100: there each block stores the first chunk of the tile below
//   beside its last one, instead of its own first, and writes whole sectors (kernel_whole_sectors,
//   down the columns of tiles or, where those are long, along the rows). kernel_few_cols likewise
//   starts each block's part of an output row on a sector where the rows are off a multiple of 4.
// Changes from transpose_fast: kernel_edge (one float at a time, in launches of its own) becomes
//   any_tile (16-byte loads and stores at any alignment, for partial tiles too), called from the
//   same kernel as the whole tiles, so that every shape takes one launch (wider ones a few).
//   Whole tiles keep transpose_fast's bulk stores, behind realigned loads where the input rows
//   are not aligned, and from each output row's first whole chunk where the output rows are not.
//   The last 1 to 3 rows or columns of a matrix (4 or 8 rows where the output rows are aligned,
//   below short columns of tiles) are taken by the tiles above or beside them, not by nearly
//   empty tiles (but for thin last columns where rows % 8 == 4 and a row has more than 16 tiles:
//   whole sectors then take the matrix). blockIdx.x walks down a column of tiles instead of along a
//   row, unless a row has at most 16 tiles, or the loads are aligned, the input rows off 64-byte
//   boundaries and a row of tiles at most 4 columns and 700 tiles long (then whole tiles are stored
//   from registers; not where rows % 16 == 8 and a row of tiles is at least 15/16 of a column's
//   length, nor where rows % 64 is 16, 32 or 48, rows at least 4096 and a row of tiles at least 1.5
//   columns long), or the matrix is very tall with output rows on 64-byte boundaries (bulk stores),
//   or at least 9 times as tall as wide with rows % 8 == 4 and aligned input rows off 64-byte
//   boundaries (whole sectors). A side of at most 16 floats, or at most 40 rows off a multiple of 4
//   (no more rows than columns, at most 64 columns), takes kernel_narrow (16-byte accesses on the
//   side that is contiguous); 17 to 64 columns of more rows (up to 127 where the rows are not a
//   multiple of 4; in small matrices up to 112), or 17 to 40 rows of more columns (in small
//   matrices up to 112 rows, not both sides multiples of 4; in large ones 65 to 113 rows off a
//   multiple of 4 in runs of 32, and up to 127 such rows with swizzled shared rows where they
//   measured faster), take kernel_few_cols or kernel_few_rows (a run of 128 floats of the long side
//   per block; 32 where those would not fill the GPU, or in small matrices past 64 columns or rows;
//   where they would be one to four blocks per SM and the side is 20 to 64 floats, or in small wide
//   matrices of 41 to 64 rows, 64 or a run chosen at launch to fill one wave; past 64 columns of
//   many runs whose output rows are off, 64 with no more blocks per SM than hold their shared rows
//   in 196 KB; 16-byte accesses on both sides, and whole 32-byte sectors per block where the output
//   rows are off) unless the tiles' accesses are aligned there (for few rows, from 32 rows on), or
//   in those few waves the tiles measured faster (both sides multiples of 4, 61 to 63 columns), or
//   at 116 to 127 columns from 7 to 11 runs of 128 per SM; and a matrix of one row or one column,
//   whose transpose is itself, is copied with cudaMemcpyAsync. Where the output rows are aligned
//   and the input rows start off 256-byte boundaries, the input loads ask the L2 for the whole 256
//   bytes around them (wide fetches; launch_variant says where). Where both sides are odd,
//   kernel_lines moves one float per access, each warp access one aligned 128-byte line: on any GPU
//   for matrices of at most 20 tiles per SM or of one row of tiles, and for the others on a GPU
//   with at least 30 GB/s of DRAM bandwidth per SM (the H200, not the H100). Where one side is off
//   16-byte boundaries it takes a matrix of at most 8 tiles per SM (one wave) at most proportions
//   (one_wave_lines_off), and one whose output rows are off and whose sides are both 128 floats or
//   more up to 12 tiles per SM. Where only the input rows are off and both sides are 96 floats or
//   more, kernel_loads_in_halves holds two tile rows' loads in flight per thread instead of four
//   and stores from registers: eight blocks per SM instead of five, from 1 to 32 tiles per SM
//   (loads_in_halves says which shapes).
// What limits it: DRAM for sides that are multiples of 64, which move their bytes nearly as fast
//   as cudaMemcpy. At other sides about the same DRAM bytes (a tenth more reads at 46341 x 46341 on
//   the H100) take longer, most where the output rows start off 16-byte boundaries, and far longer
//   on the H200 than on the H100. In the bench runs it is at or past cublasSgeam at every shape
//   measured on both GPUs, on the H200 only just at some shapes whose sides are both odd. Outside
//   the bench, tall matrices of 17 to 19 columns were behind it until the few-side kernels; of 32
//   shapes tried outside the bench on both GPUs, all are at or past it on the H200 (1537 x 1539
//   level with it) and on the H100 (2049 x 2047 and 2051 x 1103 only just); of 27 more on the
//   H100, 25 are past it (20000 x 9999 only just) and 9004 x 11008 and 44 x 28001 level with it
//   (9012 x 11008 too, tried after them). On the H100, both-odd
//   matrices of 11 to 15 tiles per SM (3001 x 2003, 2501 x 2503, 4001 x 2003) were just behind it
//   until aligned lines ran there too. Small matrices of a few million floats are the exception
//   (20003 x 96 and 20001 x 127, far behind it, were fixed by short runs and the tiles for small
//   matrices past 64 columns; 60003 x 40, 45001 x 63, 33 x 30003 and 40 x 60001 by shorter runs or
//   the tiles for a side of 20 to 64 floats in a few waves; 96 x 30003, 80 x 30003, 44 x 45001 and
//   others by kernel_few_rows for small wide matrices of 41 to 112 rows; matrices with output rows
//   off and both sides of 128 or more in about one wave, such as 1001 x 4096 and 12289 x 333, by
//   aligned lines where one side is off, on both GPUs; 40 x 64001, 49 x 64001, 50 x 50001,
//   50 x 60001, 50 x 60000, 60001 x 61, 112 x 30003 and 120 x 30003 by the stretch kernels, on the
//   H100; 512 x 8191, 640 x 6001, 2048 x 2001, 1000 x 4001, 2500 x 1703, 8192 x 501, 96 x 32001
//   and 128 x 26001, with only the input rows off, by loads in halves, on the H100). Still behind
//   it on the H100: 30003 x 96, just under it. On the H200, which has not run the stretch kernels
//   or loads in halves, more of the small matrices of a few dozen columns or rows are
//   (30003 x 96, 45001 x 64, 120 x 30003, 100 x 30001 and others). On the H100 large aligned
//   matrices with rows % 16 == 8 and input rows off 64-byte boundaries (16696 x 27572,
//   11608 x 42092) were behind it along the rows of tiles until those about as wide as tall or
//   wider went down the columns; 25976 x 26312 and its neighbours until wide fetches went down
//   columns of up to 28000 rows with aligned loads, and 21008 x 80004, 24016 x 80004,
//   21008 x 70004 and 30000 x 50004 until rows of tiles of more than 700 tiles whose input rows
//   are off 64-byte boundaries went down the columns instead of along. On the H100 large wide
//   matrices of 69 to 113 rows off a multiple of 4 missed the memcpy target (69 x 100003 behind
//   cublasSgeam too) until kernel_few_rows took them in runs of 32, and some of 114 to 127 rows
//   until it took them with swizzled shared rows; others of 116 to 127 rows still miss it. The
//   tall mirrors (kernel_few_cols, 97 to 127 columns) came closer with whole sectors, some past it
//   (980898 x 105, 1309851 x 113), and runs of 64 within the L1's share took 1454842 x 127 and
//   187237 x 108 past it, and the tiles most of those of 116 to 127 columns from 7 to 11 runs of
//   128 per SM; a few near 190000 rows still miss it (163630 x 116, 187237 x 124). Large
//   matrices with rows % 8 == 4 and aligned input rows (14788 x 13792, 16388 x 16384) were behind
//   cublasSgeam on the H100 until whole sectors per block; 70004 x 5000 met the memcpy target with
//   them along the rows of tiles, 46340 x 46340, 40004 x 5000 and 41420 x 5804 still miss it.
//   See its page for every shape class against cublasSgeam and cudaMemcpy on both GPUs.
// Run: build/bin/transpose_any_shape [--rows 4097 --cols 4099] [--sweep] [--quick]
// Source: none of the five; it finishes transpose_fast for the shapes its bench did not measure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "chapters/transpose/17_transpose_fast/transpose_fast.cuh"
#include "common/check.cuh"
#include "common/device_info.cuh"
#include "common/transpose/program.cuh"
#include "launch_trace.hpp"

namespace transpose_any_shape {

// After a launch: its configuration errors at once (none to ask for while tracing).
inline void check_launch() {
  if (trace::current_sink() == nullptr) CUDA_CHECK_LAUNCH();
}

// transpose_fast's tile, its swizzle, its thread-to-block mapping, its register transpose, its
// bulk stores and its whole-tile code (full_tile), unchanged.
using transpose_fast::block_of;
using transpose_fast::block_of_thread;
using transpose_fast::BLOCK_THREADS;
using transpose_fast::bulk_store;
using transpose_fast::BULK_STORES;
using transpose_fast::full_tile;
using transpose_fast::MAX_GRID_Y;
using transpose_fast::MIN_BLOCKS_PER_SM;  // 6 blocks of 256 threads per SM
using transpose_fast::ship_row;
using transpose_fast::SLOTS;
using transpose_fast::TILE_DIM;
using transpose_fast::tile_offset;
using transpose_fast::transpose_block;
using transpose_fast::transposed_block;
using transpose_fast::VEC;
constexpr int LOAD_ROWS = BLOCK_THREADS / SLOTS;  // tile rows loaded per pass
constexpr int LOADS = TILE_DIM / LOAD_ROWS;       // passes: float4 loads per thread
constexpr unsigned FULL_WARP = 0xffffffffu;
// Input rows below a tile that its last output chunks reach into (any_tile's whole chunks).
constexpr int BELOW = VEC - 1;
// The realigning kernel holds two chunks per load in flight: ptxas needs 55 registers for it
// without a bound, spills at 6 blocks' 40 and fits 5 blocks' 48 without spilling (-Xptxas -v).
constexpr int MIN_BLOCKS_PER_SM_REALIGNED = 5;
// Matrices with a side of at most this many floats take kernel_narrow instead of 64 x 64 tiles
// (the --sweep measures 0 and 8 too).
constexpr std::int64_t NARROW_SIDE = 16;
// Matrices of at most this many rows, rows not a multiple of 4 (output rows off 16-byte
// boundaries) and no more rows than columns take kernel_narrow too (launch_variant says why).
constexpr std::int64_t NARROW_ODD_ROWS = 40;
// Where the output rows are aligned, a tile takes the last 4 or 8 rows below it and the last 1 .. 3
// columns beside it (BELOW, as the realigning kernel does; the --sweep's 'thin aligned edges in
// tiles of their own' does not): wider edges measured no faster that way (see the page).
constexpr int THIN_ROWS_ALIGNED = 8;
// A 32-byte sector of floats: where rows % 8 == 4, every other output row starts 16 bytes past one.
constexpr std::int64_t FLOATS_PER_SECTOR = 32 / sizeof(float);

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
  full_tile<BULK_STORES, WIDE_FETCH>(in, out, rows, cols, row0, col0, tile, out_tile);
}

//! [load]
// The 16-byte chunk of the input that starts at float `first` (a multiple of 4), if it holds a
// float of the tile (`needed`); the float-by-float load is for the last chunk of a matrix whose
// size is not a multiple of 4, which reaches past the end of the allocation. WIDE_FETCH:
// transpose_fast's load_input's.
template <bool WIDE_FETCH = false>
__device__ __forceinline__ float4 load_chunk(const float* __restrict__ in, std::int64_t first,
                                             bool needed, std::int64_t n) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (!needed) return v;
  if (first + VEC <= n) return transpose_fast::load_input<WIDE_FETCH>(in + first);
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
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
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

// Any tile of any matrix: tile rows [0, height) x tile columns [0, width), both in [1, 64] (more
// where the tile takes the matrix's last rows or columns too: below), at any alignment.
// REALIGN_LOADS: cols is not a multiple of 4 (input rows start anywhere); REALIGN_STORES: rows is
// not (output rows do). With both false it is the guarded form of whole_tile for the partial tiles
// at the matrix's edges. BULK (whole tiles only; with REALIGN_STORES, only those whose 3 rows below
// are inside the matrix): the output leaves through bulk copies from out_tile, transpose_fast's
// bulk_store or, for realigned rows, whole chunks'. SPLIT_CHUNKS (the --sweep's 'chunks split at
// tile edges'): realigned output rows store the floats of the chunks at the tile's upper and lower
// edges one by one, each block its own part, instead of each chunk whole; the tile then needs no
// rows below it (`tile` holds 64 rows, else 68). WHOLE_CHUNKS: height and width up to 67 (the last
// 1 .. 3 rows or columns taken by the tile above or beside them); `extra` holds tile columns 64 ..
// 67 of tile rows 0 .. 67, 4 floats per row. THIN_ALIGNED (aligned output rows; false in the
// --sweep's 'thin aligned edges in tiles of their own'): height up to 72 and width up to 67,
// `extra` laid out as below. WIDE_FETCH (aligned output rows only): load_chunk's. LOAD_GROUP:
// load_tile's GROUP (kernel_loads_in_halves takes half of LOADS). WHOLE_SECTORS (aligned output
// rows stored from registers, rows % 8 == 4, a tile of 64 rows or the last one): every 32-byte
// sector of the output that the tile's floats touch is written by one block. An output row that
// starts 16 bytes past a sector boundary shares the sector of its first chunk with the last chunk
// of the tile above: the block above stores that chunk (below the first row of tiles), and this
// block stores tile rows 64 .. 67, the first chunk of the tile below, beside its last one;
// `tile` then holds 68 rows.
template <bool REALIGN_LOADS, bool REALIGN_STORES, bool BULK = false, bool SPLIT_CHUNKS = false,
          bool THIN_ALIGNED = false, bool WIDE_FETCH = false, int LOAD_GROUP = LOADS,
          bool WHOLE_SECTORS = false>
__device__ __forceinline__ void any_tile(const float* __restrict__ in, float* __restrict__ out,
                                         std::int64_t rows, std::int64_t cols, std::int64_t row0,
                                         std::int64_t col0, int height, int width, float* tile,
                                         float* out_tile = nullptr, float* extra = nullptr) {
  const int t = threadIdx.x;
  const int load_slot = t % SLOTS, load_row = t / SLOTS;

  constexpr bool WHOLE_CHUNKS = REALIGN_STORES && !SPLIT_CHUNKS;
  static_assert(!(WIDE_FETCH && REALIGN_STORES), "wide fetches: aligned output rows");
  load_tile<REALIGN_LOADS, WHOLE_CHUNKS, WIDE_FETCH, LOAD_GROUP>(in, rows, cols, row0, col0, height,
                                                                 width, load_row, load_slot, tile);
  static_assert(!(WHOLE_SECTORS && (REALIGN_STORES || BULK || THIN_ALIGNED)),
                "whole sectors: aligned output rows stored from registers, no thin edges");
  const bool tile_below = row0 + TILE_DIM < rows;       // with rows % 4 == 0: 4 rows or more
  if (WHOLE_SECTORS && load_row < VEC && tile_below) {  // tile rows 64 .. 67
    const int r = TILE_DIM + load_row;
    *reinterpret_cast<float4*>(&tile[tile_offset(r, VEC * load_slot)]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + r) * cols + col0, load_slot, width,
                                                   true, rows * cols)
            .piece();
  }
  // Aligned output rows with thin last rows or columns, taken by this tile (THIN_ALIGNED):
  // `extra` holds tile rows 64 .. 71 (64 floats each), then tile columns 64 .. 67 of tile
  // rows 0 .. 71 (4 floats each).
  float* const extra_rows = extra;
  float* const extra_cols = extra + THIN_ROWS_ALIGNED * TILE_DIM;
  static_assert(!(THIN_ALIGNED && REALIGN_STORES), "thin aligned edges: aligned output rows");
  if (THIN_ALIGNED && height > TILE_DIM && load_row < THIN_ROWS_ALIGNED) {  // tile row 64 + ..
    const int r = TILE_DIM + load_row;
    *reinterpret_cast<float4*>(&extra_rows[(r - TILE_DIM) * TILE_DIM + VEC * load_slot]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + r) * cols + col0, load_slot, width,
                                                   r < height, rows * cols)
            .piece();
  }
  if (THIN_ALIGNED && width > TILE_DIM && t < TILE_DIM + THIN_ROWS_ALIGNED) {  // columns 64 ..
    *reinterpret_cast<float4*>(&extra_cols[VEC * t]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + t) * cols + col0 + TILE_DIM, 0,
                                                   width - TILE_DIM, t < height, rows * cols)
            .piece();
  }
  if (WHOLE_CHUNKS && width > TILE_DIM && t < TILE_DIM + VEC) {  // columns 64 .. of row t
    const bool row_in = t < TILE_DIM ? t < height : t < TILE_DIM + BELOW && row0 + t < rows;
    *reinterpret_cast<float4*>(&extra[VEC * t]) =
        load_row_chunks<true>(in, (row0 + t) * cols + col0 + TILE_DIM, 0, width - TILE_DIM, row_in,
                              rows * cols)
            .piece();
  }
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();

  const block_of_thread mine = block_of(t);
  const int in_row = VEC * mine.rho, in_col = VEC * mine.quad;
  const transposed_block block = transpose_block(tile, in_row, in_col);
  const float4* w = block.w;
  if constexpr (BULK && !REALIGN_STORES) {
    bulk_store(out, rows, row0, col0, in_row, in_col, w, out_tile);
  } else if constexpr (WHOLE_CHUNKS) {
    store_whole_chunks<BULK>(out, rows, row0, col0, height, width, mine, w, tile, out_tile);
  } else {
    // Store phase (aligned output rows, or SPLIT_CHUNKS). Output row c of the tile starts `shift`
    // floats past a 16-byte boundary. Its aligned chunk that begins at tile row in_row - shift
    // takes the last `shift` floats of the previous lane's piece and the first 4 - shift of this
    // lane's; the lane of rho = 15 also stores the row's last `shift` floats, which begin a 17th
    // chunk. Evict-first stores from registers (transpose_fast's sweep: as fast as plain stores
    // are slow).
#pragma unroll
    for (int f = 0; f < VEC; ++f) {
      const int c = in_col + f;  // output row in the tile, [0, TILE_DIM)
      const std::int64_t start = (col0 + c) * rows + row0;
      const int out_shift = REALIGN_STORES ? int(start % VEC) : 0;
      float4 previous = w[f];
      if (REALIGN_STORES) {  // every lane of the warp takes part, also those whose row is outside
        previous.x = __shfl_up_sync(FULL_WARP, w[f].x, 1, SLOTS);
        previous.y = __shfl_up_sync(FULL_WARP, w[f].y, 1, SLOTS);
        previous.z = __shfl_up_sync(FULL_WARP, w[f].z, 1, SLOTS);
        previous.w = __shfl_up_sync(FULL_WARP, w[f].w, 1, SLOTS);
      }
      if (c >= width) continue;
      const float4 v = REALIGN_STORES ? window(previous, w[f], VEC - out_shift) : w[f];
      const int first = in_row - out_shift;  // the tile row of v.x
      float* to = out + start + first;       // 16-byte aligned
      const bool off_sector = WHOLE_SECTORS && start % FLOATS_PER_SECTOR != 0;
      if (off_sector && mine.rho == SLOTS - 1 && tile_below)
        store_four(to + VEC, [&](int i) { return tile[tile_offset(TILE_DIM + i, c)]; });
      if (off_sector && mine.rho == 0 && row0 > 0) {
        // The block above stored this chunk, beside its last one.
      } else if (first >= 0 && first + VEC <= height) {
        __stcs(reinterpret_cast<float4*>(to), v);
      } else {
#pragma unroll
        for (int i = 0; i < VEC; ++i)
          if (first + i >= 0 && first + i < height) __stcs(to + i, float_of(v, i));
      }
      if (REALIGN_STORES && mine.rho == SLOTS - 1) {
#pragma unroll
        for (int i = 0; i < VEC - 1; ++i)
          if (i < out_shift && TILE_DIM - out_shift + i < height)
            __stcs(to + VEC + i, float_of(w[f], VEC - out_shift + i));
      }
    }
  }
  if (THIN_ALIGNED && height > TILE_DIM) {  // output row c's floats 64 + 4 q .. 64 + 4 q + 3
    const int c = t % TILE_DIM, q = t / TILE_DIM;
    if (c < width && TILE_DIM + VEC * q < height) {  // height % 4 == 0: whole chunks
      store_four(out + (col0 + c) * rows + row0 + TILE_DIM + VEC * q,
                 [&](int i) { return extra_rows[(VEC * q + i) * TILE_DIM + c]; });
    }
  }
  if (THIN_ALIGNED && width > TILE_DIM && t < TILE_DIM + THIN_ROWS_ALIGNED) {
    const int e = t % VEC, k = t / VEC;  // output row 64 + e, tile rows 4 k .. 4 k + 3
    if (e < width - TILE_DIM && VEC * k < height) {
      store_four(out + (col0 + TILE_DIM + e) * rows + row0 + VEC * k,
                 [&](int i) { return extra_cols[(VEC * k + i) * VEC + e]; });
    }
  }
  if (WHOLE_CHUNKS && width > TILE_DIM && t < SLOTS * BELOW) {
    // Output rows 64 .. width - 1 (the extra columns), 16 threads each, whole chunks as in
    // store_whole_chunks: chunk k holds tile rows ahead + 4 k .. ahead + 4 k + 3.
    const int e = t / SLOTS, k = t % SLOTS;
    if (e < width - TILE_DIM) {
      const std::int64_t start = (col0 + TILE_DIM + e) * rows + row0;
      const int ahead = (VEC - int(start % VEC)) % VEC;
      const int first = ahead + VEC * k;
      const auto at = [&](int r) { return extra[VEC * r + e]; };  // tile row r, r < 68
      store_chunk(out + start + first, row0 + first, rows, [&](int i) { return at(first + i); });
      if (k == SLOTS - 1)  // absorbed rows past the last chunk
        store_tail(out, start, ahead, height, [&](int i) { return at(TILE_DIM + ahead + i); });
      if (row0 == 0 && k == 0) store_head(out, start, ahead, height, at);
    }
  }
}
//! [any]

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
                                  ALIGNED_LOADS ? MIN_BLOCKS_PER_SM : MIN_BLOCKS_PER_SM_REALIGNED)
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
        full_tile<BULK_STORES, WIDE_FETCH>(in, out, rows, cols, row0, col0, tile, scratch);
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

// Aligned output rows (rows a multiple of 4) with every other one 16 bytes past a sector boundary
// (rows % 8 == 4): any_tile's WHOLE_SECTORS, so that no 32-byte sector is written in two parts by
// two blocks, stores from registers; no thin edges taken (every tile is at most 64 x 64).
// ALIGNED_LOADS: cols is a multiple of 4 too. WIDE_FETCH: load_chunk's. DOWN: neighbouring blocks
// go down the columns of tiles (x the row of tiles), else along the rows of tiles (x the column).
template <bool ALIGNED_LOADS, bool WIDE_FETCH, bool DOWN = true>
__global__ void __launch_bounds__(BLOCK_THREADS,
                                  ALIGNED_LOADS ? MIN_BLOCKS_PER_SM : MIN_BLOCKS_PER_SM_REALIGNED)
    kernel_whole_sectors(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                         std::int64_t cols, std::int64_t first) {
  __shared__ __align__(128) float tile[(TILE_DIM + VEC) * TILE_DIM];
  const std::int64_t col0 = (DOWN ? first + blockIdx.y : blockIdx.x) * TILE_DIM;
  const std::int64_t row0 = std::int64_t(DOWN ? blockIdx.x : first + blockIdx.y) * TILE_DIM;
  const int height = tile_extent(rows, row0), width = tile_extent(cols, col0);
  any_tile<!ALIGNED_LOADS, false, false, false, false, WIDE_FETCH, LOADS, true>(
      in, out, rows, cols, row0, col0, height, width, tile);
}

//! [halves]
// Only the input rows off 16-byte boundaries (rows a multiple of 4, cols not), in a small matrix:
// kernel's realigning form for such matrices holds the two chunks of all four of its tile rows in
// flight (48 registers) and sends whole tiles by bulk copies from a second buffer (32 KB of shared
// memory), five blocks per SM. Here each thread loads its tile rows in two halves of two rows
// (GROUP in load_tile) and stores from registers, in 32 registers and 16 KB: eight blocks per SM,
// which holds a grid of 8 tiles per SM in one wave where five blocks need two. One block per tile,
// down the columns of tiles first (blockIdx.x); wide fetches as in the realigning form.
constexpr int HALVES_BLOCKS_PER_SM = 8;
__global__ void __launch_bounds__(BLOCK_THREADS, HALVES_BLOCKS_PER_SM)
    kernel_loads_in_halves(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                           std::int64_t cols) {
  __shared__ __align__(128) float tile[TILE_DIM * TILE_DIM];
  const std::int64_t row0 = std::int64_t(blockIdx.x) * TILE_DIM;
  const std::int64_t col0 = std::int64_t(blockIdx.y) * TILE_DIM;
  const int height = tile_extent(rows, row0), width = tile_extent(cols, col0);
  any_tile<true, false, false, false, false, true, LOADS / 2>(in, out, rows, cols, row0, col0,
                                                              height, width, tile);
}
//! [halves]

//! [narrow]
// A side of at most NARROW_SIDE floats: a 64 x 64 tile would be mostly empty. One of the two
// matrices is then a run of short rows that lie back to back: each thread takes 4 consecutive
// floats of it (one 16-byte access) and the 4 floats of the other matrix that they pair with.
// GATHER (rows <= cols): the output is the contiguous one, and the input is read float by float;
// otherwise the input is, and the output is written float by float.
template <bool GATHER, typename Index>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel_narrow(const float* __restrict__ in, float* __restrict__ out, Index n, Index side,
                  Index other_side) {
  // The contiguous matrix is [major][minor] with minor < side; its float (major, minor) pairs
  // with float minor * other_side + major of the other one.
  const Index first = (Index(blockIdx.x) * BLOCK_THREADS + threadIdx.x) * VEC;
  if (first >= n) return;
  Index major = first / side, minor = first - major * side;
  Index paired[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    paired[i] = minor * other_side + major;
    if (++minor == side) minor = 0, ++major;
  }
  const bool whole = first + VEC <= n;
  float v[VEC] = {0.0f, 0.0f, 0.0f, 0.0f};
  if constexpr (GATHER) {
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      if (first + i < n) v[i] = in[paired[i]];
    if (whole) {
      __stcs(reinterpret_cast<float4*>(out + first), make_float4(v[0], v[1], v[2], v[3]));
    } else {
      for (int i = 0; i < VEC; ++i)
        if (first + i < n) __stcs(out + first + i, v[i]);
    }
  } else {
    if (whole) {
      const float4 q = *reinterpret_cast<const float4*>(in + first);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
      for (int i = 0; i < VEC; ++i)
        if (first + i < n) v[i] = in[first + i];
    }
    // Plain stores: each fills part of a sector that neighbouring threads complete (evict-first
    // measured slower here, on the first H200 runs).
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      if (first + i < n) out[paired[i]] = v[i];
  }
}
//! [narrow]

//! [lines]
// Aligned lines: where both sides are off 16-byte boundaries, for matrices of at most a few waves
// of tiles or one row of tiles on any GPU, and larger ones on GPUs with much DRAM bandwidth per SM
// (launch_variant says where). Every global access a warp makes is one aligned 128-byte line: a
// tile row of 64 floats that starts at any float lies in at most 3 such lines, and each lane loads
// the float at its position in each line if that float belongs to the tile (the other lanes are
// off). The output rows are stored the same way. One float per access, so no realigning in
// registers: few instructions, and at 32 registers 8 blocks of 256 threads per SM (the realigning
// kernel fits 5). The tile sits in shared memory as [column][row] (odd pitch: conflict-free on both
// sides). Each thread loads IN_FLIGHT rows (3 lines each) before putting them into shared memory:
// at 8 blocks per SM, 1 or 2 measured faster than 4 on the H200 in large matrices (see the page);
// where the grid is one wave of at most 4 or 5 blocks per SM (MIN_BLOCKS), all 8 of a thread's
// rows, in 64 or 48 registers. ABSORB: a tile also takes the last 1 .. 3 rows below it and columns
// beside it (the launch counts no tiles for them; up to 67 x 67 floats). Tiles down the columns
// first; evict-first stores.
constexpr int LINE_FLOATS = 32;   // floats per 128-byte line
constexpr int LINES_PER_ROW = 3;  // lines a row of 64 floats can touch
constexpr int LINE_ROWS_IN_FLIGHT = 2;
constexpr int LINE_BLOCKS_PER_SM = 8;
template <bool ABSORB, int IN_FLIGHT = LINE_ROWS_IN_FLIGHT, int MIN_BLOCKS = LINE_BLOCKS_PER_SM>
__global__ void __launch_bounds__(BLOCK_THREADS, MIN_BLOCKS)
    kernel_lines(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                 std::int64_t cols, std::int64_t first) {
  constexpr int WARPS = BLOCK_THREADS / 32, ROWS = TILE_DIM / WARPS;  // rows per thread
  static_assert(ROWS % IN_FLIGHT == 0, "whole groups of rows");
  static_assert(LINES_PER_ROW * LINE_FLOATS >= TILE_DIM + LINE_FLOATS - 1, "every skew covered");
  constexpr int EDGE = ABSORB ? BELOW : 0, SIDE = TILE_DIM + EDGE;
  constexpr int PITCH = SIDE % 2 == 0 ? SIDE + 1 : SIDE;  // odd: conflict-free both ways
  __shared__ float tile[SIDE][PITCH];                     // [column][row]
  const std::int64_t row0 = std::int64_t(blockIdx.x) * TILE_DIM;
  const std::int64_t col0 = (first + blockIdx.y) * TILE_DIM;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int height =
      rows - row0 < TILE_DIM || (ABSORB && rows - row0 <= SIDE) ? int(rows - row0) : TILE_DIM;
  const int width =
      cols - col0 < TILE_DIM || (ABSORB && cols - col0 <= SIDE) ? int(cols - col0) : TILE_DIM;
#pragma unroll
  for (int g = 0; g < ROWS; g += IN_FLIGHT) {
    float v[IN_FLIGHT][LINES_PER_ROW];
    int skew[IN_FLIGHT];  // floats from the row's first line to its first tile float
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; ++j) {
      const int r = warp + WARPS * (g + j);
      const std::int64_t start = (row0 + r) * cols + col0;  // the tile row's first float
      const std::int64_t line = start & ~std::int64_t(LINE_FLOATS - 1);
      skew[j] = int(start - line);
#pragma unroll
      for (int s = 0; s < LINES_PER_ROW; ++s) {
        const int c = LINE_FLOATS * s + lane - skew[j];  // the tile column of this lane's float
        v[j][s] = r < height && c >= 0 && c < width && (!ABSORB || c < TILE_DIM)
                      ? __ldg(in + line + LINE_FLOATS * s + lane)
                      : 0.0f;
      }
    }
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; ++j)
#pragma unroll
      for (int s = 0; s < LINES_PER_ROW; ++s) {
        const int c = LINE_FLOATS * s + lane - skew[j];
        if (c >= 0 && c < TILE_DIM) tile[c][warp + WARPS * (g + j)] = v[j][s];
      }
    __syncwarp();  // keeps the next rows' loads behind these shared stores
  }
  if constexpr (ABSORB) {
    if (height > TILE_DIM || width > TILE_DIM) {
      // The absorbed floats, one by one: rows 64 .. of every column, then columns 64 .. of rows
      // 0 .. 63 (a few tiles at the matrix's edges only).
      for (int e = threadIdx.x; e < 2 * EDGE * SIDE; e += BLOCK_THREADS) {
        const bool below = e < EDGE * SIDE;
        const int r = below ? TILE_DIM + e / SIDE : (e - EDGE * SIDE) / EDGE;
        const int c = below ? e % SIDE : TILE_DIM + (e - EDGE * SIDE) % EDGE;
        if (r < height && c < width && (below || r < TILE_DIM))
          tile[c][r] = __ldg(in + (row0 + r) * cols + col0 + c);
      }
    }
  }
  __syncthreads();
  // Output row col0 + c: a segment of up to 64 floats lies in at most 3 lines.
  const auto store_row = [&](int c) {
    const std::int64_t start = (col0 + c) * rows + row0;
    const std::int64_t line = start & ~std::int64_t(LINE_FLOATS - 1);
    const int skew = int(start - line);
#pragma unroll
    for (int s = 0; s < LINES_PER_ROW; ++s) {
      const int r = LINE_FLOATS * s + lane - skew;
      if (r >= 0 && r < height) __stcs(out + line + LINE_FLOATS * s + lane, tile[c][r]);
    }
  };
  if (ABSORB && warp < width - TILE_DIM) store_row(TILE_DIM + warp);  // absorbed columns
  if (ABSORB && height > TILE_DIM && int(threadIdx.x) < width) {
    // Absorbed rows past an output row's 3 lines (at most 2 floats), one by one.
    const int c = threadIdx.x;
    const std::int64_t start = (col0 + c) * rows + row0;
    const int skew = int(start % LINE_FLOATS);
    for (int r = LINES_PER_ROW * LINE_FLOATS - skew; r < height; ++r)
      __stcs(out + start + r, tile[c][r]);
  }
#pragma unroll 4
  for (int k = 0; k < TILE_DIM / WARPS; ++k) {
    const int c = warp + WARPS * k;
    if (c >= width) break;
    store_row(c);
  }
}
//! [lines]

//! [few]
// Few columns in a tall matrix, or few rows in a wide one (a side of at most FEW_SIDE floats, more
// than NARROW_SIDE): a 64 x 64 tile would be mostly empty, and the narrow kernel moves one side
// float by float. Here each block takes a run of RUN floats of the long side (launch_few says how
// long), which on the contiguous matrix is one stretch of memory, moved with 16-byte accesses in
// order; on the other matrix it is a piece of each of the few long rows, moved as aligned 16-byte
// chunks of that row. Shared memory holds the block's floats as one row per long row, each shifted
// by its long row's start modulo 4 floats (`lead`), so that every aligned chunk of a long row is
// an aligned float4 there too.
// kernel_few_cols: the input is the contiguous matrix (rows of at most FEW_SIDE floats back to
// back); each block writes the floats of input rows [r0 + d, r0 + RUN + d) of output row c,
// where d (0 .. 3) brings output float c * rows + r0 + d to a 16-byte boundary. So no 16-byte
// chunk is written by two blocks, and each block also loads the 3 input rows past its own. The
// first block starts every output row at its first float, the last ends it at its last: there
// the chunks the row shares with the rows beside it are written float by float. WHOLE_SECTORS
// (RUN a multiple of 8; launch_few says where): d (0 .. 7) brings that float to a 32-byte
// sector instead, so that no sector is written in two parts by two blocks, and each block loads
// the 7 input rows past its own.
// kernel_few_rows: the output is the contiguous matrix; each block loads the aligned chunks that
// hold its piece of each input row (the chunks at the piece's ends are read by both blocks beside
// them; only the stores must not overlap).
constexpr std::int64_t FEW_SIDE = 64;
// Few columns of a tall matrix whose output rows start off 16-byte boundaries (rows % 4 != 0):
// kernel_few_cols up to this many (launch_variant says why), its shared rows past 48 KB, and
// from FEW_FULL_PITCH_UP_TO + 1 on at the compact pitch (few_pitch, below).
constexpr std::int64_t FEW_COLS_ODD_ROWS = 127;
constexpr std::int64_t FEW_FULL_PITCH_UP_TO = 96;
constexpr std::int64_t FEW_ROWS = 40;  // few rows: at most this many (launch_variant says why)
constexpr std::int64_t FEW_ROWS_TILED_FROM = 32;  // aligned few rows: the tiles from this many on
// A small matrix of more than FEW_SIDE columns: runs of FEW_RUN rows fewer than this many blocks
// per SM; up to FEW_SMALL_SHORT_UP_TO columns it takes short runs, past them the tiles
// (launch_variant says why).
constexpr std::int64_t FEW_SMALL_WAVES = 4;
constexpr std::int64_t FEW_SMALL_SHORT_UP_TO = 112;
// Few rows off a multiple of 4 of a large wide matrix: kernel_few_rows in short runs from more than
// FEW_SIDE rows up to this many (launch_variant says why).
constexpr std::int64_t FEW_WIDE_ROWS_UP_TO = 113;
// Past FEW_WIDE_ROWS_UP_TO, up to this many rows: the same runs with swizzled shared rows; past
// FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO rows only where the input rows are aligned (cols % 4 == 0) and
// the runs are at least FEW_WIDE_SWIZZLED_RUNS_PER_SM per SM (launch_variant says why).
constexpr std::int64_t FEW_WIDE_SWIZZLED_UP_TO = 127;
constexpr std::int64_t FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO = 115;
constexpr std::int64_t FEW_WIDE_SWIZZLED_RUNS_PER_SM = 100;
constexpr int FEW_RUN = 128;      // floats of the long side per block (a multiple of 4)
constexpr int FEW_IN_FLIGHT = 4;  // 16-byte loads per thread in flight
// Floats per shared row: the run, its lead and the 3 floats past it, rounded up to 4 floats past
// a multiple of 32 (FULL_PITCH_MOD), so that neighbouring shared rows start in different banks.
// More than FEW_FULL_PITCH_UP_TO long rows take 4 past a multiple of 8 (COMPACT_PITCH_MOD): less
// shared memory, the same number of banks for 8 neighbouring rows by our count. The float-by-float
// side's accesses are not to neighbouring rows but to rows 4 apart (each thread takes 4 floats of
// the contiguous side), 16 banks apart at either pitch: Nsight Compute on the H100 had most of
// those accesses' wavefronts from bank conflicts (launch_variant's rule for 114 to 127 rows of a
// large wide matrix says where that costs time, and swizzles them there).
constexpr int FULL_PITCH_MOD = 32;
constexpr int COMPACT_PITCH_MOD = 8;
__host__ __device__ constexpr int few_pitch(int run, int mod = FULL_PITCH_MOD) {
  int pitch = (run + 2 * BELOW + VEC - 1) / VEC * VEC;
  while (pitch % mod != VEC) pitch += VEC;
  return pitch;
}
static_assert(FEW_SIDE * few_pitch(FEW_RUN) * sizeof(float) <= 48 * 1024 && FEW_RUN % VEC == 0,
              "the few-side kernels' shared rows fit without opting in to more");
// With WHOLE_SECTORS a shared row holds up to the lead, the run and 7 rows past it, and the store
// phase reads it in whole chunks: up to run + 3 chunks (12 floats) past its start.
static_assert(few_pitch(FEW_RUN, COMPACT_PITCH_MOD) >= FEW_RUN + 3 * VEC,
              "kernel_few_cols' whole sectors fit its shared rows at either pitch");
// The most shared bytes the launch rules give the few-side kernels: FEW_FULL_PITCH_UP_TO long
// rows at the full pitch or FEW_COLS_ODD_ROWS at the compact one.
constexpr std::int64_t FEW_FULL_PITCH_FLOATS = FEW_FULL_PITCH_UP_TO * few_pitch(FEW_RUN);
constexpr std::int64_t FEW_COMPACT_FLOATS =
    FEW_COLS_ODD_ROWS * few_pitch(FEW_RUN, COMPACT_PITCH_MOD);
constexpr std::size_t FEW_SHARED_MAX_BYTES =
    std::max(FEW_FULL_PITCH_FLOATS, FEW_COMPACT_FLOATS) * sizeof(float);
static_assert(FEW_SHARED_MAX_BYTES <= 227 * 1024, "the few-side kernels' shared rows fit an SM");
// The lead of long row `few` (the floats its part of the block's run starts past a 16-byte
// boundary, and so where that part starts in its shared row): (few * long_side + first) % 4,
// where first, the run's first float along the long side, is a multiple of 4.
__device__ __forceinline__ int few_lead(int few, std::int64_t long_side) {
  return (few * int(long_side % VEC)) % VEC;
}

// The few-side kernels' run: RUN, or where RUN is 0 (ANY_RUN) the launch's `any_run` (a
// multiple of 4, chosen at run time: launch_few); and its shared rows' pitch.
constexpr int ANY_RUN = 0;
template <int RUN>
__device__ __forceinline__ int run_of(int any_run) {
  return RUN != ANY_RUN ? RUN : any_run;
}
template <int RUN, int PITCH_MOD>
__device__ __forceinline__ int pitch_of(int any_run) {
  if constexpr (RUN != ANY_RUN) {
    constexpr int pitch = few_pitch(RUN, PITCH_MOD);
    return pitch;
  } else {
    return few_pitch(any_run, PITCH_MOD);
  }
}

template <int RUN = FEW_RUN, int PITCH_MOD = FULL_PITCH_MOD, bool WHOLE_SECTORS = false>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel_few_cols(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                    int cols, int any_run) {
  static_assert(!WHOLE_SECTORS || (RUN != ANY_RUN && RUN % FLOATS_PER_SECTOR == 0),
                "whole sectors: each block's run starts on a sector of every output row's floats");
  constexpr int SECTOR = int(FLOATS_PER_SECTOR);
  constexpr int PAST = WHOLE_SECTORS ? SECTOR - 1 : BELOW;  // rows loaded past the run
  const int run = run_of<RUN>(any_run), pitch = pitch_of<RUN, PITCH_MOD>(any_run);
  extern __shared__ float4 few_smem[];
  float* const shared = reinterpret_cast<float*>(few_smem);  // [cols][pitch]
  const std::int64_t r0 = std::int64_t(blockIdx.x) * run;
  const int height = int(rows - r0 < run + PAST ? rows - r0 : run + PAST);  // rows loaded
  const int count = height * cols;
  const float* const from = in + r0 * cols;  // 16-byte aligned: r0 is a multiple of 4
  // Load phase: the input rows as one run, 4 floats per thread per pass, FEW_IN_FLIGHT passes'
  // loads issued before their floats go to shared memory.
  constexpr int STRIDE = VEC * BLOCK_THREADS;
  for (int k0 = VEC * threadIdx.x; k0 < count; k0 += FEW_IN_FLIGHT * STRIDE) {
    float4 q[FEW_IN_FLIGHT];
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int k = k0 + p * STRIDE;
      if (k + VEC <= count) {
        q[p] = __ldg(reinterpret_cast<const float4*>(from + k));
      } else {  // the matrix's last floats, or none (load_chunk's tail, in 32-bit offsets)
        q[p].x = k < count ? __ldg(from + k) : 0.0f;
        q[p].y = k + 1 < count ? __ldg(from + k + 1) : 0.0f;
        q[p].z = k + 2 < count ? __ldg(from + k + 2) : 0.0f;
        q[p].w = 0.0f;
      }
    }
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int k = k0 + p * STRIDE;
      int r = k / cols, c = k - r * cols;
#pragma unroll
      for (int i = 0; i < VEC; ++i) {
        if (k + i < count) shared[c * pitch + r + few_lead(c, rows)] = float_of(q[p], i);
        if (++c == cols) c = 0, ++r;
      }
    }
  }
  __syncthreads();
  // Store phase: each output row's aligned chunks, from the one that holds the row's first float
  // of the block (block rows r with (lead + r) % 4 == 0), `chunks` per row at most (run / 4 + 1,
  // at the first block; run / 4 + 2 with whole sectors, as lead + d is then at most 8), one chunk
  // per thread per pass: a warp's stores are consecutive chunks of one or two rows.
  const int chunks = run / VEC + (WHOLE_SECTORS ? 2 : 1);
  const std::int64_t left = rows - r0;  // rows from r0 to the matrix's end
  for (int e = threadIdx.x; e < cols * chunks; e += BLOCK_THREADS) {
    const int c = e / chunks, lead = few_lead(c, rows);
    const int d =
        WHOLE_SECTORS ? (SECTOR - c * int(rows % SECTOR) % SECTOR) % SECTOR : (VEC - lead) % VEC;
    const int first = blockIdx.x == 0 ? 0 : int(d < left ? d : left);
    const int last = int(run + d < left ? run + d : left);
    const int r = first - (lead + first) % VEC + VEC * (e - c * chunks);
    if (r >= last) continue;
    float* const to = out + std::int64_t(c) * rows + r0 + r;  // 16-byte aligned
    const float* const piece = shared + c * pitch + r + lead;
    if (r >= first && r + VEC <= last) {
      __stcs(reinterpret_cast<float4*>(to), *reinterpret_cast<const float4*>(piece));
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (r + i >= first && r + i < last) __stcs(to + i, piece[i]);
    }
  }
}

// SWIZZLE (kernel_few_rows for 114 to 127 rows of a large wide matrix; launch_variant says why):
// float `at` of the shared row that starts at row_start, within the row's whole 32-float groups at
// 16-byte chunk `at / 4` XOR bits 2 .. 4 of the row `key`. Lanes 4 rows apart, which the store
// phase reads at once, then fall in different banks; 16-byte chunks stay whole.
// Swizzled, the kernel held 42 registers, 5 blocks per SM; bounded to SWIZZLED_BLOCKS_PER_SM, as
// many as the unswizzled one's 40 registers fit, it holds 40 without spilling. (0: no bound, the
// unswizzled kernel's code as before the swizzle.)
constexpr int SWIZZLE_BITS = 7 << 2;  // bits 2 .. 4: the low three bits of a 16-byte chunk index
constexpr int SWIZZLED_BLOCKS_PER_SM = 6;
__device__ __forceinline__ int few_swizzled(int row_start, int at, int key, int pitch) {
  return row_start + (at < (pitch & ~31) ? at ^ (key & SWIZZLE_BITS) : at);
}

template <int RUN = FEW_RUN, int PITCH_MOD = FULL_PITCH_MOD, bool SWIZZLE = false>
__global__ void __launch_bounds__(BLOCK_THREADS, SWIZZLE ? SWIZZLED_BLOCKS_PER_SM : 0)
    kernel_few_rows(const float* __restrict__ in, float* __restrict__ out, int rows,
                    std::int64_t cols, int any_run) {
  const int run = run_of<RUN>(any_run), pitch = pitch_of<RUN, PITCH_MOD>(any_run);
  extern __shared__ float4 few_smem[];
  float* const shared = reinterpret_cast<float*>(few_smem);  // [rows][pitch]
  const std::int64_t c0 = std::int64_t(blockIdx.x) * run;
  const int width = int(cols - c0 < run ? cols - c0 : run);
  const std::int64_t n = std::int64_t(rows) * cols;
  // Load phase: each input row's piece as aligned chunks (`chunks` at most, from the one that
  // holds float c0), chunk j of row r at shared float r * pitch + 4 j: float c0 + x of the row is
  // at r * pitch + lead + x. One chunk per thread per pass, FEW_IN_FLIGHT passes' loads issued
  // before they go to shared memory.
  const int chunks = (BELOW + run + VEC - 1) / VEC;
  const int pieces = rows * chunks;
  for (int e0 = threadIdx.x; e0 < pieces; e0 += FEW_IN_FLIGHT * BLOCK_THREADS) {
    float4 q[FEW_IN_FLIGHT];
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int e = e0 + p * BLOCK_THREADS, r = e / chunks, j = VEC * (e - r * chunks);
      const int lead = few_lead(r, cols);
      const std::int64_t at = std::int64_t(r) * cols + c0 - lead + j;  // 16-byte aligned
      q[p] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (e >= pieces || j >= lead + width) continue;  // past the piece
      if (at + VEC <= n) {
        q[p] = __ldg(reinterpret_cast<const float4*>(in + at));
      } else {  // the matrix's last chunk, past the end of the allocation (load_chunk's tail)
        q[p].x = __ldg(in + at);
        if (at + 1 < n) q[p].y = __ldg(in + at + 1);
        if (at + 2 < n) q[p].z = __ldg(in + at + 2);
      }
    }
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int e = e0 + p * BLOCK_THREADS, r = e / chunks, j = VEC * (e - r * chunks);
      if (e < pieces)
        *reinterpret_cast<float4*>(SWIZZLE ? shared + few_swizzled(r * pitch, j, r, pitch)
                                           : shared + r * pitch + j) = q[p];
    }
  }
  __syncthreads();
  // Store phase: the output rows c0 .. c0 + width as one run, 4 floats per thread per pass.
  const int count = width * rows;
  float* const to = out + c0 * rows;  // 16-byte aligned: c0 is a multiple of 4
  for (int k = VEC * threadIdx.x; k < count; k += VEC * BLOCK_THREADS) {
    float v[VEC];
    int c = k / rows, r = k - c * rows;
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      v[i] = k + i < count
                 ? shared[SWIZZLE ? few_swizzled(r * pitch, c + few_lead(r, cols), r, pitch)
                                  : r * pitch + c + few_lead(r, cols)]
                 : 0.0f;
      if (++r == rows) r = 0, ++c;
    }
    if (k + VEC <= count) {
      __stcs(reinterpret_cast<float4*>(to + k), make_float4(v[0], v[1], v[2], v[3]));
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (k + i < count) __stcs(to + k + i, v[i]);
    }
  }
}
//! [few]

//! [stretch]
// A small matrix of few rows or few columns whose blocks are about one wave (launch_variant has
// the rule). The kernels there before were behind cublasSgeam, whose kernel fits 8 blocks per SM
// (Nsight Compute): the few-side kernels and the tiles fit 5 or 6, and aligned lines, at 8, issue
// far more instructions. These two fit 8: 32 registers and at most 64 x 64 floats of shared memory
// per block. The contiguous matrix (the output of few rows, the input of few columns) is, for each
// block, one stretch of memory, moved with 16-byte accesses in order; on the other matrix each
// load or store moves one float, a warp 32 floats of one long row, at any alignment: nothing to
// realign. (kernel_stretch_cols's guarded 16-byte loads are kernel_few_cols's, written again: a
// shared helper changed both kernels' compiled code, measured as they are.)
constexpr int STRETCH_BLOCKS_PER_SM = 8;
constexpr int STRETCH_FLOATS = TILE_DIM * TILE_DIM;  // a block's floats, at most
constexpr int WARPS = BLOCK_THREADS / 32;
// kernel_stretch_rows: RUN columns of every row per block (64 up to 64 rows, 32 up to 128).
template <int RUN>
__global__ void __launch_bounds__(BLOCK_THREADS, STRETCH_BLOCKS_PER_SM)
    kernel_stretch_rows(const float* __restrict__ in, float* __restrict__ out, int rows,
                        std::int64_t cols) {
  constexpr int MAX_ROWS = STRETCH_FLOATS / RUN;
  __shared__ float piece[MAX_ROWS][RUN + 1];  // padded: the store phase's reads hit every bank
  const std::int64_t c0 = std::int64_t(blockIdx.x) * RUN;
  const int width = cols - c0 < RUN ? int(cols - c0) : RUN;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Load phase: warp w reads rows w, w + 8, w + 16, ..., 32 floats of a row per load, every load
  // of the thread issued before any of its floats is needed.
  const float* const from = in + std::int64_t(warp) * cols + c0 + lane;
#pragma unroll
  for (int i = 0; i < MAX_ROWS / WARPS; ++i) {
    const int r = warp + WARPS * i;
#pragma unroll
    for (int j = 0; j < RUN / 32; ++j)
      if (r < rows && lane + 32 * j < width)
        piece[r][lane + 32 * j] = from[std::int64_t(WARPS * i) * cols + 32 * j];
  }
  __syncthreads();
  // Store phase: output rows c0 .. c0 + width as one stretch, 4 floats per thread per pass
  // (16-byte aligned: c0 * rows is a multiple of 4 when RUN is).
  const int count = width * rows;
  float* const to = out + c0 * rows;
  for (int k = VEC * threadIdx.x; k < count; k += VEC * BLOCK_THREADS) {
    int c = k / rows, r = k - c * rows;
    float v[VEC];
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      v[i] = k + i < count ? piece[r][c] : 0.0f;
      if (++r == rows) r = 0, ++c;
    }
    if (k + VEC <= count) {
      *reinterpret_cast<float4*>(to + k) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (k + i < count) to[k + i] = v[i];
    }
  }
}
// kernel_stretch_cols: 64 rows per block, all of at most 64 columns: the mirror image.
__global__ void __launch_bounds__(BLOCK_THREADS, STRETCH_BLOCKS_PER_SM)
    kernel_stretch_cols(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                        int cols) {
  __shared__ float piece[TILE_DIM][TILE_DIM + 1];  // [column][row]
  const std::int64_t r0 = std::int64_t(blockIdx.x) * TILE_DIM;
  const int height = tile_extent(rows, r0);
  const int count = height * cols;
  // Load phase: input rows r0 .. r0 + height as one stretch, 4 floats per thread per pass, every
  // pass's load issued first (16-byte aligned: r0 is a multiple of 4).
  const float* const from = in + r0 * cols;
  constexpr int IN_FLIGHT = STRETCH_FLOATS / (VEC * BLOCK_THREADS);
  float4 q[IN_FLIGHT];
#pragma unroll
  for (int p = 0; p < IN_FLIGHT; ++p) {
    const int k = VEC * (threadIdx.x + p * BLOCK_THREADS);
    if (k + VEC <= count) {
      q[p] = __ldg(reinterpret_cast<const float4*>(from + k));
    } else {  // the block's last floats, or none
      q[p].x = k < count ? __ldg(from + k) : 0.0f;
      q[p].y = k + 1 < count ? __ldg(from + k + 1) : 0.0f;
      q[p].z = k + 2 < count ? __ldg(from + k + 2) : 0.0f;
      q[p].w = 0.0f;
    }
  }
#pragma unroll
  for (int p = 0; p < IN_FLIGHT; ++p) {
    const int k = VEC * (threadIdx.x + p * BLOCK_THREADS);
    int r = k / cols, c = k - r * cols;
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      if (k + i < count) piece[c][r] = float_of(q[p], i);
      if (++c == cols) c = 0, ++r;
    }
  }
  __syncthreads();
  // Store phase: warp w writes output rows w, w + 8, ..., 32 floats of a row per store.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float* const to = out + std::int64_t(warp) * rows + r0 + lane;
#pragma unroll
  for (int i = 0; i < TILE_DIM / WARPS; ++i) {
    const int c = warp + WARPS * i;
#pragma unroll
    for (int j = 0; j < TILE_DIM / 32; ++j)
      if (c < cols && lane + 32 * j < height)
        to[std::int64_t(WARPS * i) * rows + 32 * j] = piece[c][lane + 32 * j];
  }
}
//! [stretch]

//! [launch]
template <typename Index>
void launch_narrow(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t n = rows * cols;
  const std::int64_t blocks = (n + VEC * BLOCK_THREADS - 1) / (VEC * BLOCK_THREADS);
  if (rows <= cols)  // the output (cols x rows) is the run of short rows
    launch_kernel(trace::named<kernel_narrow<true, Index>>(), unsigned(blocks), BLOCK_THREADS, 0, 0,
                  d_in, d_out, Index(n), Index(rows), Index(cols));
  else
    launch_kernel(trace::named<kernel_narrow<false, Index>>(), unsigned(blocks), BLOCK_THREADS, 0,
                  0, d_in, d_out, Index(n), Index(cols), Index(rows));
  check_launch();
}

// What the launch rules ask of the current GPU: its SM count and its theoretical DRAM bandwidth
// per SM, in GB/s (the H100 SXM's about 25, the H200's about 36: how many bytes each SM must keep
// moving for DRAM to stay busy). Asked of the driver once per device and kept: the query takes
// long enough (about half a millisecond, as the H200's first bench run with it showed) to leave
// the GPU idle before every launch.
struct gpu_facts {
  int sms = 0;
  double dram_gbps_per_sm = 0;
  std::size_t shared_per_sm = 0, shared_reserved_per_block = 0;  // bytes
};
inline gpu_facts current_gpu() {
  if (const trace::sink* s = trace::current_sink())
    return {s->sms, s->dram_gbps_per_sm, s->shared_per_sm, s->shared_reserved_per_block};
  constexpr int MAX_DEVICES = 64;
  static gpu_facts known[MAX_DEVICES] = {};  // sms 0: not asked yet
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (device < MAX_DEVICES && known[device].sms > 0) return known[device];
  const common::device_info d = common::query_device(device);
  int reserved = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  const gpu_facts facts{d.sm_count, d.theoretical_gbps / d.sm_count, d.shared_bytes_per_sm,
                        std::size_t(reserved)};
  if (device < MAX_DEVICES) known[device] = facts;
  return facts;
}

// More than 48 KB of shared rows (more than FEW_SIDE few floats) need the kernel's permission,
// asked once per kernel and device for FEW_SHARED_MAX_BYTES, enough for every side the launch
// rules give them (more if a caller asks for more).
template <auto KERNEL>
void allow_few_shared(std::size_t bytes) {
  constexpr int MAX_DEVICES = 64;
  static std::size_t allowed[MAX_DEVICES] = {};  // one array per kernel (KERNEL, not its type)
  if (trace::current_sink() != nullptr) return;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (bytes <= 48 * 1024 || (device < MAX_DEVICES && bytes <= allowed[device])) return;
  const std::size_t ask = std::max(bytes, FEW_SHARED_MAX_BYTES);
  CUDA_CHECK(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, int(ask)));
  if (device < MAX_DEVICES) allowed[device] = ask;
}

// The shared bytes per block that keep KERNEL's blocks (BLOCK_THREADS each, `bytes` of shared
// memory) to as many per SM as hold their shared memory in `budget` bytes: `bytes`, or more where
// more blocks would fit an SM (its registers allowing), just enough that one more does not. Each
// kernel and device remembers the last size asked and its answer, so that a repeated launch does
// not ask the occupancy again.
template <auto KERNEL>
std::size_t shared_within(std::size_t bytes, std::size_t budget) {
  constexpr int MAX_DEVICES = 64;
  static std::size_t asked[MAX_DEVICES] = {}, answer[MAX_DEVICES] = {};  // the last size asked
  const trace::sink* const tracing = trace::current_sink();
  int device = MAX_DEVICES;  // while tracing: nothing kept
  if (tracing == nullptr) CUDA_CHECK(cudaGetDevice(&device));
  if (device < MAX_DEVICES && asked[device] == bytes) return answer[device];
  const gpu_facts gpu = current_gpu();
  allow_few_shared<KERNEL>(bytes);
  int fit = 0;
  if (tracing != nullptr)
    fit = tracing->occupancy(trace::name_of(reinterpret_cast<const void*>(trace::named<KERNEL>())),
                             bytes);
  else
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, KERNEL, BLOCK_THREADS, bytes));
  const std::size_t within =
      std::max<std::size_t>(1, budget / (bytes + gpu.shared_reserved_per_block));
  std::size_t padded = bytes;
  if (std::size_t(fit) > within) {
    const std::size_t least = gpu.shared_per_sm / (within + 1) - gpu.shared_reserved_per_block + 1;
    padded = std::max(bytes, (least + 15) / 16 * 16);
  }
  if (device < MAX_DEVICES) {
    asked[device] = bytes;
    answer[device] = padded;
  }
  return padded;
}

// Whether runs of `run` floats (FEW_RUN unless given) of a long side `long_side` floats long would
// be fewer blocks than `per_sm` times the GPU's SMs (the few-side kernels' short runs, and
// launch_variant's small matrices past FEW_SIDE columns and large wide matrices).
inline bool few_runs_below(std::int64_t long_side, std::int64_t per_sm, int run = FEW_RUN) {
  return (long_side + run - 1) / run < per_sm * current_gpu().sms;
}
// A few waves: runs of FEW_RUN floats of the long side would be at least one block per SM but
// fewer than FEW_SMALL_WAVES (the rules for a side of a few dozen floats and for small wide
// matrices, in launch_variant).
inline bool few_waves_of(std::int64_t long_side) {
  return !few_runs_below(long_side, 1) && few_runs_below(long_side, FEW_SMALL_WAVES);
}

// The stretch kernels' matrices: a short side of STRETCH_FROM to 64 floats in runs of 64, or few
// rows of STRETCH_ROWS_FROM to STRETCH_ROWS_UP_TO in runs of 32 columns, whose blocks are more
// than STRETCH_FROM_BLOCKS_PER_SM per SM (runs of 64) or STRETCH_RUNS_OF_32_FROM (runs of 32) and
// at most one wave (launch_variant says why). Returns the run (the long side's floats per block),
// or 0 for every other matrix.
constexpr std::int64_t STRETCH_FROM = 20;
constexpr std::int64_t STRETCH_ROWS_FROM = 97;
constexpr std::int64_t STRETCH_ROWS_UP_TO = 128;
constexpr std::int64_t STRETCH_FROM_BLOCKS_PER_SM = 4;
constexpr std::int64_t STRETCH_RUNS_OF_32_FROM = 6;
inline int stretch_run(std::int64_t rows, std::int64_t cols) {
  const std::int64_t short_side = std::min(rows, cols), long_side = std::max(rows, cols);
  int run = 0;
  if (short_side >= STRETCH_FROM && short_side <= TILE_DIM)
    run = TILE_DIM;
  else if (rows >= STRETCH_ROWS_FROM && rows <= STRETCH_ROWS_UP_TO && rows < cols)
    run = TILE_DIM / 2;
  if (run == 0) return 0;
  const std::int64_t blocks = (long_side + run - 1) / run, sms = current_gpu().sms;
  const std::int64_t from = run == TILE_DIM ? STRETCH_FROM_BLOCKS_PER_SM : STRETCH_RUNS_OF_32_FROM;
  const bool about_one_wave = blocks > from * sms && blocks <= STRETCH_BLOCKS_PER_SM * sms;
  return about_one_wave ? run : 0;
}
// kernel_stretch_rows (at most 64 rows in runs of 64, at most 128 in runs of 32) or
// kernel_stretch_cols (at most 64 columns), for any number of blocks.
template <int RUN>
void launch_stretch_rows(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;
  launch_kernel(trace::named<kernel_stretch_rows<RUN>>(), unsigned((cols + RUN - 1) / RUN),
                BLOCK_THREADS, 0, 0, d_in, d_out, int(rows), cols);
  check_launch();
}
inline void launch_stretch_cols(const float* d_in, float* d_out, std::int64_t rows,
                                std::int64_t cols) {
  if (rows == 0 || cols == 0) return;
  launch_kernel(trace::named<kernel_stretch_cols>(), unsigned((rows + TILE_DIM - 1) / TILE_DIM),
                BLOCK_THREADS, 0, 0, d_in, d_out, rows, int(cols));
  check_launch();
}
inline void launch_stretch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                           int run) {
  if (rows > cols)
    launch_stretch_cols(d_in, d_out, rows, cols);
  else if (run == TILE_DIM)
    launch_stretch_rows<TILE_DIM>(d_in, d_out, rows, cols);
  else
    launch_stretch_rows<TILE_DIM / 2>(d_in, d_out, rows, cols);
}

// kernel_few_cols or kernel_few_rows, whichever side is the few (the other is longer), in runs
// of `run` floats of the long side: RUN, or any multiple of 4 where RUN is ANY_RUN. SWIZZLE:
// kernel_few_rows with swizzled shared rows (few_swizzled; kernel_few_cols has no such form).
// WHOLE_SECTORS: kernel_few_cols with whole sectors (kernel_few_rows has no such form).
// shared_budget (kernel_few_cols only; 0: none): no more blocks per SM than hold their shared rows
// in that many bytes (FEW_L1_SHARE_BYTES says why), by asking for more shared bytes per block where
// more blocks would fit.
template <int RUN, int PITCH_MOD = FULL_PITCH_MOD, bool SWIZZLE = false, bool WHOLE_SECTORS = false>
void launch_few_runs_of(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                        int run, std::size_t shared_budget = 0) {
  const std::int64_t few = std::min(rows, cols), runs = (std::max(rows, cols) + run - 1) / run;
  std::size_t shared_bytes = std::size_t(few) * few_pitch(run, PITCH_MOD) * sizeof(float);
  if (cols < rows) {
    if (shared_budget > 0)
      shared_bytes = shared_within<kernel_few_cols<RUN, PITCH_MOD, WHOLE_SECTORS>>(shared_bytes,
                                                                                   shared_budget);
    allow_few_shared<kernel_few_cols<RUN, PITCH_MOD, WHOLE_SECTORS>>(shared_bytes);
    launch_kernel(trace::named<kernel_few_cols<RUN, PITCH_MOD, WHOLE_SECTORS>>(), unsigned(runs),
                  BLOCK_THREADS, shared_bytes, 0, d_in, d_out, rows, int(cols), run);
  } else {
    allow_few_shared<kernel_few_rows<RUN, PITCH_MOD, SWIZZLE>>(shared_bytes);
    launch_kernel(trace::named<kernel_few_rows<RUN, PITCH_MOD, SWIZZLE>>(), unsigned(runs),
                  BLOCK_THREADS, shared_bytes, 0, d_in, d_out, int(rows), cols, run);
  }
  check_launch();
}
template <int RUN, int PITCH_MOD = FULL_PITCH_MOD, bool SWIZZLE = false, bool WHOLE_SECTORS = false>
void launch_few_runs(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  launch_few_runs_of<RUN, PITCH_MOD, SWIZZLE, WHOLE_SECTORS>(d_in, d_out, rows, cols, RUN);
}

// kernel_few_cols with whole sectors past FEW_SIDE columns (launch_few says where) runs
// FEW_SECTORS_RUN rows per block, with no more blocks per SM than hold their shared rows in
// FEW_L1_SHARE_BYTES. On compute capability 9.0 an SM's unified data cache is 256 KB, and its
// shared part is one of 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB (CUDA C++ Programming
// Guide): blocks whose shared rows need more than 196 KB leave the L1 28 KB instead of 60.
constexpr int FEW_SECTORS_RUN = 64;
constexpr std::size_t FEW_L1_SHARE_BYTES = 196 * 1024;
constexpr std::int64_t FEW_SECTORS_SHORT_FROM = 11;  // runs of FEW_RUN per SM (launch_few)
constexpr std::int64_t FEW_SECTORS_WIDE_PAST = 80;   // columns
constexpr std::int64_t FEW_SECTORS_WIDE_FROM = 7;    // runs of FEW_RUN per SM past those columns
constexpr std::int64_t FEW_COLS_TILED_FROM = 116;  // columns: the tiles (launch_variant says where)
template <int PITCH_MOD>
void launch_few_cols_l1_share(const float* d_in, float* d_out, std::int64_t rows,
                              std::int64_t cols) {
  launch_few_runs_of<FEW_SECTORS_RUN, PITCH_MOD, false, true>(d_in, d_out, rows, cols,
                                                              FEW_SECTORS_RUN, FEW_L1_SHARE_BYTES);
}

// Runs of FEW_RUN floats, or of FEW_SHORT_RUN where those would be fewer blocks than the GPU has
// SMs, or where the matrix is `small` (launch_variant says which are; SHORT_RUNS false: the
// --sweep's 'few-side runs of 128 only'). On the H100 the short runs
// were faster at 33 x 5000, 5000 x 33, 33 x 65, 65 x 33, 17 x 3000, 3000 x 17, 40 x 1001,
// 1001 x 37, 17 x 10003 and 10003 x 17, where runs of 128 fill a few dozen SMs at most and were
// behind cublasSgeam at 33 x 5000 and 33 x 65.
constexpr int FEW_SHORT_RUN = 32;
// A few waves: where runs of FEW_RUN would be at least one block per SM but fewer than
// FEW_SMALL_WAVES, for a few side of FEW_WAVES_FROM to FEW_SIDE floats (`few_waves`; launch_variant
// says why). There a few side of FEW_WAVES_ONE_WAVE_FROM floats or more takes the shortest run
// whose blocks all fit at once and hold at least FEW_WAVES_MIN_FLOATS floats (one_wave_run), if
// that run is at most FEW_WAVES_RUN or the few side is under FEW_WAVES_LONG_UNDER; the others take
// runs of FEW_WAVES_RUN. The kernels that take their run at launch (ANY_RUN) hold 48 registers
// where the others hold 40: 5 blocks per SM instead of 6. Bounded to 6 blocks, they held 40
// (kernel_few_rows spilling) and were slower (commit d578c02), and the bound changed the other
// kernels' code too.
constexpr int FEW_WAVES_RUN = 64;
constexpr std::int64_t FEW_WAVES_FROM = 20;
constexpr std::int64_t FEW_WAVES_ONE_WAVE_FROM = 32;
constexpr std::int64_t FEW_WAVES_LONG_UNDER = 48;
constexpr std::int64_t FEW_WAVES_MIN_FLOATS = 1536;
// The --sweep's choice: as before the rule (never), runs of FEW_WAVES_RUN only, or as above.
constexpr int FEW_WAVES_NEVER = 0, FEW_WAVES_RUNS_OF_64 = 1, FEW_WAVES_ONE_WAVE = 2;
constexpr std::int64_t FEW_WAVES_TILES_FROM = 61;  // columns (launch_variant says why)

// Blocks of KERNEL per SM with `shared_bytes` of dynamic shared memory, for a few side of `side`
// floats in runs of `run` (side <= FEW_SIDE, run <= FEW_RUN): asked of the driver once per device,
// few side and run, and kept.
template <auto KERNEL>
int few_blocks_per_sm(int side, int run, std::size_t shared_bytes) {
  constexpr int MAX_DEVICES = 8;  // fewer than current_gpu's 64: a table per device, not a value
  static int known[MAX_DEVICES][FEW_SIDE + 1][FEW_RUN / VEC + 1] = {};  // 0: not asked yet
  if (const trace::sink* s = trace::current_sink())  // nothing kept
    return std::max(
        s->occupancy(trace::name_of(reinterpret_cast<const void*>(trace::named<KERNEL>())),
                     shared_bytes),
        1);
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int* const kept = device < MAX_DEVICES ? &known[device][side][run / VEC] : nullptr;
  if (kept != nullptr && *kept > 0) return *kept;
  allow_few_shared<KERNEL>(shared_bytes);
  int blocks = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, KERNEL, BLOCK_THREADS, shared_bytes));
  blocks = std::max(blocks, 1);
  if (kept != nullptr) *kept = blocks;
  return blocks;
}

// The shortest run (a multiple of 4, at most FEW_RUN) whose blocks KERNEL's grid holds all at
// once: one wave, as full as it gets; but at least FEW_SHORT_RUN floats, and at least
// FEW_WAVES_MIN_FLOATS floats per block (launch_variant says why). For a few side of at most
// FEW_SIDE floats.
template <auto KERNEL>
int one_wave_run(std::int64_t few, std::int64_t long_side) {
  const int shortest = int((FEW_WAVES_MIN_FLOATS + few - 1) / few + VEC - 1) / VEC * VEC;
  for (int run = std::max(FEW_SHORT_RUN, shortest); run < FEW_RUN; run += VEC) {
    const std::size_t bytes = std::size_t(few) * few_pitch(run) * sizeof(float);
    const std::int64_t per_sm = few_blocks_per_sm<KERNEL>(int(few), run, bytes);
    if ((long_side + run - 1) / run <= per_sm * current_gpu().sms) return run;
  }
  return FEW_RUN;
}

// launch_few's long runs at either pitch: runs of FEW_RUN, with whole sectors where `sectors`, and
// in runs of FEW_SECTORS_RUN within the L1's share where `sectors_short` (launch_few says where).
template <int PITCH_MOD>
void launch_few_long_runs(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                          bool sectors, bool sectors_short) {
  if (sectors_short)
    launch_few_cols_l1_share<PITCH_MOD>(d_in, d_out, rows, cols);
  else if (sectors)
    launch_few_runs<FEW_RUN, PITCH_MOD, false, true>(d_in, d_out, rows, cols);
  else
    launch_few_runs<FEW_RUN, PITCH_MOD>(d_in, d_out, rows, cols);
}

// More than FEW_FULL_PITCH_UP_TO long rows at the compact pitch: on the H100 kernel_few_cols was
// faster with it than at the full pitch at 1000003 x 100, 1000001 x 112, 1000001 x 127 and
// 200001 x 100, and a little slower at 1000003 x 65, 1000001 x 63 and 80, and 39 x 1000003.
// In a few waves (`few_waves`; launch_variant says where): one_wave_run's run where the few side
// and that run allow it (the comment above FEW_WAVES_RUN says which), else runs of FEW_WAVES_RUN;
// ONE_WAVE_RUNS false (the --sweep's 'few-side runs of 64 in a few waves'): runs of FEW_WAVES_RUN.
// Runs of FEW_RUN of few columns whose output rows start off 16-byte boundaries (rows % 4 != 0)
// and that fill at least FEW_SMALL_WAVES blocks per SM: kernel_few_cols with whole sectors
// (WHOLE_SECTORS; not in the --sweep's 'few columns without whole sectors'). On the H100 (commit
// 61c32b3 with the kernel as an EXP variant; the page has the file) it was faster than the kernel
// before in both passes at all eleven shapes tried, of 19 to 127 columns and 300001 to 2000003
// rows: clearly at ten (2000001 x 71, 1309851 x 113, 1000003 x 100, 1000003 x 65, 1000001 x 33,
// 2000003 x 19, 600001 x 97, 300001 x 101, 980898 x 105, 810933 x 119), a little at
// 1454842 x 127. Rows % 4 == 0 keep the kernel before (not measured with whole sectors), and so do
// short runs and a few waves.
// Past FEW_SIDE columns, where the runs of FEW_RUN would be at least FEW_SECTORS_SHORT_FROM blocks
// per SM (FEW_SECTORS_WIDE_FROM past FEW_SECTORS_WIDE_PAST columns), whole sectors take runs of
// FEW_SECTORS_RUN within FEW_L1_SHARE_BYTES of shared rows per SM (launch_few_cols_l1_share;
// SECTORS_SHORT false, the --sweep's 'few columns with whole sectors in runs of 128 as before':
// runs of FEW_RUN). On the H100 (commits e9330d7 and 28cb224 with the kernel as EXP variants; the
// page has the files), at 65 to 127 columns of 187237, 1000003 and 1454842 rows: runs of 64 at 6
// blocks per SM were slower than runs of 128 where 6 blocks' shared rows pass 196 KB (88 and 108 to
// 124 columns); runs of 64 at 5 blocks at most were faster than runs of 128 at every shape but 72
// columns and 187237 x 80 (a little slower), past the memcpy target at every shape of 1000003 and
// 1454842 rows; where 6 blocks fit in 196 KB (65 to 80 and 97 to 104 columns) 6 and 5 were close,
// 6 ahead at 65 and 72. With fewer runs per SM (commit 3ef6665, an EXP from 4 runs
// of FEW_RUN per SM; the page has the file) runs of 64 were ahead at 108 to 127 columns of odd row
// counts from 67457 rows (4 runs per SM on 132 SMs), behind at 65 to 97 columns of 67457 rows and
// 65 of 84483 (5), and at 116 and 124 columns of 101378 rows (6, rows % 4 == 2). From 7 to 11 runs
// per SM (commit 84b0657 with the line at 7 for every width; the page has the file), at 118145 to
// 185727 rows of every residue mod 4 but 0, runs of 64 were ahead at 65 columns and at most shapes
// of 88 to 127, a little behind at a few, and behind at 80 columns (most of all at 132105
// and 133002 rows): the line is 7 runs per SM past 80 columns, below the 132104 rows where 127
// columns reach the memcpy target's 4096^2 floats; at 65 to 80 columns it stays at 11, below the
// 209716 rows where 80 columns reach it.
template <bool SHORT_RUNS = true, bool ONE_WAVE_RUNS = true, bool WHOLE_SECTORS = true,
          bool SECTORS_SHORT = true>
void launch_few(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                bool small = false, bool few_waves = false) {
  const std::int64_t few = std::min(rows, cols), long_side = std::max(rows, cols);
  const bool short_runs = SHORT_RUNS && (small || few_runs_below(long_side, 1));
  const bool compact = few > FEW_FULL_PITCH_UP_TO;
  const bool sectors = WHOLE_SECTORS && cols < rows && rows % VEC != 0 &&
                       !few_runs_below(long_side, FEW_SMALL_WAVES);
  const bool sectors_short =
      SECTORS_SHORT && sectors && few > FEW_SIDE &&
      !few_runs_below(long_side,
                      few > FEW_SECTORS_WIDE_PAST ? FEW_SECTORS_WIDE_FROM : FEW_SECTORS_SHORT_FROM);
  int one_wave = 0;  // the run that fills one wave, where the rule asks for it
  if (SHORT_RUNS && ONE_WAVE_RUNS && few_waves && few >= FEW_WAVES_ONE_WAVE_FROM)
    one_wave = cols < rows ? one_wave_run<kernel_few_cols<ANY_RUN>>(few, long_side)
                           : one_wave_run<kernel_few_rows<ANY_RUN>>(few, long_side);
  if (one_wave > 0 && (one_wave <= FEW_WAVES_RUN || few < FEW_WAVES_LONG_UNDER))
    launch_few_runs_of<ANY_RUN>(d_in, d_out, rows, cols, one_wave);
  else if (SHORT_RUNS && few_waves)
    launch_few_runs<FEW_WAVES_RUN>(d_in, d_out, rows, cols);
  else if (short_runs && compact)
    launch_few_runs<FEW_SHORT_RUN, COMPACT_PITCH_MOD>(d_in, d_out, rows, cols);
  else if (short_runs)
    launch_few_runs<FEW_SHORT_RUN>(d_in, d_out, rows, cols);
  else if (compact)
    launch_few_long_runs<COMPACT_PITCH_MOD>(d_in, d_out, rows, cols, sectors, sectors_short);
  else
    launch_few_long_runs<FULL_PITCH_MOD>(d_in, d_out, rows, cols, sectors, sectors_short);
}

// Few rows (more than FEW_ROWS, at most FEW_SMALL_SHORT_UP_TO) of a small wide matrix
// (launch_variant says which): up to FEW_SIDE rows the run that fills one wave, past them runs of
// FEW_SHORT_RUN, at the compact pitch past FEW_FULL_PITCH_UP_TO rows.
inline void launch_few_rows_small(const float* d_in, float* d_out, std::int64_t rows,
                                  std::int64_t cols) {
  if (rows <= FEW_SIDE)
    launch_few_runs_of<ANY_RUN>(d_in, d_out, rows, cols,
                                one_wave_run<kernel_few_rows<ANY_RUN>>(rows, cols));
  else
    launch_few(d_in, d_out, rows, cols, /*small=*/true);  // launch_few's short runs
}

using kernel_fn = void (*)(const float*, float*, std::int64_t, std::int64_t, std::int64_t);

// A tiled kernel over `step` tiles along blockIdx.x and `walk` along blockIdx.y, in one launch per
// 65535 of the walk (a grid holds no more blocks along y); `first` tells each launch where it is.
inline void launch_walk(kernel_fn k, const float* d_in, float* d_out, std::int64_t rows,
                        std::int64_t cols, std::int64_t step, std::int64_t walk) {
  for (std::int64_t first = 0; first < walk; first += MAX_GRID_Y) {
    const dim3 grid(unsigned(step), unsigned(std::min<std::int64_t>(walk - first, MAX_GRID_Y)));
    launch_kernel(k, grid, BLOCK_THREADS, 0, 0, d_in, d_out, rows, cols, first);
    check_launch();
  }
}

// A side that ends 1 .. thin floats past a multiple of 64 (more than one tile): a thin edge.
constexpr bool thin_edge(std::int64_t side, int thin) {
  return side > TILE_DIM && side % TILE_DIM != 0 && side % TILE_DIM <= thin;
}
// Tiles along a side whose thin edge of at most `thin` floats, if it has one, goes into the tiles
// beside it (the launch counts no tiles for it); thin 0: every partial tile counted.
constexpr std::int64_t tiles_along(std::int64_t side, int thin) {
  return thin_edge(side, thin) ? side / TILE_DIM : (side + TILE_DIM - 1) / TILE_DIM;
}

// kernel_lines, down the columns of tiles first.
template <bool ABSORB, int IN_FLIGHT = LINE_ROWS_IN_FLIGHT, int MIN_BLOCKS = LINE_BLOCKS_PER_SM>
void launch_lines(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  launch_walk(trace::named<kernel_lines<ABSORB, IN_FLIGHT, MIN_BLOCKS>>(), d_in, d_out, rows, cols,
              tiles_along(rows, ABSORB ? BELOW : 0), tiles_along(cols, ABSORB ? BELOW : 0));
}

// A grid of kernel_lines that is one wave (at most 8 tiles per SM), thin edges absorbed. At most 4
// or 5 tiles per SM: each thread's 8 rows in flight at once, at those blocks per SM (64 or 48
// registers); more: 4 rows at 8 blocks per SM. EIGHT_BLOCKS (the --sweep's 'one-wave lines at 8
// blocks per SM'): the latter everywhere.
constexpr int ONE_WAVE_IN_FLIGHT = 4;
constexpr int FEW_BLOCKS_IN_FLIGHT = 8;
template <bool EIGHT_BLOCKS>
void launch_lines_one_wave(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                           std::int64_t tiles_per_sm) {
  if (!EIGHT_BLOCKS && tiles_per_sm <= 4)
    launch_lines<true, FEW_BLOCKS_IN_FLIGHT, 4>(d_in, d_out, rows, cols);
  else if (!EIGHT_BLOCKS && tiles_per_sm <= 5)
    launch_lines<true, FEW_BLOCKS_IN_FLIGHT, 5>(d_in, d_out, rows, cols);
  else
    launch_lines<true, ONE_WAVE_IN_FLIGHT>(d_in, d_out, rows, cols);
}

// Grids of kernel_lines past one wave: thin last rows or columns (1 .. 3) go into the tiles
// beside them where that side has at most FEW_TILES_ABSORBED tiles (a round number between the 4
// tiles measured faster and the 64 measured a little slower; launch_variant lists the shapes).
// ABSORB_FEW (the --sweep's 'lines with thin tiles of their own' clears it): that choice, or
// tiles of their own everywhere.
constexpr std::int64_t FEW_TILES_ABSORBED = 8;
template <bool ABSORB_FEW = true>
void launch_lines_thin_edges(const float* d_in, float* d_out, std::int64_t rows,
                             std::int64_t cols) {
  const auto thin_of_few = [](std::int64_t side) {
    return thin_edge(side, BELOW) && side / TILE_DIM <= FEW_TILES_ABSORBED;
  };
  if (ABSORB_FEW && (thin_of_few(rows) || thin_of_few(cols)))
    launch_lines<true>(d_in, d_out, rows, cols);
  else
    launch_lines<false>(d_in, d_out, rows, cols);
}

// The kernel for aligned output rows (rows % 4 == 0), its loads aligned or realigned.
template <bool DOWN, bool WHOLE_BULK, bool WIDE_FETCH>
kernel_fn aligned_output_kernel(bool aligned_loads, bool absorb_aligned) {
  if (aligned_loads)
    return absorb_aligned ? trace::named<kernel<true, true, DOWN, WHOLE_BULK, false, true, WIDE_FETCH>>()
                          : trace::named<kernel<true, true, DOWN, WHOLE_BULK, false, false, WIDE_FETCH>>();
  return absorb_aligned ? trace::named<kernel<false, true, DOWN, WHOLE_BULK, false, true, WIDE_FETCH>>()
                        : trace::named<kernel<false, true, DOWN, WHOLE_BULK, false, false, WIDE_FETCH>>();
}

// The tiled kernels, down the columns of tiles first (DOWN) or along the rows of tiles first.
// absorb_aligned: the matrix has aligned output rows and thin edges that the tiles beside them
// take (the launch counts no tiles for them). wide_fetches: the kernels for aligned output rows
// ask the L2 for the whole 256 bytes around each input load (launch_variant says where).
template <bool DOWN, bool EACH_SIDE, bool WHOLE_BULK, bool SPLIT_CHUNKS, bool SHIFTED_BULK,
          bool ABSORB>
void launch_tiles(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                  std::int64_t row_tiles, std::int64_t col_tiles, bool absorb_aligned,
                  bool wide_fetches) {
  // The kernel depends on the shape only, not on the part of the walk a launch takes.
  const bool aligned_stores = rows % VEC == 0, aligned_loads = cols % VEC == 0;
  kernel_fn k;
  if (aligned_stores && (aligned_loads || EACH_SIDE))
    k = wide_fetches
            ? aligned_output_kernel<DOWN, WHOLE_BULK, true>(aligned_loads, absorb_aligned)
            : aligned_output_kernel<DOWN, WHOLE_BULK, false>(aligned_loads, absorb_aligned);
  else
    k = trace::named<kernel<false, false, DOWN, (WHOLE_BULK && SHIFTED_BULK), SPLIT_CHUNKS,
               (ABSORB && !SPLIT_CHUNKS)>>();
  launch_walk(k, d_in, d_out, rows, cols, DOWN ? row_tiles : col_tiles,
              DOWN ? col_tiles : row_tiles);
}

// The order of the tiles: down each column of tiles first, or along each row of tiles first
// (transpose_fast's order). Down first, the blocks that write the two parts of a 32-byte sector
// shared by their output rows run one after the other, and each output row is written in long
// runs; but each input row is read 256 bytes at a time, one column of tiles after another. Where a
// row of tiles is short (a tall matrix of at most 16 tiles across), along first reads whole input
// rows, and the tiles that share output sectors are still only a few blocks apart; there whole
// tiles are stored from registers, which measured faster than the bulk stores in that order (the
// --sweep measures both orders, and the short rows with bulk stores). ALONG_UP_TO: the longest row
// of tiles taken along first (longer ones too where the input rows start off 64-byte boundaries
// or the matrix is very tall); DOWN_FIRST (0) is always down first, ALONG_FIRST always along.
// ALONG_BULK: whole tiles taken along first keep the bulk stores (as in transpose_fast).
constexpr std::int64_t DOWN_FIRST = 0, ALONG_FIRST = INT64_MAX;
constexpr std::int64_t SHORT_ROW_OF_TILES = 16;
// Where the input rows start off 64-byte boundaries, or the matrix is very tall, the order is
// chosen by the shape's alignment and proportions (launch_variant says how, and why).
constexpr std::int64_t FLOATS_PER_64_BYTES = 64 / sizeof(float);
constexpr std::int64_t ALONG_WIDE = 4;  // longest row of tiles along first, in columns' lengths
constexpr std::int64_t ALONG_MAX_TILES = 700;  // ... and in tiles (launch_variant says why)
// Output rows every other one 32 bytes past a 64-byte boundary (rows % 16 == 8): down first from
// rows of tiles of DOWN_WIDE_SIXTEENTHS / 16 of a column's length (launch_variant says why).
constexpr std::int64_t DOWN_WIDE_SIXTEENTHS = 15;
// Output rows on 64-byte boundaries but off 256-byte ones (rows % 64 == 16, 32 or 48): down first
// from rows of tiles of DOWN_OFF_256_SIXTEENTHS / 16 of a column's length, in columns of at least
// DOWN_OFF_256_MIN_ROWS (the same).
constexpr std::int64_t DOWN_OFF_256_SIXTEENTHS = 24;
constexpr std::int64_t DOWN_OFF_256_MIN_ROWS = 4096;
constexpr std::int64_t VERY_TALL = 48;          // rows / cols: very tall, both sides aligned
constexpr std::int64_t TALL_REALIGNED = 8;      // rows / cols: very tall, realigned loads
constexpr std::int64_t SECTORS_ALONG_TALL = 9;  // rows / cols: whole sectors along (rows % 8 == 4)
// Wide fetches (launch_variant says where, and why): input rows off 256-byte boundaries, and down
// first only in columns of tiles at most WIDE_DOWN_MAX_ROWS tall, WIDE_DOWN_ALIGNED_MAX_ROWS where
// the loads are aligned (cols % 4 == 0).
constexpr std::int64_t FLOATS_PER_256_BYTES = 256 / sizeof(float);
constexpr std::int64_t WIDE_DOWN_MAX_ROWS = 20000;
constexpr std::int64_t WIDE_DOWN_ALIGNED_MAX_ROWS = 28000;
// Aligned lines (launch_variant says where, and why): on GPUs with at least this much DRAM
// bandwidth per SM (a line between the H100's 25 and the H200's 36, not a measured one). LINES:
// the --sweep's choice of never, by that line (the default), or on every GPU.
constexpr double LINES_MIN_GBPS_PER_SM = 30;
// ... and on any GPU where the tiles are at most this many per SM (two and a half waves of 8
// blocks): on the H100 lines were faster than the realigning kernel up to 19 tiles per SM and
// slower at 22 (launch_variant lists the shapes).
constexpr std::int64_t LINES_ANY_GPU_TILES_PER_SM = 20;
constexpr int LINES_NEVER = 0, LINES_BY_BANDWIDTH = 1, LINES_ALWAYS = 2;
// One-wave lines (launch_variant says where, and why). ONE_WAVE: the --sweep's choice of never,
// by tiles per SM (the default), or always at 8 blocks per SM.
constexpr int ONE_WAVE_NEVER = 0, ONE_WAVE_BY_TILES = 1, ONE_WAVE_EIGHT_BLOCKS = 2;
// The longest column of whole tiles whose thin last rows (aligned output rows) alone launch the
// kernel that takes them into the tiles above.
constexpr std::int64_t SHORT_COLUMN_OF_TILES = 16;

// The matrices with a side off 16-byte boundaries that one-wave lines take (launch_variant says
// why, and where they were measured): with both sides of 128 floats or more, those whose output
// rows are off (rows % 4 != 0); with fewer columns than rows, output rows off and 64 columns or 80
// to 127 (LINES_FEW_COLS_FROM); with no more rows than columns, rows that fill their tiles more
// than three quarters (49 .. 64 or 97 .. 127).
constexpr std::int64_t LINES_FEW_COLS_FROM = 80;
// Tiles per SM of kernel_lines' grid with thin edges taken in, the count both rules for aligned
// lines compare with their limits.
inline std::int64_t line_tiles_per_sm(std::int64_t rows, std::int64_t cols) {
  const std::int64_t sms = current_gpu().sms;
  return (tiles_along(rows, BELOW) * tiles_along(cols, BELOW) + sms - 1) / sms;
}
// With output rows off and both sides of 128 or more (output_off_both_long), lines past one wave
// too, up to this many tiles per SM (one and a half waves of 8 blocks).
constexpr std::int64_t LINES_OUTPUT_OFF_TILES_PER_SM = 12;
constexpr bool output_off_both_long(std::int64_t rows, std::int64_t cols) {
  return rows % VEC != 0 && std::min(rows, cols) >= 2 * TILE_DIM;
}
constexpr bool one_wave_lines_off(std::int64_t rows, std::int64_t cols) {
  if (rows % VEC == 0 && cols % VEC == 0) return false;  // both sides aligned: not this rule
  if (std::min(rows, cols) >= 2 * TILE_DIM) return output_off_both_long(rows, cols);
  if (rows > cols) return rows % VEC != 0 && (cols == TILE_DIM || cols >= LINES_FEW_COLS_FROM);
  return 4 * rows > 3 * TILE_DIM * ((rows + TILE_DIM - 1) / TILE_DIM);
}

// Where only the input rows are off (launch_variant says where, and why): kernel_loads_in_halves.
constexpr std::int64_t HALVES_FROM_SIDE = 96;
constexpr std::int64_t HALVES_FROM_TILES_PER_SM = 1;
constexpr std::int64_t HALVES_ALONG_FROM_TILES_PER_SM = 4;
constexpr std::int64_t HALVES_TILES_PER_SM = 32;
inline bool loads_in_halves(std::int64_t rows, std::int64_t cols) {
  if (rows % VEC != 0 || cols % VEC == 0 || std::min(rows, cols) < HALVES_FROM_SIDE) return false;
  const std::int64_t row_tiles = tiles_along(rows, 0), col_tiles = tiles_along(cols, 0);
  const std::int64_t tiles = row_tiles * col_tiles, sms = current_gpu().sms;
  if (col_tiles > MAX_GRID_Y) return false;
  const bool one_wave = tiles <= HALVES_BLOCKS_PER_SM * sms;
  if (col_tiles <= SHORT_ROW_OF_TILES)  // the kernels before take these along the rows of tiles
    return one_wave && tiles >= HALVES_ALONG_FROM_TILES_PER_SM * sms;
  return tiles >= HALVES_FROM_TILES_PER_SM * sms &&
         (one_wave || (tiles <= HALVES_TILES_PER_SM * sms && rows < TALL_REALIGNED * cols));
}
// kernel_loads_in_halves for rows a multiple of 4 (its 16-byte stores need aligned output rows),
// any cols, at most MAX_GRID_Y columns of tiles.
inline void launch_loads_in_halves(const float* d_in, float* d_out, std::int64_t rows,
                                   std::int64_t cols) {
  if (rows == 0 || cols == 0) return;
  const std::int64_t row_tiles = tiles_along(rows, 0), col_tiles = tiles_along(cols, 0);
  launch_kernel(trace::named<kernel_loads_in_halves>(), dim3(unsigned(row_tiles), unsigned(col_tiles)),
                BLOCK_THREADS, 0, 0, d_in, d_out, rows, cols);
  check_launch();
}

// kernel_whole_sectors for rows % 8 == 4, any cols, down the columns of tiles (a launch per
// MAX_GRID_Y columns of tiles) or, `down` false, along the rows of tiles (a launch per MAX_GRID_Y
// rows of tiles); wide_fetches: load_chunk's WIDE_FETCH.
template <bool DOWN>
kernel_fn whole_sectors_kernel(bool aligned_loads, bool wide_fetches) {
  return aligned_loads ? (wide_fetches ? trace::named<kernel_whole_sectors<true, true, DOWN>>()
                                       : trace::named<kernel_whole_sectors<true, false, DOWN>>())
                       : (wide_fetches ? trace::named<kernel_whole_sectors<false, true, DOWN>>()
                                       : trace::named<kernel_whole_sectors<false, false, DOWN>>());
}
inline void launch_whole_sectors(const float* d_in, float* d_out, std::int64_t rows,
                                 std::int64_t cols, bool wide_fetches, bool down = true) {
  if (rows == 0 || cols == 0) return;
  const bool aligned_loads = cols % VEC == 0;
  const std::int64_t row_tiles = tiles_along(rows, 0), col_tiles = tiles_along(cols, 0);
  if (down)
    launch_walk(whole_sectors_kernel<true>(aligned_loads, wide_fetches), d_in, d_out, rows, cols,
                row_tiles, col_tiles);
  else
    launch_walk(whole_sectors_kernel<false>(aligned_loads, wide_fetches), d_in, d_out, rows, cols,
                col_tiles, row_tiles);
}

// d_in and d_out as cudaMalloc returns them (256-byte aligned): the 16-byte accesses and the bulk
// copies rely on it. NARROW: the largest side that takes kernel_narrow (the --sweep's choice).
// EACH_SIDE: a matrix whose output rows are aligned but whose input rows are not realigns only its
// loads (the --sweep also realigns both sides there). SPLIT_CHUNKS: any_tile's chunks split at
// tile edges (the --sweep's measure of what whole chunks gain). WIDE_FETCHES: where the output
// rows are aligned (rows % 4 == 0) and the input rows start off 256-byte boundaries (cols % 64 !=
// 0), the input loads ask the L2 to fetch the whole aligned 256 bytes around them (transpose_fast's
// load_input): a tile's 256 bytes of such a row then come from DRAM in two whole 256-byte pieces,
// shared with the tiles beside it, instead of in smaller ones. On the H200 and the H100 this
// measured faster at 16384 x 16385, 16388 x 16388, 4100 x 4100, 70000 x 5000 and 20000 x 17500
// (and on the H100 at 8000 x 8004, 5008 x 70004, 6000 x 20004 and 70000 x 5001 too). It measured
// slower where the output rows start at any float (16385 x 16384, 16383 x 16385, 10001 x 10003, on
// the H200), which therefore keep plain loads, as do input rows on 256-byte boundaries (a little
// slower at 16384 x 16384), and on the H100 at 70004 x 5000 and 30000 x 9001, taken down columns
// of 70004 and 30000 rows: there the other half of each fetched piece, which the tile beside it
// needs, waits a whole column of tiles in the L2 (our reading, not measured). So down first it is
// used only in columns of at most WIDE_DOWN_MAX_ROWS rows: 16388 rows measured faster on both GPUs,
// 30000 slower on the H100 (faster on the H200), and the line between them is a round number, not
// a measured one; with aligned loads, columns of up to WIDE_DOWN_ALIGNED_MAX_ROWS (launch_variant
// says why). The --sweep's 'no wide fetches' measures the loads without it.
template <
    std::int64_t NARROW = NARROW_SIDE, std::int64_t ALONG_UP_TO = SHORT_ROW_OF_TILES,
    bool EACH_SIDE = true, bool ALONG_BULK = false, bool SPLIT_CHUNKS = false,
    bool SHIFTED_BULK = true, bool ABSORB = true, bool ABSORB_ALIGNED = true,
    bool WIDE_FETCHES = true, int LINES = LINES_BY_BANDWIDTH, bool LINES_ABSORB = true,
    int ONE_WAVE = ONE_WAVE_BY_TILES, std::int64_t NARROW_ODD = NARROW_ODD_ROWS,
    std::int64_t FEW = FEW_SIDE, bool FEW_EVERYWHERE = false, bool FEW_SHORT_RUNS = true,
    std::int64_t FEW_ODD = FEW_COLS_ODD_ROWS, bool FEW_SMALL = true,
    int FEW_WAVES = FEW_WAVES_ONE_WAVE, bool FEW_WAVES_TILES = true, bool FEW_ROWS_SMALL = true,
    bool LINES_ONE_SIDE = true, bool STRETCH = true, bool HALVES = true, bool FEW_ROWS_WIDE = true,
    bool FEW_ROWS_WIDE_SWIZZLED = true, bool WHOLE_SECTORS = true, bool FEW_COLS_SECTORS = true,
    bool SECTORS_ALONG = true, bool FEW_SECTORS_SHORT = true, bool FEW_COLS_TILED = true,
    bool HALF_LINE_ROWS_DOWN = true, bool ALONG_SHORT_ROWS = true, bool WIDE_DOWN_TALLER = true,
    bool OFF_256_ROWS_DOWN = true, bool THIN_COLS_SECTORS = true>
void launch_variant(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  // One row or one column: its transpose is the same floats in the same order.
  if (rows == 1 || cols == 1) {
    if (trace::current_sink() != nullptr)
      trace::record("cudaMemcpyAsync bytes " + std::to_string(rows * cols * sizeof(float)));
    else
      CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, std::size_t(rows * cols) * sizeof(float),
                                 cudaMemcpyDeviceToDevice));
    return;
  }
  // Only the input rows off (rows a multiple of 4, cols not), both sides of HALVES_FROM_SIDE floats
  // or more (HALVES; not in the --sweep's 'input rows off at five blocks per SM'):
  // kernel_loads_in_halves, ahead of every rule below, the stretch kernels' included. On the H100
  // (commits 4231f59 and ae17c2b with the kernel as EXP variants, b9f961f with a first rule and
  // 226b781 with this one; the page has the files) the realigning kernel, five blocks per SM, was
  // behind cublasSgeam at 512 x 8191, 640 x 6001, 2048 x 2001, 1000 x 4001, 2500 x 1703 and
  // 8192 x 501 (1024 to 1080 tiles: two waves of five blocks per SM, one of eight); loads in
  // halves were past it at each, and faster than the rules before at most shapes of 1 to 32 tiles
  // per SM whose rows of tiles are longer than SHORT_ROW_OF_TILES (2048 x 4001, 4096 x 4097,
  // 4096 x 4161, 1024 x 16383, 1200 x 3333, 128 x 50001, 200 x 60001), at 96 to 128 rows of 25001
  // to 32001 columns (the stretch kernels or kernel_few_rows before; 96 x 32001 and 128 x 26001
  // behind cublasSgeam there) but level at 100 x 30001, and at one wave of shorter rows of tiles
  // (4224 x 1001, 3000 x 1001, 8192 x 501, 30000 x 101). All four tile rows' loads at once
  // (spilling in 32 registers), one row at a time, and each lane's second chunk from the next lane
  // by shuffles were slower; so were the halves without wide fetches. The halves were slower at 72
  // to 88 rows of a wide matrix (72 x 25003, 80 x 30003, 88 x 22001, kernel_few_rows; hence from
  // 96), at rows of at most SHORT_ROW_OF_TILES tiles, which the rules before take along the rows
  // of tiles with bulk stores, under 4 tiles per SM (400 x 801, 600 x 1001) and past one wave
  // (8000 x 1001, 10000 x 1001, 16000 x 1001, 20000 x 501), in very tall matrices past one wave
  // (70000 x 5001, 300000 x 301, 100000 x 1001, 1000000 x 101, far slower). Past 32 tiles per SM
  // they were level (5000 x 5001, 8192 x 8191, 16384 x 16385), a little slower at 6000 x 6001 and
  // a little faster at 4096 x 4225 (the line at 32 is the last shape measured faster, 4096 x 4161).
  if (HALVES && loads_in_halves(rows, cols)) {
    launch_loads_in_halves(d_in, d_out, rows, cols);
    return;
  }
  // About one wave of few rows or few columns (STRETCH; not in the --sweep's 'no one-wave
  // stretches'): the stretch kernels, ahead of every rule below. On the H100 (commits 4ef3b7c,
  // 3a1b0b9, b84b0e6 with the kernels as EXP variants at any size, then fb11644 and 99393b2 with
  // the rule; the page has the files) the rules below were behind cublasSgeam at most such shapes
  // of 1001 blocks (40 to 64 rows of 64001 columns, 96 to 128 rows of 32001, 50 x 50001,
  // 61 x 60001, 60001 x 61). The stretch kernels were faster than those rules at each short side of
  // 20 to 64 both ways and at 96 to 128 rows, past cublasSgeam at each but 128 x 32001 (a little
  // behind it, a little past it at 99393b2), level at 65 and 80 rows; slower at 17 and 18 both
  // ways, where the few-side kernels stay, and at 96 to 128 columns of a tall matrix in runs of 32
  // rows (faster at 65 and 80: not kept). Past one wave (1094 blocks and more) they were slower
  // than the rules below at most few-row shapes (40 x 70001, 40 x 80001, 48 x 90001, 24 x 80001,
  // 100 x 36001, 100 x 50001) and faster at most few-column ones; in a small share of a wave,
  // slower at few rows (33 x 333, 40 x 5001, 24 x 1001), faster at their mirrors. With the rule,
  // from 4 blocks per SM: faster than the rules below at 40 x 33793 (529 blocks), 40 x 40001, 48 x
  // 50001 (782; behind cublasSgeam before, past it now), 40001 x 40 and 50003 x 40, and at 12 of 13
  // shapes not measured before (slower at 25 x 45001, past cublasSgeam either way). In runs of 32,
  // slower at 100 x 17001, 100 x 20001 and 120 x 25001 (532 to 782 blocks; hence from 6 per SM),
  // and at 844 blocks slower at 65, 80 and 96 rows of 27001 (hence from 97 rows), faster at 110 x
  // 27001, 100 x 25377 and 100 x 30001, level at 128 x 26001 (behind cublasSgeam either way).
  if (STRETCH) {
    const int run = stretch_run(rows, cols);
    if (run > 0) {
      launch_stretch(d_in, d_out, rows, cols, run);
      return;
    }
  }
  // One-wave lines where one side is off 16-byte boundaries too (LINES_ONE_SIDE; the --sweep's
  // 'aligned lines only where both sides are off' keeps the rule before, further on): the tiles at
  // most LINE_BLOCKS_PER_SM per SM (one wave of kernel_lines), at the shapes one_wave_lines_off
  // names, ahead of the few-side rules; with output rows off and both sides of 128 floats or more,
  // lines past one wave too, up to LINES_OUTPUT_OFF_TILES_PER_SM. On the H100 (commits 9547c15
  // and 47939e8 with a variant at any fill, 62c9aed, and 14d5d8d with a variant up to 20 tiles per
  // SM; the page has the files):
  // - Output rows off, both sides of 128 floats or more: the kernels before were behind
  //   cublasSgeam at 17 of 19 such shapes (1001 x 4096, 1025 x 1024, 2049 x 1000, 2001 x 2048,
  //   3001 x 1000, 4001 x 1024, 8191 x 512, 501 x 8192, 1501 x 1536, 255 x 16384, 16383 x 256,
  //   1999 x 2048, 6001 x 640, 777 x 5000, 30001 x 128, 15001 x 200, 3333 x 1216; level at
  //   130 x 30000, past it at 4097 x 200); lines were faster at all 19, and at or past it. Past
  //   one wave, at 9 to 12 tiles per SM: lines faster at 12289 x 333 (behind cublasSgeam before,
  //   far past it on lines), 9001 x 600, 2001 x 3000, 6001 x 1000 and 6002 x 1000, level at
  //   12001 x 400, a little slower at 20001 x 256; at 15 to 19, about as often slower as faster
  //   (slower at 30001 x 300 and 5001 x 2000).
  // - Only the input rows off, both sides of 128 or more: lines faster at 1000 x 4001, 1024 x 1025,
  //   2048 x 2001, 256 x 8001 and 512 x 8191, slower at 4096 x 1001 and 1536 x 1501, level at
  //   3000 x 1001 and 8192 x 501, and below cublasSgeam at about as many shapes as the kernel
  //   before, which such matrices keep.
  // - Few columns of a tall matrix with output rows off: lines faster at 64 columns (27001, 30001,
  //   33001, 45001, 50001 and 65001 rows), at 88 to 96 (30003 x 88, 15003 x 92, 20003 x 96,
  //   30003 x 96; level at 30003 x 80, slower at 20001 x 84, still past cublasSgeam) and at 100 to
  //   120 (12003 x 100, 16385 x 100, 15001 x 120, 20003 x 120, 30003 x 120; level at 25001 x 110,
  //   slower at 25001 x 100); slower at 72 (25003 x 72) and at 50 to 60 (60001 x 50, 40001 x 52,
  //   35001 x 57, 50003 x 60; level at 40001 x 63 and 60001 x 61), where the few-side kernels stay.
  //   The rule starts at 80 (LINES_FEW_COLS_FROM), level there. With only the input rows off,
  //   slower at 30004 x 121 and 20004 x 101, level at 30004 x 97: such tall matrices keep the
  //   kernels before.
  // - Few rows of a wide matrix with input rows off, rows filling their tiles more than three
  //   quarters: lines faster at 9 of 21 shapes (108 x 22001, 112 x 30003, 120 x 30003,
  //   124 x 25001, 52 x 40001, 56 x 40003, 58 x 52001, 60 x 50003, 64 x 40001), level at 5, slower
  //   at 7 (100 x 25001, 100 x 30001, 116 x 20001, 120 x 20003, 50 x 50001, 60 x 30001,
  //   63 x 60001); below cublasSgeam at 6 of the 21 against 9 before. At 96 rows and at 33 to 44,
  //   slower (96 x 30003, 44 x 28001, 40 x 64001, 40 x 60001, 33 x 30003). With output rows off
  //   and input rows aligned: faster at 114 x 20000 and 62 x 52000, a little faster at 58 x 40000
  //   and 50 x 60000, slower at 101 x 30000.
  // On the H200 (commit 4a065d2, the rule as kept) lines were faster than the kernels before at 24
  // of 27 such shapes (slower at 50 x 50001 and 116 x 20001, a little at 58 x 40000); with output
  // rows off and both sides of 128 or more, faster at each of 15, from behind cublasSgeam to past
  // it at 13.
  if (LINES_ONE_SIDE && one_wave_lines_off(rows, cols)) {
    const std::int64_t tiles_per_sm = line_tiles_per_sm(rows, cols);
    if (tiles_per_sm <= LINE_BLOCKS_PER_SM) {
      launch_lines_one_wave<false>(d_in, d_out, rows, cols, tiles_per_sm);
      return;
    }
    if (output_off_both_long(rows, cols) && tiles_per_sm <= LINES_OUTPUT_OFF_TILES_PER_SM) {
      launch_lines_thin_edges(d_in, d_out, rows, cols);
      return;
    }
  }
  // Few columns (more than NARROW, at most FEW) of more rows, or few rows (at most FEW_ROWS) of
  // more columns: kernel_few_cols or kernel_few_rows, except where the tiles' accesses are aligned
  // on both sides (few rows: rows and cols multiples of 4, at least FEW_ROWS_TILED_FROM rows; few
  // columns: output rows on 64-byte boundaries and input rows on 32-byte sectors, rows % 16 == 0
  // and cols % 8 == 0). FEW_EVERYWHERE (the --sweep's 'few-side kernels at aligned sides too'): no
  // exception.
  // On the H100 (asked of the H200, given the H100) the few-side kernels were far faster than the
  // default before them (tiles, aligned lines or the narrow kernel: 'no few-side kernels') at
  // 1000001 x 17 .. 63, 100003 x 17 and 37, 1000000 x 17, 1000004 x 48, 1000016 x 33, 300001 x 24
  // and 2000001 x 39, and at 17 .. 39 rows of 100003 .. 2000001 columns (24, 36 and 20 rows too,
  // with odd columns); the default before was behind cublasSgeam at 100003 x 17 on both GPUs and
  // at 1000001 x 18 and 19 on the H200. They were a little slower at 1000000 x 40, 48 and 64, 40 x
  // 1000000 and 32 x 1000000, and a little faster at 1000000 x 20 (hence cols % 8 for few columns).
  // Few rows stop at 40: at 44 rows of 1000001 they were level, at 45 faster, at 48, 52, 63 and 64
  // slower. Aligned few rows take them below 32 rows: on the H200 and the H100 they were faster at
  // 20 and 28 x 1000000, 28 x 1000004 and 24 x 300000 (20 x 4000000 on the H100), faster on the
  // H200 and level on the H100 at 24 x 1000000, and slower at 32 and 36 x 1000000 on both (40 x
  // 1000000 and 32 x 4000000 on the H200).
  // Few columns go on to FEW_ODD where the output rows start off 16-byte boundaries (rows % 4 !=
  // 0; the --sweep's 'few columns up to 64 only' and 'up to 96 only' stop earlier): on the H100
  // kernel_few_cols was faster than the tiles at 1000003 x 65, 500001 x 67, 2000001 x 70,
  // 1000001 x 72, 300001 x 76, 1000001 x 80, 1000002 x 80, 100003 x 80, 1000001 x 88,
  // 1000001 x 96, 10001 x 72 and 1001 x 80, a little slower at 16385 x 65; from 97 columns on (at
  // the compact pitch, launch_few) faster at 1000003 x 100, 1000001 x 112, 1000001 x 127 and
  // 200001 x 100, and slower at 300001 x 128, whose tiles are all whole (hence 127).
  // Past FEW columns a small matrix (FEW_SMALL; not in the --sweep's 'few columns past 64 as
  // before'), whose runs of FEW_RUN rows would be fewer than FEW_SMALL_WAVES blocks per SM, takes
  // runs of FEW_SHORT_RUN up to FEW_SMALL_SHORT_UP_TO columns and the tiles past them. On the H100
  // kernel_few_cols in runs of FEW_RUN was far behind cublasSgeam at 20003 x 96, 20003 x 116 and
  // 20001 x 127 (157 blocks on 132 SMs: a second block on a few SMs) and behind it at 20003 x 65,
  // 30003 x 65 .. 112 and 25003 x 72; runs of FEW_SHORT_RUN were faster at all of these up to 112
  // columns and at 40003 x 96, 40001 x 80, 60003 x 96 and 60001 x 125, level at 12003 x 100,
  // 15003 x 100 and 45003 x 112, slower at 30003 x 120, 30003 x 127 and 50003 x 127; the tiles
  // were faster than either at 20003 x 116, 30003 x 127, 20001 x 127 and 60001 x 125, a little
  // slower at 50003 x 127 and 30003 x 120 (still at or past cublasSgeam at the first, behind it
  // with every kernel at the second). At 70003 x 96 and more rows the runs of FEW_RUN stay.
  // From FEW_COLS_TILED_FROM columns, where runs of FEW_RUN rows would be at least
  // FEW_SECTORS_WIDE_FROM blocks per SM but fewer than FEW_SECTORS_SHORT_FROM (FEW_COLS_TILED; not
  // in the --sweep's 'tall matrices of 116 to 127 columns on kernel_few_cols as before'), the tiles
  // take them too. On the H100 (commit b684208, the page has the file; two passes) the tiles were
  // faster than kernel_few_cols, in runs of 64 within the L1's share there, at 116 to 127 columns
  // of 118145, 133002, 150003, 168961 and 185727 rows (7 to 11 runs per SM on 132 SMs), and past
  // the memcpy target at each of them, level at 168961 x 127; a little slower at 104 to 112 columns
  // of most of them (level at a few), far slower at 97; and slower at most shapes of 116 to 127
  // columns of 187237, 250001 and 300001 rows (11 runs per SM and more), faster at 200003 rows.
  const bool past_few = FEW > 0 && rows % VEC != 0 && cols > FEW && cols <= FEW_ODD && rows > cols;
  const bool small = FEW_SMALL && past_few && few_runs_below(rows, FEW_SMALL_WAVES);
  const bool tiled = FEW_COLS_TILED && past_few && cols >= FEW_COLS_TILED_FROM &&
                     !few_runs_below(rows, FEW_SECTORS_WIDE_FROM) &&
                     few_runs_below(rows, FEW_SECTORS_SHORT_FROM);
  const bool few_cols = (cols > NARROW && cols <= FEW && rows > FEW) ||
                        (past_few && !(small && cols > FEW_SMALL_SHORT_UP_TO) && !tiled);
  const bool few_rows = rows > NARROW && rows <= std::min(FEW, FEW_ROWS) && cols > FEW;
  const bool tiles_aligned = few_rows
                                 ? rows % VEC == 0 && cols % VEC == 0 && rows >= FEW_ROWS_TILED_FROM
                                 : rows % FLOATS_PER_64_BYTES == 0 && cols % FLOATS_PER_SECTOR == 0;
  // Few rows past FEW_ROWS in a small wide matrix (FEW_ROWS_SMALL; not in the --sweep's 'small wide
  // matrices of 41 to 112 rows on the tiles as before'): FEW_ROWS + 1 to FEW_SMALL_SHORT_UP_TO rows
  // of more columns, not both sides multiples of 4 (those keep the tiles, as in a few waves; not
  // measured for wide matrices), whose runs of FEW_RUN columns would be at least one block per SM
  // but fewer than FEW_SMALL_WAVES, take kernel_few_rows: up to FEW_SIDE rows in the run that fills
  // one wave (one_wave_run), past it in runs of FEW_SHORT_RUN (launch_few_rows_small). On the H100
  // (commit 61e1558, the page has the file) the kernels before (the tiles or aligned lines) were
  // level with cublasSgeam at 44 x 28001 and behind it at 44 x 45001, 60 x 60001, 80 x 30003,
  // 88 x 22001, 96 x 30003, 100 x 30003, 104 x 26001, 112 x 30003 and 120 x 30003. The run that
  // fills one wave was faster than runs of 32 at 44 to 65 rows (44 x 28001 and 45001, 48 x 30001,
  // 60 x 60001, 63 x 30003, 65 x 30003 and 50001), runs of 32 faster from 70 rows on (70 x 15001,
  // 72 x 25003, 80 x 30003, 88 x 22001, 96 x 30003); the rule splits at FEW_SIDE, the widest few
  // side one_wave_run keeps occupancies for; up to 112 rows runs of 32 were faster than the tiles
  // at 100 x 30003, 104 x 26001 and 112 x 30003, from 120 rows far slower (120 x 30003, 127 x 20001
  // and 40001). In the validation (commit 690d8b4, 31 shapes, 8 of them new) it was faster than the
  // tiles at most shapes and past cublasSgeam at 25 (70 x 15001 among them, whose runs of FEW_RUN
  // are fewer than one per SM: the rule, measured at that size at this shape only, leaves such
  // matrices to the kernels tuned for them), behind it at 112 x 30003 and 120 x 30003 (the tiles),
  // and at two new shapes the tiles had been past it: 108 x 22001 in runs of 32 and 58 x 52001 in
  // the run that fills one wave, a little behind it where the tiles were a little past it; level at
  // 96 x 30003 and 60 x 60001.
  const bool few_rows_small = FEW_ROWS_SMALL && FEW > 0 && rows > FEW_ROWS &&
                              rows <= FEW_SMALL_SHORT_UP_TO && cols > rows &&
                              !(rows % VEC == 0 && cols % VEC == 0) && few_waves_of(cols);
  if (few_rows_small) {
    launch_few_rows_small(d_in, d_out, rows, cols);
    return;
  }
  // Few rows off a multiple of 4 of a large wide matrix (FEW_ROWS_WIDE; not in the --sweep's 'wide
  // matrices of 65 to 113 rows off as before'): more than FEW_SIDE rows, at most
  // FEW_WIDE_ROWS_UP_TO, of columns whose runs of FEW_RUN would be FEW_SMALL_WAVES blocks per SM
  // or more (fewer: the rule above) take kernel_few_rows in runs of FEW_SHORT_RUN, as small ones
  // do. On the H100 (commits 6d1394f and 55304ae with the kernel as EXP variants in runs of 128,
  // 64 and 32, then c7f5a61 with the rule up to 115 rows and an EXP variant of it from 65; the
  // page has the files) the kernels before (the realigning tiles, or aligned lines where both
  // sides are off or the matrix has one row of tiles) missed the memcpy target at each shape of 69
  // to 101 rows with 4096^2 elements or more (far under it at 69 to 85 rows) and at 111 and 113
  // rows under 1000000 columns, and were behind cublasSgeam at 69 x 100003; runs of 32 were faster
  // than them at every shape of 65 to 113 rows measured, from 67457 to 1500001 columns, in two
  // passes, and met the target wherever it applies (runs of 128 or 64 were slower than runs of 32
  // at most). At 114 and 115 rows they were slower than the kernels before at 67457 columns (115
  // at 90001 and 250002 too), faster past them; from 117 rows on slower or level (117 x 100003 to
  // 1000001, 118 x 600001, 119 x 200001 and 810932, 123 x 600004, 127 x 100003 and 700000; behind
  // cublasSgeam at 127 x 100003): the rule below takes some of them.
  // Past FEW_WIDE_ROWS_UP_TO, up to FEW_WIDE_SWIZZLED_UP_TO rows (FEW_ROWS_WIDE_SWIZZLED; not in
  // the --sweep's 'wide matrices of 114 to 127 rows off as before'), the same runs take swizzled
  // shared rows (few_swizzled). Nsight Compute on the H100 (commit 59e9da4; the page has the file)
  // had most of kernel_few_rows's shared-load wavefronts from bank conflicts at
  // 85 x 1000003 and 113 x 600003: its store phase reads 32 lanes 4 rows apart, whose banks the
  // pitch of 4 past a multiple of 8 or 32 puts in two groups. Swizzled (commit 4bff35e, as an EXP
  // variant of the few-side kernels for large matrices whose output rows are off, two passes) it
  // was faster than the kernels before and than the runs unswizzled at 114 x 250002,
  // 115 x 600003, 119 x 810932, 123 x 600004 and 127 x 700000, a little faster at 117 x 1000001,
  // and level up to 113 rows (a little slower at 69 x 1000003) and at few columns of tall
  // matrices (kernel_few_cols; 17 to 127 columns), where it is not used. As a rule for 114 to 127
  // rows (commit 9b52e31, 35 shapes, two passes) it was faster than the kernels before at every
  // shape of 114 and 115 rows except 115 x 67457, and slower at every shape of 117 to 127 rows of
  // 67457 to 250002 columns with input rows off (cols % 4 != 0); with input rows aligned (commit
  // 2bcc749, 33 shapes) faster at 117 to 127 rows of 600004 and 1000000 columns and at
  // 126 x 810932, slower at 67460 and 100004 columns, slower or level at 250004. Past
  // FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO rows it takes only aligned input rows in runs of at least
  // FEW_WIDE_SWIZZLED_RUNS_PER_SM per SM: 422400 columns on 132 SMs, a round number between the
  // sizes measured slower and faster, not itself measured. Such matrices of 116 to 127 rows with
  // input rows off, or fewer columns, keep the kernels before, which miss the memcpy target at
  // some of them (123 x 100003, 127 x 250002).
  const bool few_rows_wide_at = FEW > 0 && rows % VEC != 0 && rows > FEW_SIDE && cols > rows &&
                                !few_runs_below(cols, FEW_SMALL_WAVES);
  if (FEW_ROWS_WIDE && few_rows_wide_at && rows <= FEW_WIDE_ROWS_UP_TO) {
    launch_few(d_in, d_out, rows, cols, /*small=*/true);  // launch_few's short runs
    return;
  }
  if (FEW_ROWS_WIDE_SWIZZLED && few_rows_wide_at && rows > FEW_WIDE_ROWS_UP_TO &&
      rows <= FEW_WIDE_SWIZZLED_UP_TO &&
      (rows <= FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO ||
       (cols % VEC == 0 && !few_runs_below(cols, FEW_WIDE_SWIZZLED_RUNS_PER_SM, FEW_SHORT_RUN)))) {
    launch_few_runs<FEW_SHORT_RUN, COMPACT_PITCH_MOD, true>(d_in, d_out, rows, cols);
    return;
  }
  // A few waves (FEW_WAVES; the --sweep's 'few-side kernels in a few waves as before' keeps the
  // rules before, 'few-side runs of 64 in a few waves' takes runs of FEW_WAVES_RUN throughout, and
  // 'few-side runs in a few waves without the tiles' no tiles): a side of FEW_WAVES_FROM to FEW
  // floats whose runs of FEW_RUN would be at least one block per SM but fewer than FEW_SMALL_WAVES
  // (long sides of about 17 to 67 thousand floats on the H100). There the few-side kernels take
  // shorter runs (launch_few: the run that fills one wave, or FEW_WAVES_RUN; FEW_WAVES_RUN says
  // which), and few columns take the tiles instead where both sides are multiples of 4 or at
  // FEW_WAVES_TILES_FROM to 63 columns. On the H100 (sweeps at commits b911c05 and 6889038, then
  // b7ec6a7, ff49c5b, 9abbc71 and 6a0eb46; the page has the files): runs of 64 were faster than
  // runs of FEW_RUN at most shapes of 20 to 64 floats, slower at 17 to 19 (65001 x 19, 19 x 66001;
  // hence FEW_WAVES_FROM); the run that fills one wave, where its blocks hold at least
  // FEW_WAVES_MIN_FLOATS floats, faster than runs of 64 at 32 to 45 floats (30001 x 32 and 40,
  // 55003 x 40, 60003 x 40, 64001 x 36, 59003 x 42, 40 x 60001, 36 x 60001) and at 48 to 64 floats
  // of up to about 40 thousand rows (30001 x 48 to 64, 27001 x 64, 39001 x 64, 18001 x 57,
  // 34001 x 58, 19001 x 52, 17001 x 60), slower at fewer floats per block (21001 x 32 in runs of
  // 32), at 20 to 28 floats (30001 x 24, 28 x 40001, 20 x 40001) and, at 48 floats or more, where
  // that run is longer than 64 (50003 x 60 and 64, 62001 x 50, 45001 x 64), as was the kernel that
  // takes its run at launch in runs of 64 there (44001 x 56, 53001 x 52, 47001 x 60, 50003 x 48).
  // The tiles were faster than the runs where both sides are multiples of 4 (30004 x 40 and 64,
  // 30008 x 24, 36008 x 20, 42004 x 52, 22004 x 64, 52004 x 44) and at 61 to 63 columns (30001 x 62
  // and 63, 33003 x 61, 41001 x 62, 45001 x 63, 52001 x 63), slower at 48008 x 30 (rows a multiple
  // of 4, columns not) and at 64 columns (30001, 27001, 39001 rows). Still behind cublasSgeam with
  // every kernel measured: 45001 x 64 and 40 x 64001; behind it at 65001 x 64, where runs of
  // FEW_RUN were past it.
  const std::int64_t long_side = std::max(rows, cols);
  const bool few_waves = FEW_WAVES != FEW_WAVES_NEVER && !past_few &&
                         std::min(rows, cols) >= FEW_WAVES_FROM && few_waves_of(long_side);
  const bool few_waves_tiles =
      FEW_WAVES_TILES && few_waves && few_cols && cols <= FEW &&
      ((rows % VEC == 0 && cols % VEC == 0) || (cols >= FEW_WAVES_TILES_FROM && cols < TILE_DIM));
  if ((few_cols || few_rows) && (FEW_EVERYWHERE || !tiles_aligned) && !few_waves_tiles) {
    launch_few<FEW_SHORT_RUNS, FEW_WAVES == FEW_WAVES_ONE_WAVE, FEW_COLS_SECTORS,
               FEW_SECTORS_SHORT>(d_in, d_out, rows, cols, small, few_waves);
    return;
  }
  // Short output rows off 16-byte boundaries (rows % 4 != 0, up to NARROW_ODD rows, no more rows
  // than columns; more than FEW_SIDE columns take the few-side kernels above): the narrow kernel's
  // gather form, whose 16-byte stores fill the output in order (not in the --sweep's 'no narrow
  // kernel'). On the H200 it was far faster than the tiles (aligned lines there) at 17 to 37 rows
  // of 1000001 columns, where those were behind cublasSgeam up to 21 rows, level at 41 and slower
  // at 45 and 47; with rows a multiple of 4 (24, 32, 40, 48), level or slower; and its scatter form
  // for short input rows (1000001 x 17, 1000001 x 33, 1000001 x 48) far slower than the tiles. On
  // the H100 it was faster than the tiles up to 33 rows and slower at 37 and 39 (aligned lines in
  // one row of tiles there). The few-side kernels were faster than either on the H100.
  const bool short_odd_rows = NARROW > 0 && rows % VEC != 0 && rows <= NARROW_ODD && rows <= cols;
  if (std::min(rows, cols) <= NARROW || short_odd_rows) {
    if (rows * cols <= std::int64_t(UINT32_MAX) - VEC * BLOCK_THREADS)
      launch_narrow<std::uint32_t>(d_in, d_out, rows, cols);
    else
      launch_narrow<std::uint64_t>(d_in, d_out, rows, cols);
    return;
  }
  // ABSORB: in the kernel that realigns the output rows (rows % 4 != 0), with whole chunks, the
  // last 1 .. 3 rows are taken by the tiles above them (which load them anyway), and the last
  // 1 .. 3 columns by the tiles beside them, instead of by a row or column of tiles of their own.
  // (The kernel that realigns both sides also runs where only the input rows need it, in the
  // sweep's 'both sides realigned'.) ABSORB_ALIGNED: where the output rows are aligned, the last
  // 1 .. 3 columns and 4 or 8 rows likewise, in a kernel launched only where the matrix has such
  // edges: launched for every matrix with aligned output rows, it measured slower at those with
  // none (200000 x 100, 300000 x 300 on the H100). Thin last rows alone launch it only below a
  // column of at most 16 tiles, where their nearly empty tiles are a large share of the grid:
  // below a column of 256 tiles (16388 x 16388) the tiles above measured a little slower than
  // tiles of their own in two runs, and below 64 (4100 x 4100) no faster. (Where the last columns
  // are thin, the tiles take the thin rows too.)
  // Thin last columns where every other output row starts 16 bytes past a sector (rows % 8 == 4)
  // and the rows of tiles are too long to go along first (THIN_COLS_SECTORS; not in the --sweep's
  // 'thin last columns absorbed off a sector as before'): tiles of their own, so that
  // kernel_whole_sectors (below) takes the matrix, as it does where the last columns are not thin.
  // On the H100 (commits 3821d5f and 5359855, the page has the files; two passes at the second)
  // the tiles that absorb them were level with cublasSgeam at 14788 x 13761 and 14788 x 16385 and
  // behind it at 20004 x 20035, 30004 x 13762 and 46340 x 46339 (one pass), where whole sectors
  // were past it; whole sectors were faster at those and at six more shapes of 4100 to 70004 rows,
  // and a little slower at 2052 x 2113 (past cublasSgeam either way).
  const bool realigning_kernel = rows % VEC != 0 || (!EACH_SIDE && cols % VEC != 0);
  const bool short_column = rows / TILE_DIM <= SHORT_COLUMN_OF_TILES;
  // Output rows every other one 16 bytes past a sector, where kernel_whole_sectors may run (below).
  const bool sector_half_rows = WHOLE_SECTORS && rows % FLOATS_PER_SECTOR == VEC;
  const bool thin_cols_sectors =
      THIN_COLS_SECTORS && sector_half_rows && cols / TILE_DIM > ALONG_UP_TO;
  const bool absorb_aligned = !realigning_kernel && ABSORB_ALIGNED &&
                              ((short_column && thin_edge(rows, THIN_ROWS_ALIGNED)) ||
                               (thin_edge(cols, BELOW) && !thin_cols_sectors));
  const bool absorb = realigning_kernel ? ABSORB && !SPLIT_CHUNKS : absorb_aligned;
  const int thin_rows = absorb ? (realigning_kernel ? BELOW : THIN_ROWS_ALIGNED) : 0;
  const int thin_cols = absorb ? BELOW : 0;
  const std::int64_t row_tiles = tiles_along(rows, thin_rows);
  const std::int64_t col_tiles = tiles_along(cols, thin_cols);
  // Input rows off 64-byte boundaries (cols not a multiple of 16): the L2 fetches the input from
  // DRAM in pieces of up to 64 bytes, and each tile's left and right edges cut such pieces in two.
  // Down the columns first, the two halves are read by blocks a whole column of tiles apart; along
  // the rows first, by neighbours. Which order measured faster depends on the kind of load and on
  // the shape (the --sweep's 'tiles down columns first' against the default, on the H200 and H100):
  // - Aligned loads (cols a multiple of 4) and output rows on 32-byte sectors (rows a multiple of
  //   8): along first, whole tiles from registers, up to rows of tiles ALONG_WIDE times a column's
  //   length (faster at 70000 x 5000, 70008 x 5000, 20000 x 17500, 8000 x 8004, 8000 x 16004 and
  //   6000 x 20004, 3.3 times; slower at 5008 x 70004, 14 times). Output rows 16 bytes off a sector
  //   (70004 x 5000, 16388 x 16388) measured slower along.
  // - Realigned loads (cols not a multiple of 4): down first (faster at 5008 x 70001, 8008 x 8001,
  //   20000 x 17501 and 30000 x 9001), except in very tall matrices below.
  // - Of the first kind, output rows every other one 32 bytes past a 64-byte boundary (rows % 16
  //   == 8) with cols at least DOWN_WIDE_SIXTEENTHS / 16 of rows (HALF_LINE_ROWS_DOWN; not in the
  //   --sweep's 'output rows 32 bytes off 64 along as before'): down first. On the H100 (commit
  //   c9f0c2c, the page has the file; two passes) along first was behind cublasSgeam at
  //   16696 x 27572 (a random shape), 16392 x 27572, 16696 x 27576 and 6008 x 20004, and down first
  //   past it and faster there and at 8008 x 16004 and 12008 x 12004; along stayed faster at
  //   20008 x 17500, 24008 x 20012 and 30008 x 9004 (taller than wide), level at 4104 x 8004. With
  //   rows % 16 == 0 the orders were close, down a little ahead at most.
  // - Of the first kind, rows of tiles longer than ALONG_MAX_TILES (ALONG_SHORT_ROWS; not in the
  //   --sweep's 'long rows of tiles along first as before'): down first. On the H100 (commit
  //   0d82b80, the page has the files; one pass) along first was behind cublasSgeam at
  //   21008 x 80004, 24016 x 80004, 21008 x 70004 and 30000 x 50004 (1251, 1251, 1094 and 782
  //   tiles across), where down first was past it, and down first was faster at 20000 x 60004,
  //   20000 x 80004 and 16000 x 50004 too (782 to 1251); at 626 tiles along stayed far faster at
  //   24000 x 40004 and slower at 12000 x 40004 (both past cublasSgeam), so the line is between.
  // - Of the first kind, output rows on 64-byte boundaries but off 256-byte ones (rows % 64 == 16,
  //   32 or 48) with cols at least DOWN_OFF_256_SIXTEENTHS / 16 of rows and rows at least
  //   DOWN_OFF_256_MIN_ROWS (OFF_256_ROWS_DOWN; not in the --sweep's 'output rows off 256 along up
  //   to 4 columns as before'): down first. On the H100 (commits 0d82b80, 84da0a5, 16e0699 and
  //   c66d8ea, the page has the files; two passes at the last two) along first was behind
  //   cublasSgeam at 12000 x 44740, 12000 x 40012, 13520 x 25116, 7056 x 13140 and
  //   6000 x 20012, and down first was past it there and faster at ten more shapes of 5008 to
  //   28000 rows, 1.5 to 3.7 times as wide as tall (by the least at 5008 x 10004 and
  //   8016 x 16004); along stayed a little faster at 30000 x 40004 and 30000 x 30004, and faster
  //   at 36000 x 40004 (at most 1.33 times), so the line is between. In shorter columns along was
  //   faster at 2000 x 4004 and 3040 x 5004 and level at 4016 x 8004; at the line of 4096 rows
  //   down was a little slower at 4112 x 6172 and a little faster at 4112 x 8228, 5008 x 10004
  //   and 6000 x 9004, past cublasSgeam either way. With rows % 64 == 0 along first measured
  //   faster at 24000 x 40004, 24000 x 44740 and 32000 x 44740 and level at 16000 x 30004, so
  //   those keep ALONG_WIDE.
  // At least `sixteenths` / 16 as wide as tall.
  const auto wide_from = [&](std::int64_t sixteenths) { return cols * 16 >= rows * sixteenths; };
  const bool half_line_rows_down = HALF_LINE_ROWS_DOWN &&
                                   rows % FLOATS_PER_64_BYTES == FLOATS_PER_SECTOR &&
                                   wide_from(DOWN_WIDE_SIXTEENTHS);
  const bool long_row_down = ALONG_SHORT_ROWS && col_tiles > ALONG_MAX_TILES;
  const bool off_256_rows_down =
      OFF_256_ROWS_DOWN && rows % FLOATS_PER_64_BYTES == 0 && rows % FLOATS_PER_256_BYTES != 0 &&
      rows >= DOWN_OFF_256_MIN_ROWS && wide_from(DOWN_OFF_256_SIXTEENTHS);
  // The three rules above, each of which takes such a matrix down first instead.
  const bool down_instead = half_line_rows_down || long_row_down || off_256_rows_down;
  const bool split_input_pieces = ALONG_UP_TO != DOWN_FIRST && rows % FLOATS_PER_SECTOR == 0 &&
                                  cols % VEC == 0 && cols % FLOATS_PER_64_BYTES != 0 &&
                                  col_tiles <= ALONG_WIDE * row_tiles && !down_instead;
  // Very tall matrices with output rows on 64-byte boundaries: along first with the bulk stores.
  // With input rows on them too, at least VERY_TALL times as tall as wide (faster at 300000 x 2000,
  // 200000 x 1088, 500000 x 1280; level at 150000 x 3008; slower at 100000 x 4096, 70000 x 5056,
  // 35000 x 10000, on the H100); with realigned loads, at least TALL_REALIGNED (faster at
  // 70000 x 5001 and 140000 x 2501, slower at 30000 x 9001, on the H200).
  const bool very_tall = ALONG_UP_TO != DOWN_FIRST && rows % FLOATS_PER_64_BYTES == 0 &&
                         ((cols % FLOATS_PER_64_BYTES == 0 && rows >= VERY_TALL * cols) ||
                          (cols % VEC != 0 && rows >= TALL_REALIGNED * cols));
  // Wide fetches (used only by the kernels for aligned output rows; WIDE_FETCHES above says why).
  const bool wide = WIDE_FETCHES && cols % FLOATS_PER_256_BYTES != 0;
  // Down the columns first, in columns of at most WIDE_DOWN_MAX_ROWS; with aligned loads (cols % 4
  // == 0) up to WIDE_DOWN_ALIGNED_MAX_ROWS (WIDE_DOWN_TALLER; not in the --sweep's 'wide fetches
  // down 20000 rows at most as before'). On the H100 (commit 0d82b80, the page has the files; one
  // pass) wide fetches down first were faster than plain loads at 20008 x 20008, 24008 x 26312,
  // 25976 x 26308 to 26320, 25992 x 26312 and 24000 x 40004, and past cublasSgeam at each where
  // plain loads were level with it or behind it; level at 30004 x 30004 and 30008 x 30004, slower
  // at 36004 x 36004, 40008 x 40012, 46340 x 46340 and 50008 x 50004 (hence the line, between).
  // Whole sectors down the columns (rows % 8 == 4) take the same line, not measured with wide
  // fetches in columns of 20001 to 28000 rows (level at 30004 x 30004, just past the line).
  const bool wide_down =
      wide && (rows <= WIDE_DOWN_MAX_ROWS ||
               (WIDE_DOWN_TALLER && cols % VEC == 0 && rows <= WIDE_DOWN_ALIGNED_MAX_ROWS));
  // Aligned lines (kernel_lines) where both sides are off 16-byte boundaries:
  // - On any GPU where the tiles are at most one wave of 8 blocks per SM (launch_lines_one_wave).
  //   On the H200 and the H100 this was faster than the kernel taken before (the realigning kernel,
  //   or on the H200 at some shapes kernel_lines at 2 rows in flight) at 1025 x 1027, 1001 x 1001,
  //   1101 x 131, 511 x 4097, 2047 x 513 and 1999 x 1001, and at 1537 x 1539, 2049 x 2047 and
  //   2051 x 1103 faster on the H100 and faster or level on the H200; with a few tiles per SM,
  //   fewer blocks with all 8 rows in flight were faster still (see the page).
  //   Our reading: a grid of one wave has no later blocks to hide each block's wait for its loads.
  // - On any GPU where the matrix has one row of tiles (rows up to 67, the last 1 .. 3 absorbed):
  //   faster than the realigning kernel on the H100 at 65 x 1000003, 67 x 500001, 17 x 1000001,
  //   33 x 1000001, 41 x 1000003, 63 x 1000003, 65 x 1000001 and 67 x 2000001 (on the H200 such
  //   matrices are lines by the next rule; up to 40 rows they now take kernel_few_rows, above, and
  //   so do 65 to 67 rows off a multiple of 4 of a large wide matrix).
  //   Our reading: each block's output is then one contiguous run.
  // - Where the tiles go down the columns first and the matrix is not very tall (rows <
  //   TALL_REALIGNED x cols), on GPUs with at least LINES_MIN_GBPS_PER_SM of DRAM bandwidth per SM.
  //   On the H200 it was faster than the realigning kernel at 10001 x 10003, 4097 x 4097,
  //   12345 x 6789, 16383 x 16385, 8193 x 8191, 5001 x 70001 and 6001 x 6001, slower at
  //   70001 x 5001 (14 times as tall as wide; the line at 8 is TALL_REALIGNED's, not measured for
  //   this kernel); on the H100 far slower at all seven (see the page). Our reading: the realigning
  //   kernel's 5 blocks per SM keep enough requests in flight for the H100's DRAM, not for the
  //   H200's, which has about 44% more bandwidth per SM.
  //   On any GPU where the tiles are at most LINES_ANY_GPU_TILES_PER_SM per SM: on the H100 lines
  //   were faster than the realigning kernel (behind cublasSgeam at 3001 x 2003, 2501 x 2503 and
  //   4001 x 2003) at 3001 x 2003, 2003 x 3001, 2501 x 2503, 4001 x 2003, 2049 x 4097,
  //   3001 x 3001, 3501 x 2503 and 4001 x 2503 (11 to 19 tiles per SM), level at 5001 x 2003 and
  //   2003 x 5001 (19), a little faster at 6001 x 2003 and slower at 4001 x 3001 (22).
  // In the last two, thin last rows or columns (1 .. 3) go into the tiles beside them where that
  // side has at most FEW_TILES_ABSORBED tiles: their nearly empty tiles are then a large share of
  // the grid. On the H200 this was faster at 65 x 1000003, 67 x 500001, 129 x 1000003 and
  // 257 x 1000003, and a little slower at 4097 x 4097 and 16383 x 16385 (64 and 256 tiles).
  const bool both_sides_off = rows % VEC != 0 && cols % VEC != 0;
  const bool along_first = col_tiles <= ALONG_UP_TO || split_input_pieces;
  if (LINES != LINES_NEVER && both_sides_off) {
    const std::int64_t tiles_per_sm = line_tiles_per_sm(rows, cols);
    if (ONE_WAVE != ONE_WAVE_NEVER && tiles_per_sm <= LINE_BLOCKS_PER_SM) {
      if (ONE_WAVE == ONE_WAVE_EIGHT_BLOCKS)
        launch_lines_one_wave<true>(d_in, d_out, rows, cols, tiles_per_sm);
      else
        launch_lines_one_wave<false>(d_in, d_out, rows, cols, tiles_per_sm);
      return;
    }
    const bool one_row_of_tiles = rows <= TILE_DIM + BELOW;
    if (one_row_of_tiles ||
        (!along_first && !very_tall && rows < TALL_REALIGNED * cols &&
         (LINES == LINES_ALWAYS || current_gpu().dram_gbps_per_sm >= LINES_MIN_GBPS_PER_SM ||
          tiles_per_sm <= LINES_ANY_GPU_TILES_PER_SM))) {
      launch_lines_thin_edges<LINES_ABSORB>(d_in, d_out, rows, cols);
      return;
    }
  }
  // Every other output row 16 bytes past a sector boundary (rows % 8 == 4), no thin edges taken,
  // aligned loads (cols % 4 == 0), along the rows of tiles (SECTORS_ALONG; not in the --sweep's
  // 'output rows 16 bytes off a sector along as before'): kernel_whole_sectors along, where the
  // rows of tiles are short (along_first) or the matrix is at least SECTORS_ALONG_TALL times as
  // tall as wide with input rows off 64-byte boundaries. On the H100 (commit 61c32b3 with the
  // kernel as an EXP variant in three scopes, then commit 2235e24 with the rule; the page has the
  // files) the kernels before along were far slower than whole sectors along at 300004 x 300,
  // 100004 x 1000, 200004 x 500, 300004 x 320 and 100004 x 1008 (input rows on 64-byte boundaries),
  // 1000004 x 100 and 300004 x 68. Whole sectors down the columns (the rule below) were slower
  // than along at 70004 x 5000 and 70004 x 5004 (14 times as tall as wide), 60004 x 4500,
  // 50004 x 4004, 60004 x 5000 and 45004 x 5000 (9 to 13), a little faster at 40004 x 5000 (8) and
  // 4100 x 4100, and faster at 46340 x 46340, 16388 x 16388, 14788 x 16388 and 12004 x 12004.
  // Where cols % 16 == 0 or cols % 4 != 0 and the rows of tiles are long, the tiles stay down the
  // columns (not measured along).
  const bool whole_sectors = sector_half_rows && !absorb_aligned;
  if (SECTORS_ALONG && whole_sectors && cols % VEC == 0 &&
      (along_first || (cols % FLOATS_PER_64_BYTES != 0 && rows >= SECTORS_ALONG_TALL * cols))) {
    launch_whole_sectors(d_in, d_out, rows, cols, wide, /*down=*/false);
    return;
  }
  if (along_first)
    launch_tiles<false, EACH_SIDE, ALONG_BULK, SPLIT_CHUNKS, SHIFTED_BULK, ABSORB>(
        d_in, d_out, rows, cols, row_tiles, col_tiles, absorb_aligned, wide);
  else if (very_tall)
    launch_tiles<false, EACH_SIDE, true, SPLIT_CHUNKS, SHIFTED_BULK, ABSORB>(
        d_in, d_out, rows, cols, row_tiles, col_tiles, absorb_aligned, wide);
  // Down the columns of tiles, every other output row 16 bytes past a sector boundary (rows % 8
  // == 4), no thin edges taken (WHOLE_SECTORS; not in the --sweep's 'output rows 16 bytes off a
  // sector as before'): kernel_whole_sectors, each sector written whole by one block. On the H100
  // (commit 4b32700 with the kernel as an EXP variant; the page has the file) the kernels before
  // (bulk stores of whole tiles) were behind cublasSgeam at 14788 x 13792, 16388 x 16384,
  // 16388 x 16416 and 30004 x 13792, and several percent slower at 14788 x 13792 than at
  // 14792 x 13792 (rows % 8 == 0, commit 845f652). Whole sectors were faster at each of these four
  // and at 14788 x 13793, 12004 x 12004, 4100 x 4100, 70004 x 5000 and 46340 x 46340, a little
  // faster at 16388 x 16388, level at 16388 x 16385 and 8196 x 8193, and past cublasSgeam at all
  // twelve shapes. Whole tiles from registers without whole sectors (commit 7e1e210) were faster
  // than the bulk stores at most such shapes, slower where cols % 8 == 4 too (16388 x 16388,
  // 14788 x 16388, 8196 x 8196, 12004 x 12004).
  else if (whole_sectors)
    launch_whole_sectors(d_in, d_out, rows, cols, wide_down);
  else
    launch_tiles<true, EACH_SIDE, true, SPLIT_CHUNKS, SHIFTED_BULK, ABSORB>(
        d_in, d_out, rows, cols, row_tiles, col_tiles, absorb_aligned, wide_down);
}

inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  launch_variant<>(d_in, d_out, rows, cols);
}
//! [launch]

// The later rules of launch_variant, its bool parameters from FEW_WAVES_TILES on (each true by
// default): a --sweep variant of one of them turns that one off and leaves every other rule on.
enum later_rule : int {
  LATER_FEW_WAVES_TILES,
  LATER_FEW_ROWS_SMALL,
  LATER_LINES_ONE_SIDE,
  LATER_STRETCH,
  LATER_HALVES,
  LATER_FEW_ROWS_WIDE,
  LATER_FEW_ROWS_WIDE_SWIZZLED,
  LATER_WHOLE_SECTORS,
  LATER_FEW_COLS_SECTORS,
  LATER_SECTORS_ALONG,
  LATER_FEW_SECTORS_SHORT,
  LATER_FEW_COLS_TILED,
  LATER_HALF_LINE_ROWS_DOWN,
  LATER_ALONG_SHORT_ROWS,
  LATER_WIDE_DOWN_TALLER,
  LATER_OFF_256_ROWS_DOWN,
  LATER_THIN_COLS_SECTORS,
  LATER_RULES  // how many
};
template <int OFF, std::size_t... RULE>
constexpr auto launch_later_rules(std::index_sequence<RULE...>) {
  return launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                        LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE,
                        false, true, FEW_COLS_ODD_ROWS, true, FEW_WAVES_ONE_WAVE,
                        int(RULE) != OFF...>;
}
// launch_variant with the later rule OFF turned off.
template <int OFF>
constexpr auto launch_without = launch_later_rules<OFF>(std::make_index_sequence<LATER_RULES>{});

// The program's and the tests' variants: the default first, then the others the --sweep measures.
// No grid limit (a long walk takes several launches) and 64-bit offsets.
inline std::vector<common::matrix_variant> variants() {
  const common::matrix_limits any_shape{0, false, 64, false};
  return {
      {"", launch, any_shape},
      {"narrow kernel up to 8", launch_variant<8>, any_shape},
      {"no narrow kernel", launch_variant<0>, any_shape},
      {"tiles along rows first", launch_variant<NARROW_SIDE, ALONG_FIRST, true, true>, any_shape},
      {"tiles down columns first", launch_variant<NARROW_SIDE, DOWN_FIRST>, any_shape},
      {"short rows with bulk stores", launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, true>,
       any_shape},
      {"both sides realigned", launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, false>, any_shape},
      {"chunks split at tile edges",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, true>, any_shape},
      {"realigned rows from registers",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, false>, any_shape},
      {"last rows in tiles of their own",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, false>, any_shape},
      {"thin aligned edges in tiles of their own",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, false>,
       any_shape},
      {"no wide fetches",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, false>,
       any_shape},
      {"no aligned lines",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_NEVER>,
       any_shape},
      {"aligned lines on every GPU",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_ALWAYS>,
       any_shape},
      {"lines with thin tiles of their own",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, false>,
       any_shape},
      {"no one-wave lines",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_NEVER>,
       any_shape},
      {"one-wave lines at 8 blocks per SM",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_EIGHT_BLOCKS>,
       any_shape},
      {"short odd rows on tiles",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, 0, 0>,
       any_shape},
      {"no few-side kernels",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, 0>,
       any_shape},
      {"few-side kernels at aligned sides too",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, true>,
       any_shape},
      {"few columns up to 64 only",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      true, FEW_SIDE>,
       any_shape},
      {"few columns up to 96 only",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      true, FEW_FULL_PITCH_UP_TO>,
       any_shape},
      {"few columns past 64 as before",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      true, FEW_COLS_ODD_ROWS, false>,
       any_shape},
      {"few-side kernels in a few waves as before",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      true, FEW_COLS_ODD_ROWS, true, FEW_WAVES_NEVER>,
       any_shape},
      {"few-side runs of 64 in a few waves",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      true, FEW_COLS_ODD_ROWS, true, FEW_WAVES_RUNS_OF_64>,
       any_shape},
      {"few-side runs in a few waves without the tiles", launch_without<LATER_FEW_WAVES_TILES>,
       any_shape},
      {"small wide matrices of 41 to 112 rows on the tiles as before",
       launch_without<LATER_FEW_ROWS_SMALL>, any_shape},
      {"few-side runs of 128 only",
       launch_variant<NARROW_SIDE, SHORT_ROW_OF_TILES, true, false, false, true, true, true, true,
                      LINES_BY_BANDWIDTH, true, ONE_WAVE_BY_TILES, NARROW_ODD_ROWS, FEW_SIDE, false,
                      false>,
       any_shape},
      {"aligned lines only where both sides are off", launch_without<LATER_LINES_ONE_SIDE>,
       any_shape},
      {"no one-wave stretches", launch_without<LATER_STRETCH>, any_shape},
      {"input rows off at five blocks per SM", launch_without<LATER_HALVES>, any_shape},
      {"wide matrices of 65 to 113 rows off as before", launch_without<LATER_FEW_ROWS_WIDE>,
       any_shape},
      {"wide matrices of 114 to 127 rows off as before",
       launch_without<LATER_FEW_ROWS_WIDE_SWIZZLED>, any_shape},
      {"output rows 16 bytes off a sector as before", launch_without<LATER_WHOLE_SECTORS>,
       any_shape},
      {"output rows 16 bytes off a sector along as before", launch_without<LATER_SECTORS_ALONG>,
       any_shape},
      {"few columns without whole sectors", launch_without<LATER_FEW_COLS_SECTORS>, any_shape},
      {"few columns with whole sectors in runs of 128 as before",
       launch_without<LATER_FEW_SECTORS_SHORT>, any_shape},
      {"tall matrices of 116 to 127 columns on kernel_few_cols as before",
       launch_without<LATER_FEW_COLS_TILED>, any_shape},
      {"output rows 32 bytes off 64 along as before", launch_without<LATER_HALF_LINE_ROWS_DOWN>,
       any_shape},
      {"long rows of tiles along first as before", launch_without<LATER_ALONG_SHORT_ROWS>,
       any_shape},
      {"wide fetches down 20000 rows at most as before", launch_without<LATER_WIDE_DOWN_TALLER>,
       any_shape},
      {"output rows off 256 along up to 4 columns as before",
       launch_without<LATER_OFF_256_ROWS_DOWN>, any_shape},
      {"thin last columns absorbed off a sector as before", launch_without<LATER_THIN_COLS_SECTORS>,
       any_shape}};
}

}  // namespace transpose_any_shape
