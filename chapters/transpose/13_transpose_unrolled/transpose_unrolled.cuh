// transpose_unrolled: the conflict-free transpose with #pragma unroll on both loops (source 004).
// The one idea: the report's last step: ask the compiler to unroll the two 4-trip loops, so that
//   the 4 loads (and the 4 stores) of a thread are issued back to back without loop overhead.
// Changes from transpose_no_bank_conflicts: two `#pragma unroll` lines. nvcc already unrolls
//   loops with a constant trip count at -O3, so the machine code may not change at all: the
//   results say whether it does.
// What limits it: as transpose_no_bank_conflicts: DRAM, with one barrier per 32 x 32 tile.
// Run: build/bin/transpose_unrolled [--rows 16384 --cols 16384] [--quick]
// Source: the report on a GTX 850M and a K80 (source 004), "Loop unrolled GPU".
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace transpose_unrolled {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the extra column shifts each row by one bank
  int x = blockIdx.x * TILE_DIM + threadIdx.x;    // input column
  int y = blockIdx.y * TILE_DIM + threadIdx.y;    // input row
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // output row = input column
  // A warp writes 32 consecutive floats of output row y + j (coalesced), read down a tile column.
#pragma unroll
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

}  // namespace transpose_unrolled
