// kernel_lines: matrices whose two sides are both off 16-byte boundaries (and, in one wave, one
//   side off). The idea: every warp access is one aligned 128-byte line, one float per lane, so
//   nothing is realigned in registers: few instructions and 8 blocks per SM. Limit: one float per
//   access; faster than the realigning tiles only where the GPU needs many requests in flight per
//   SM (the H200) or the grid is about one wave (see plan.hpp's rules).
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [lines]
// Aligned lines: where both sides are off 16-byte boundaries, for matrices of at most a few waves
// of tiles or one row of tiles on any GPU, and larger ones on GPUs with much DRAM bandwidth per SM
// (plan.hpp says where). Every global access a warp makes is one aligned 128-byte line: a
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
template <bool ABSORB, int IN_FLIGHT = LINE_ROWS_IN_FLIGHT, int MIN_BLOCKS = LINE_BLOCKS_PER_SM>
__global__ void __launch_bounds__(BLOCK_THREADS, resident_blocks(MIN_BLOCKS))
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

}  // namespace transpose_any_shape
