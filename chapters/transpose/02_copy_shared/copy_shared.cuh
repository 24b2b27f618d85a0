// copy_shared: the copy through a shared tile and a barrier (whitepaper "shared memory copy").
// The one idea: measure what staging a tile in shared memory and waiting at __syncthreads() costs
//   by itself, before the transpose needs both.
// Changes from the previous step: elements go global -> tile -> global, with a barrier between.
// What limits it: DRAM bandwidth; the barrier makes each block wait for its slowest load.
// Run: build/bin/copy_shared [--rows 16384 --cols 16384] [--quick]
// Source: "Optimizing Matrix Transpose in CUDA" (source 002), copySharedMem.
#pragma once

#include <cstdint>

#include "common/check.cuh"

namespace copy_shared {

constexpr int TILE_DIM = 32;   // a block moves one TILE_DIM x TILE_DIM tile
constexpr int BLOCK_ROWS = 8;  // a block is TILE_DIM x BLOCK_ROWS threads: 4 elements each

//! [kernel]
__global__ void kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column, [0, cols) inside the matrix
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;  // first of this thread's rows
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  // Not needed here (each thread reads back only what it wrote): kept to measure its cost.
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[(y + j) * cols + x] = tile[threadIdx.y + j][threadIdx.x];
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

}  // namespace copy_shared
