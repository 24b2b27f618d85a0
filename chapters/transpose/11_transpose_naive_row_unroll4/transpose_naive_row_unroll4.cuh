// transpose_naive_row_unroll4: the naive row transpose, 4 columns per thread, all loads first.
// The one idea: unrolling (source 003): each thread issues its 4 independent loads before its
//   first store, so 4 requests per thread are in flight instead of one at a time.
// Changes from transpose_naive_col: back to coalesced reads and strided writes (the row order);
//   a block is 32 x 8 threads over a 128 x 8 tile: a thread's 4 elements sit in one row,
//   BLOCK_COLS apart, and the loads and stores are split into two loops.
// What limits it: the strided writes, as in transpose_naive.
// Run: build/bin/transpose_naive_row_unroll4 [--rows 16384 --cols 16384] [--quick]
// Source: the blog "kernel achievable bandwidth" (source 003), transformNaiveRowUnroll.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_naive_row_unroll4 {

constexpr int BLOCK_COLS = 32;  // threads per block in x
constexpr int BLOCK_ROWS = 8;   // threads per block in y
constexpr int UNROLL = 4;       // elements per thread, BLOCK_COLS columns apart

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * BLOCK_COLS * UNROLL + threadIdx.x;  // first of 4 input columns
  const int y = blockIdx.y * BLOCK_ROWS + threadIdx.y;           // input row = output column
  float v[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)  // 4 coalesced loads in flight
    if (y < rows && x + k * BLOCK_COLS < cols) v[k] = in[y * cols + x + k * BLOCK_COLS];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)  // 4 strided stores
    if (y < rows && x + k * BLOCK_COLS < cols) out[(x + k * BLOCK_COLS) * rows + y] = v[k];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  constexpr int TILE_COLS = BLOCK_COLS * UNROLL;
  const dim3 grid(unsigned((cols + TILE_COLS - 1) / TILE_COLS),
                  unsigned((rows + BLOCK_ROWS - 1) / BLOCK_ROWS));
  kernel<<<grid, dim3(BLOCK_COLS, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_naive_row_unroll4
