// kernel_loads_in_halves: only the input rows off 16-byte boundaries (rows a multiple of 4, cols
//   not), in 1 to 32 tiles per SM. The idea: load each thread's tile rows two at a time and store
//   from registers, in 32 registers and 16 KB: 8 blocks per SM where the realigning kernel fits
//   5. Limit: one launch of at most 65535 columns of tiles; past 32 tiles per SM it is level.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [halves]
// Only the input rows off 16-byte boundaries (rows a multiple of 4, cols not), in a small matrix:
// kernel's realigning form for such matrices holds the two chunks of all four of its tile rows in
// flight (48 registers) and sends whole tiles by bulk copies from a second buffer (32 KB of shared
// memory), five blocks per SM. Here each thread loads its tile rows in two halves of two rows
// (GROUP in load_tile) and stores from registers, in 32 registers and 16 KB: eight blocks per SM,
// which holds a grid of 8 tiles per SM in one wave where five blocks need two. One block per tile,
// down the columns of tiles first (blockIdx.x); wide fetches as in the realigning form.
__global__ void __launch_bounds__(BLOCK_THREADS, resident_blocks(HALVES_BLOCKS_PER_SM))
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

}  // namespace transpose_any_shape
