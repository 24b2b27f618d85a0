// transpose_fine_grained: the other half: each tile transposed, but written where a copy puts it.
// The one idea: the second part of the decomposition: transpose inside the tile (through shared
//   memory) and write the tile to the copy's place, along rows. Its output is not a transpose; it
//   is checked against its own reference (each 32 x 32 tile transposed in place).
// Changes from the previous step (transpose_coarse_grained): the write goes to the copy's place
//   (rows x cols output) and reads tile[col][row].
// What limits it: DRAM, as the shared-memory copy: no global access is strided.
// Run: build/bin/transpose_fine_grained [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeFineGrained.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "common/check.cuh"

namespace transpose_fine_grained {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column, in and out
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;  // row, in and out
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();
  // The copy's place, along rows, with the tile's content transposed.
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[(y + j) * cols + x] = tile[threadIdx.x][threadIdx.y + j];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows % TILE_DIM != 0 || cols % TILE_DIM != 0)  // a partial tile cannot turn in its place
    throw std::invalid_argument("transpose_fine_grained: sides must be multiples of 32");
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const dim3 grid(unsigned(cols / TILE_DIM), unsigned(rows / TILE_DIM));
  kernel<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_fine_grained
