// transpose_naive_col_unroll4: the naive column transpose, 4 rows per thread, all loads first.
// The one idea: the same unrolling on the column order: 4 strided loads in flight per thread,
//   then 4 coalesced stores.
// Changes from transpose_naive_row_unroll4: threadIdx.x walks the input rows (= output columns);
//   a thread's 4 elements sit in one input column, BLOCK_COLS rows apart.
// What limits it: the strided reads, as far as the caches do not catch them.
// Run: build/bin/transpose_naive_col_unroll4 [--rows 16384 --cols 16384] [--quick]
// Source: the blog "kernel achievable bandwidth" (source 003), transformNaiveColUnroll.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_naive_col_unroll4 {

constexpr int BLOCK_COLS = 32;  // threads per block in x
constexpr int BLOCK_ROWS = 8;   // threads per block in y
constexpr int UNROLL = 4;       // elements per thread, BLOCK_COLS rows apart

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int y = blockIdx.x * BLOCK_COLS * UNROLL + threadIdx.x;  // first of 4 input rows
  const int x = blockIdx.y * BLOCK_ROWS + threadIdx.y;           // input column = output row
  float v[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)  // 4 strided loads in flight
    if (x < cols && y + k * BLOCK_COLS < rows) v[k] = in[(y + k * BLOCK_COLS) * cols + x];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k)  // 4 coalesced stores
    if (x < cols && y + k * BLOCK_COLS < rows) out[x * rows + y + k * BLOCK_COLS] = v[k];
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  constexpr int TILE_ROWS = BLOCK_COLS * UNROLL;
  const dim3 grid(unsigned((rows + TILE_ROWS - 1) / TILE_ROWS),
                  unsigned((cols + BLOCK_ROWS - 1) / BLOCK_ROWS));  // x over rows, y over columns
  kernel<<<grid, dim3(BLOCK_COLS, BLOCK_ROWS)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_naive_col_unroll4
