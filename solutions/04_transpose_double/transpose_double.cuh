// Exercise 04, transpose_double: out = in^T for a rows x cols matrix of doubles, any shape.
// Practises Part II: the transpose through a padded shared-memory tile, with 8-byte elements that
// span two of shared memory's 4-byte banks.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace transpose_double {

// >>> YOUR CODE: device code
constexpr int TILE = 32;          // a tile row is 32 doubles: two full 128-byte lines
constexpr int BLOCK_ROWS = 8;     // 32 x 8 threads, each moving 4 elements of the tile
constexpr int PADDED = TILE + 1;  // one double (two banks) of padding per tile row
constexpr std::int64_t MAX_GRID_Y = 65535;

// Block (bx, by) transposes the tiles of column band bx, starting at row band by and striding by
// gridDim.y bands (gridDim.y is capped at 65535; a tall matrix has more row bands).
//
// The banks: tile[i][j] starts at 4-byte word 2 * (i * PADDED + j), so in bank
// (2 * i * 33 + 2 * j) % 32 = (2 * i + 2 * j) % 32, and occupies that bank and the next. A warp's
// 32 doubles are 256 bytes: two 128-byte wavefronts at best. Reading a tile column (i = lane),
// any 16 consecutive lanes start at banks 2 * lane + const: 16 distinct pairs covering all 32
// banks, so two wavefronts serve the warp. Without the padding every lane would start at bank
// 2 * j: one bank pair for the whole warp, a conflict of 16 ways or more.
__global__ void __launch_bounds__(TILE* BLOCK_ROWS)
    transpose_tiles(const double* __restrict__ in, double* __restrict__ out, std::int64_t rows,
                    std::int64_t cols) {
  __shared__ double tile[TILE][PADDED];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t c0 = std::int64_t(blockIdx.x) * TILE;  // this block's input columns
  const std::int64_t in_col = c0 + tx;
  for (std::int64_t r0 = std::int64_t(blockIdx.y) * TILE; r0 < rows;
       r0 += std::int64_t(gridDim.y) * TILE) {
    // Read: each warp takes one tile row, 32 consecutive doubles of an input row.
#pragma unroll
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
      const std::int64_t r = r0 + ty + k;
      if (r < rows && in_col < cols) tile[ty + k][tx] = in[r * cols + in_col];
    }
    __syncthreads();
    // Write: each warp writes 32 consecutive doubles of an output row (an input column).
    const std::int64_t out_col = r0 + tx;
#pragma unroll
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
      const std::int64_t c = c0 + ty + k;  // the output row
      if (c < cols && out_col < rows) out[c * rows + out_col] = tile[tx][ty + k];
    }
    __syncthreads();  // the tile is read before the next band overwrites it
  }
}
// <<< YOUR CODE

// d_in holds rows x cols doubles and d_out cols x rows, both row-major, on the device; rows and
// cols are in [0, 2^31 - 1] and rows * cols fits the device. Every kernel on stream 0.
inline void launch(const double* d_in, double* d_out, std::int64_t rows, std::int64_t cols) {
  // >>> YOUR CODE: launch
  if (rows == 0 || cols == 0) return;  // nothing to move; a grid of zero blocks is an error
  const std::int64_t column_bands = (cols + TILE - 1) / TILE;  // at most 2^26: fits gridDim.x
  const std::int64_t row_bands = (rows + TILE - 1) / TILE;
  const dim3 grid(unsigned(column_bands),
                  unsigned(row_bands < MAX_GRID_Y ? row_bands : MAX_GRID_Y));
  transpose_tiles<<<grid, dim3(TILE, BLOCK_ROWS)>>>(d_in, d_out, rows, cols);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace transpose_double
