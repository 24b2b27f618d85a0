// transpose_block_sweep: the naive column transpose at six block shapes (the blog's table).
// The one idea: with one element per thread, the block shape decides how many rows a warp's
//   strided reads cover and how many blocks fit on an SM; the blog (source 003) measured
//   32x32, 32x16, 32x8, 64x16, 64x8 and 128x8 on a GTX 1050 Ti and found 32x16 best.
// Changes from transpose_naive_col: one element per thread (no loop) and the block shape is a
//   launch parameter; the program measures all six shapes with --sweep.
// What limits it: the strided reads, and the per-thread overhead of one element per thread.
// Run: build/bin/transpose_block_sweep --sweep [--rows 4096 --cols 4096]
// Source: the blog "kernel achievable bandwidth" (source 003), block-size table.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_block_sweep {

struct block_shape {
  int x, y;
};
// The blog's table, in its order; the first is the program's default without --sweep.
constexpr block_shape SHAPES[] = {{32, 32}, {32, 16}, {32, 8}, {64, 16}, {64, 8}, {128, 8}};

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;             // input row = output column
  const int x = blockIdx.y * blockDim.y + threadIdx.y;             // input column = output row
  if (y < rows && x < cols) out[x * rows + y] = in[y * cols + x];  // strided read, coalesced write
}
//! [kernel]

//! [launch]
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                   block_shape block = SHAPES[0]) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const dim3 grid(unsigned((rows + block.x - 1) / block.x),
                  unsigned((cols + block.y - 1) / block.y));  // x over rows, y over columns
  kernel<<<grid, dim3(block.x, block.y)>>>(d_in, d_out, int(rows), int(cols));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace transpose_block_sweep
