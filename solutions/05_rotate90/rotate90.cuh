// Exercise 05, rotate90: rotate a rows x cols float matrix by 90 degrees clockwise, any shape.
// Practises Parts II and V: a tiled transpose whose writes are mirrored, as a reversal's are.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace rotate90 {

// >>> YOUR CODE: device code
constexpr int TILE = 32;
constexpr int BLOCK_ROWS = 8;  // 32 x 8 threads, each moving 4 elements of the tile
constexpr std::int64_t MAX_GRID_Y = 65535;

// The tiles are laid out on the OUTPUT (cols x rows): block (bx, by) writes output columns
// [32 bx, 32 bx + 32) of output rows [32 by, ...), striding by gridDim.y bands. Output column j
// holds input row rows - 1 - j, so the tile's input rows run backwards from rows - 1 - 32 bx.
// The mirror changes only which input rows a tile takes: each warp still reads 32 consecutive
// floats of one input row and writes 32 consecutive floats of one output row, as a transpose's
// warps do, so both sides coalesce. The padding (33 floats a row) makes the column reads of the
// tile hit 32 distinct banks.
__global__ void __launch_bounds__(TILE* BLOCK_ROWS)
    rotate_tiles(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                 std::int64_t cols) {
  __shared__ float tile[TILE][TILE + 1];  // tile[output column in tile][output row in tile]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t j0 = std::int64_t(blockIdx.x) * TILE;  // first output column of the tile
  const std::int64_t out_col = j0 + tx;
  for (std::int64_t c0 = std::int64_t(blockIdx.y) * TILE; c0 < cols;
       c0 += std::int64_t(gridDim.y) * TILE) {
    // Read: warp row k takes input row rows - 1 - (j0 + ty + k), columns c0 + tx.
    const std::int64_t in_col = c0 + tx;
#pragma unroll
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
      const std::int64_t j = j0 + ty + k;
      if (j < rows && in_col < cols) tile[ty + k][tx] = in[(rows - 1 - j) * cols + in_col];
    }
    __syncthreads();
    // Write: warp row k writes output row c0 + ty + k, columns j0 + tx.
#pragma unroll
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
      const std::int64_t c = c0 + ty + k;
      if (c < cols && out_col < rows) out[c * rows + out_col] = tile[tx][ty + k];
    }
    __syncthreads();  // the tile is read before the next band overwrites it
  }
}
// <<< YOUR CODE

// d_in holds rows x cols floats and d_out cols x rows, both row-major, on the device; rows and
// cols are in [0, 2^31 - 1] and rows * cols fits the device. Every kernel on stream 0.
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  // >>> YOUR CODE: launch
  if (rows == 0 || cols == 0) return;  // nothing to move; a grid of zero blocks is an error
  const std::int64_t column_bands = (rows + TILE - 1) / TILE;  // output columns: at most 2^26
  const std::int64_t row_bands = (cols + TILE - 1) / TILE;     // output rows
  const dim3 grid(unsigned(column_bands),
                  unsigned(row_bands < MAX_GRID_Y ? row_bands : MAX_GRID_Y));
  rotate_tiles<<<grid, dim3(TILE, BLOCK_ROWS)>>>(d_in, d_out, rows, cols);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace rotate90
