// copy: the whitepaper's "simple copy" (source 002), the classic reference for every transpose;
//   the book's bound is the cudaMemcpy yardstick, which this kernel does not reach (see its page).
// The one idea: a transpose must read and write every element once, as a copy does; a copy with the
//   same tiles and threads, reading and writing along rows, is what a transpose can hope to reach.
// Changes from the previous step: none; this is the first program of the part.
// What limits it: one load in flight per thread (each load is followed by its store), not DRAM.
// Run: build/bin/copy [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002); the course slides (source 001).
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace copy {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column, [0, cols) inside the matrix
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;  // first of this thread's rows
  // [0, TILE_DIM) in steps of BLOCK_ROWS: a warp reads and writes 32 consecutive floats of a row.
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[(y + j) * cols + x] = in[(y + j) * cols + x];
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

}  // namespace copy
