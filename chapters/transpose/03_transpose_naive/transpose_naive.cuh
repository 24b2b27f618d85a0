// transpose_naive: the copy with its output index transposed (whitepaper "naive transpose").
// The one idea: out[x][y] = in[y][x] with the copy's tiles and threads; reads stay along rows.
// Changes from the previous step (copy): the write goes to row x, column y of the cols x rows
//   output, so a warp's 32 writes land in 32 different rows, 4 * rows bytes apart.
// What limits it: the strided writes: each 4-byte store needs its own 32-byte sector.
// Run: build/bin/transpose_naive [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), transposeNaive; slides (source 001).
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_naive {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;  // input column = output row
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;  // input row = output column
  // A warp reads 32 consecutive floats of input row y + j (coalesced) and writes them down
  // column y + j of the output: 32 rows apart (strided).
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = in[(y + j) * cols + x];
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

}  // namespace transpose_naive
