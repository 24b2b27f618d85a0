// transpose_diagonal: the conflict-free transpose with its blocks reordered along diagonals.
// The one idea: blocks start in blockIdx order; read blockIdx as (position along a diagonal,
//   diagonal) so that blocks running at the same time touch tiles spread over all columns of
//   the output, not a few: the GTX 280's cure for partition camping (8 DRAM partitions of 256 B).
// Changes from the previous step (transpose_no_bank_conflicts in the whitepaper's order):
//   diagonal_to_cartesian() picks the tile; square grids use the cheap formula, others the
//   general one.
// What limits it: DRAM; since Fermi addresses are hashed over partitions, so the reordering should
//   no longer matter: the results say whether it does on HBM.
// Run: build/bin/transpose_diagonal [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeDiagonal.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_diagonal {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [mapping]
// Block (bx, by) of a gx x gy grid, read in diagonal coordinates, handles tile (tile_x, tile_y).
// A bijection of the grid onto itself, for square and non-square grids alike.
__host__ __device__ inline void diagonal_to_cartesian(unsigned bx, unsigned by, unsigned gx,
                                                      unsigned gy, unsigned& tile_x,
                                                      unsigned& tile_y) {
  if (gx == gy) {  // square: diagonal by, position bx along it
    tile_y = bx;
    tile_x = (bx + by) % gx;
  } else {  // general: number the blocks in launch order, walk the diagonals of a gx x gy grid
    const unsigned bid = bx + gx * by;
    tile_y = bid % gy;
    tile_x = (bid / gy + tile_y) % gx;
  }
}
//! [mapping]

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  unsigned tile_x, tile_y;
  diagonal_to_cartesian(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, tile_x, tile_y);
  int x = tile_x * TILE_DIM + threadIdx.x;  // input column
  int y = tile_y * TILE_DIM + threadIdx.y;  // input row
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();
  x = tile_y * TILE_DIM + threadIdx.x;  // output column = input row
  y = tile_x * TILE_DIM + threadIdx.y;  // output row = input column
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const dim3 grid(unsigned((cols + TILE_DIM - 1) / TILE_DIM),
                  unsigned((rows + TILE_DIM - 1) / TILE_DIM));  // round up: edge tiles are partial
  kernel<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_diagonal
