// copy_col: the copy read and written down columns: the blog's lower bound (copyCol, source 003).
// The one idea: the worst access pattern a transpose could have on both sides at once: a warp's
//   32 threads take 32 consecutive rows of one column, so every load and every store is strided.
//   A transpose strides on one side only, so it should land between copy_col and copy.
// Changes from copy: threadIdx.x walks the rows and threadIdx.y the columns (x and y swapped).
// What limits it: 32 sectors of 32 bytes per warp request, of which 4 bytes each are used, unless
//   the caches keep the rest until the neighbouring columns come by.
// Run: build/bin/copy_col [--rows 16384 --cols 16384] [--quick]
// Source: the blog "kernel achievable bandwidth" (source 003), copyCol.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace copy_col {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int y = blockIdx.x * TILE_DIM + threadIdx.x;  // row, [0, rows) inside the matrix
  const int x = blockIdx.y * TILE_DIM + threadIdx.y;  // first of this thread's columns
  // A warp takes 32 consecutive rows of column x + j: 32 addresses 4 * cols bytes apart.
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (y < rows && x + j < cols) out[y * cols + x + j] = in[y * cols + x + j];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const dim3 grid(unsigned((rows + TILE_DIM - 1) / TILE_DIM),
                  unsigned((cols + TILE_DIM - 1) / TILE_DIM));  // x over rows, y over columns
  kernel<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace copy_col
