// transpose_tile64: a 64 x 64 tile padded to 65 columns, transposed on its way into shared memory.
// The one idea: the report of source 000: twice the tile side (64 floats = 256 bytes per row
//   segment, 8 elements per thread) and the transposition done when storing into the tile, so
//   that the tile is read back along its rows.
// Changes from transpose_unrolled: TILE_DIM 64 (blocks of 64 x 8 threads), the tile is written
//   down its columns (tile[x][y]) and read along its rows; the padding keeps the column writes
//   conflict-free.
// What limits it: DRAM; 512 threads and 16.6 KB of shared memory per block.
// Run: build/bin/transpose_tile64 [--rows 16384 --cols 16384] [--quick]
// Source: the report on reduction and transpose (source 000), "optimized" transpose.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_tile64 {

constexpr int TILE_DIM = 64;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 8 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  int x = blockIdx.x * TILE_DIM + threadIdx.x;    // input column
  int y = blockIdx.y * TILE_DIM + threadIdx.y;    // input row
  // Transposed on the way in: a warp writes 32 rows of one tile column (banks x + y + j, all
  // different thanks to the padding).
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.x][threadIdx.y + j] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads a row of it.
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // output row = input column
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.y + j][threadIdx.x];
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

}  // namespace transpose_tile64
