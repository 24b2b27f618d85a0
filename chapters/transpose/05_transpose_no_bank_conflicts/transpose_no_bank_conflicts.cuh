// transpose_no_bank_conflicts: the coalesced transpose with its tile padded to 33 columns.
// The one idea: with rows of 33 floats, element [i][j] sits in bank (33 i + j) % 32 = (i + j) % 32,
//   so the 32 floats of a tile column fall in 32 different banks.
// Changes from the previous step (transpose_coalesced): TILE_DIM + 1 columns in the tile.
// What limits it: DRAM; both sides coalesced, shared memory conflict-free (see the ncu counters).
// Run: build/bin/transpose_no_bank_conflicts [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeNoBankConflicts.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_no_bank_conflicts {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each
constexpr int BANKS = 32;      // shared memory: 32 banks of 4 bytes on every GPU since Fermi

//! [bank]
// The bank that holds tile[row][col] in a tile whose rows are `width` floats long.
constexpr int bank_of(int row, int col, int width) { return (row * width + col) % BANKS; }
//! [bank]

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  int x = blockIdx.x * TILE_DIM + threadIdx.x;    // input column
  int y = blockIdx.y * TILE_DIM + threadIdx.y;    // input row
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

}  // namespace transpose_no_bank_conflicts
