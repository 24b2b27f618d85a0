// transpose_naive_col: the naive transpose the other way round: strided reads, coalesced writes.
// The one idea: a transpose must stride on one side; the blog (source 003) measured that striding
//   on the read side is faster: a strided load brings a whole 32-byte sector into L1/L2, where the
//   next columns find it, while a strided store has nothing to reuse.
// Changes from transpose_naive: threadIdx.x walks the input rows (= output columns), so a warp
//   writes 32 consecutive floats of an output row and reads down an input column.
// What limits it: the strided reads, as far as the caches do not catch them.
// Run: build/bin/transpose_naive_col [--rows 16384 --cols 16384] [--quick]
// Source: the blog "kernel achievable bandwidth" (source 003), transformNaiveCol.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_naive_col {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int y = blockIdx.x * TILE_DIM + threadIdx.x;  // input row = output column
  const int x = blockIdx.y * TILE_DIM + threadIdx.y;  // input column = output row
  // A warp reads down input column x + j (strided) and writes 32 consecutive floats of output
  // row x + j (coalesced).
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (y < rows && x + j < cols) out[(x + j) * rows + y] = in[y * cols + (x + j)];
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

}  // namespace transpose_naive_col
