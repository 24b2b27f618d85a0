// transpose_coalesced: the transpose through a shared tile (whitepaper "coalesced transpose").
// The one idea: read a tile along its rows into shared memory, then write it out along the rows
//   of the output, reading the tile down its columns; shared memory does not care about strides.
// Changes from the previous step (transpose_naive): a 32 x 32 tile in shared memory, a barrier,
//   and a second index pair for the output tile (block x and y swapped).
// What limits it: reading a column of the 32 x 32 tile hits one shared-memory bank 32 times.
// Run: build/bin/transpose_coalesced [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeCoalesced.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_coalesced {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;  // input column
  int y = blockIdx.y * TILE_DIM + threadIdx.y;  // input row
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // output row = input column
  // A warp writes 32 consecutive floats of output row y + j (coalesced), read down a tile column.
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

}  // namespace transpose_coalesced
