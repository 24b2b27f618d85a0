// transpose_coarse_grained: half a transpose: tiles go to their transposed place, untransposed.
// The one idea: split the transpose into its two parts and time each alone: this one moves each
//   tile to where the transpose puts it but writes its rows as they are (whitepaper section
//   "Decomposing Transpose"). Its output is not a transpose; it is checked against its own
//   reference.
// Changes from the previous step (transpose_no_bank_conflicts): the write reads tile[row][col]
//   instead of tile[col][row]; sides must be multiples of 32 (whole tiles only).
// What limits it: on the GTX 280 this half was the slow one (partition camping); see the results.
// Run: build/bin/transpose_coarse_grained [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeCoarseGrained.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "common/check.cuh"

namespace transpose_coarse_grained {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  int x = blockIdx.x * TILE_DIM + threadIdx.x;    // input column
  int y = blockIdx.y * TILE_DIM + threadIdx.y;    // input row
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads it.
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // output row = input column
  // The tile lands in its transposed place, but row j of the tile stays row j: not transposed.
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.y + j][threadIdx.x];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows % TILE_DIM != 0 || cols % TILE_DIM != 0)  // a partial tile has no untransposed place
    throw std::invalid_argument("transpose_coarse_grained: sides must be multiples of 32");
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const dim3 grid(unsigned(cols / TILE_DIM), unsigned(rows / TILE_DIM));
  kernel<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_coarse_grained
