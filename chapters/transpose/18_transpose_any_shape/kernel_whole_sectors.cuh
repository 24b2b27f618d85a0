// kernel_whole_sectors: output rows every other one 16 bytes past a 32-byte sector (rows % 8 ==
//   4). The idea: no sector is written in two parts by two blocks: each block also stores the
//   first chunk of the tile below beside its own last one (any_tile's WHOLE_SECTORS), from
//   registers. Limit: no thin edges taken; every tile is at most 64 x 64.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {

// Aligned output rows (rows a multiple of 4) with every other one 16 bytes past a sector boundary
// (rows % 8 == 4): any_tile's WHOLE_SECTORS, so that no 32-byte sector is written in two parts by
// two blocks, stores from registers; no thin edges taken (every tile is at most 64 x 64).
// ALIGNED_LOADS: cols is a multiple of 4 too. WIDE_FETCH: load_chunk's. DOWN: neighbouring blocks
// go down the columns of tiles (x the row of tiles), else along the rows of tiles (x the column).
template <bool ALIGNED_LOADS, bool WIDE_FETCH, bool DOWN = true>
__global__ void __launch_bounds__(BLOCK_THREADS,
                                  resident_blocks(ALIGNED_LOADS ? MIN_BLOCKS_PER_SM
                                                                : MIN_BLOCKS_PER_SM_REALIGNED))
    kernel_whole_sectors(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                         std::int64_t cols, std::int64_t first) {
  __shared__ __align__(128) float tile[(TILE_DIM + VEC) * TILE_DIM];
  const std::int64_t col0 = (DOWN ? first + blockIdx.y : blockIdx.x) * TILE_DIM;
  const std::int64_t row0 = std::int64_t(DOWN ? blockIdx.x : first + blockIdx.y) * TILE_DIM;
  const int height = tile_extent(rows, row0), width = tile_extent(cols, col0);
  any_tile<!ALIGNED_LOADS, false, false, false, false, WIDE_FETCH, LOADS, true>(
      in, out, rows, cols, row0, col0, height, width, tile);
}

}  // namespace transpose_any_shape
