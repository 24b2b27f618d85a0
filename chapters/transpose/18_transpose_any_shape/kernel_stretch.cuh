// kernel_stretch_rows and kernel_stretch_cols: about one wave of blocks of few rows (20 to 128)
//   or few columns (20 to 64). The idea: fit 8 blocks per SM (32 registers, at most 64 x 64
//   floats of shared memory): the contiguous side moves with 16-byte accesses in order, the other
//   one float per access, 32 floats of one long row per warp. Limit: past one wave the few-side
//   kernels are faster at most shapes.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [stretch]
// A small matrix of few rows or few columns whose blocks are about one wave (plan.hpp has
// the rule). The kernels there before were behind cublasSgeam, whose kernel fits 8 blocks per SM
// (Nsight Compute): the few-side kernels and the tiles fit 5 or 6, and aligned lines, at 8, issue
// far more instructions. These two fit 8: 32 registers and at most 64 x 64 floats of shared memory
// per block. The contiguous matrix (the output of few rows, the input of few columns) is, for each
// block, one stretch of memory, moved with 16-byte accesses in order; on the other matrix each
// load or store moves one float, a warp 32 floats of one long row, at any alignment: nothing to
// realign. (kernel_stretch_cols's guarded 16-byte loads are kernel_few_cols's, written again: a
// shared helper changed both kernels' compiled code, measured as they are.)
constexpr int STRETCH_FLOATS = TILE_DIM * TILE_DIM;  // a block's floats, at most
constexpr int WARPS = BLOCK_THREADS / 32;
// kernel_stretch_rows: RUN columns of every row per block (64 up to 64 rows, 32 up to 128).
template <int RUN>
__global__ void __launch_bounds__(BLOCK_THREADS, resident_blocks(STRETCH_BLOCKS_PER_SM))
    kernel_stretch_rows(const float* __restrict__ in, float* __restrict__ out, int rows,
                        std::int64_t cols) {
  constexpr int MAX_ROWS = STRETCH_FLOATS / RUN;
  __shared__ float piece[MAX_ROWS][RUN + 1];  // padded: the store phase's reads hit every bank
  const std::int64_t c0 = std::int64_t(blockIdx.x) * RUN;
  const int width = cols - c0 < RUN ? int(cols - c0) : RUN;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Load phase: warp w reads rows w, w + 8, w + 16, ..., 32 floats of a row per load, every load
  // of the thread issued before any of its floats is needed.
  const float* const from = in + std::int64_t(warp) * cols + c0 + lane;
#pragma unroll
  for (int i = 0; i < MAX_ROWS / WARPS; ++i) {
    const int r = warp + WARPS * i;
#pragma unroll
    for (int j = 0; j < RUN / 32; ++j)
      if (r < rows && lane + 32 * j < width)
        piece[r][lane + 32 * j] = from[std::int64_t(WARPS * i) * cols + 32 * j];
  }
  __syncthreads();
  // Store phase: output rows c0 .. c0 + width as one stretch, 4 floats per thread per pass
  // (16-byte aligned: c0 * rows is a multiple of 4 when RUN is).
  const int count = width * rows;
  float* const to = out + c0 * rows;
  for (int k = VEC * threadIdx.x; k < count; k += VEC * BLOCK_THREADS) {
    int c = k / rows, r = k - c * rows;
    float v[VEC];
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      v[i] = k + i < count ? piece[r][c] : 0.0f;
      if (++r == rows) r = 0, ++c;
    }
    if (k + VEC <= count) {
      *reinterpret_cast<float4*>(to + k) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (k + i < count) to[k + i] = v[i];
    }
  }
}
// kernel_stretch_cols: 64 rows per block, all of at most 64 columns: the mirror image.
__global__ void __launch_bounds__(BLOCK_THREADS, resident_blocks(STRETCH_BLOCKS_PER_SM))
    kernel_stretch_cols(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                        int cols) {
  __shared__ float piece[TILE_DIM][TILE_DIM + 1];  // [column][row]
  const std::int64_t r0 = std::int64_t(blockIdx.x) * TILE_DIM;
  const int height = tile_extent(rows, r0);
  const int count = height * cols;
  // Load phase: input rows r0 .. r0 + height as one stretch, 4 floats per thread per pass, every
  // pass's load issued first (16-byte aligned: r0 is a multiple of 4).
  const float* const from = in + r0 * cols;
  constexpr int IN_FLIGHT = STRETCH_FLOATS / (VEC * BLOCK_THREADS);
  float4 q[IN_FLIGHT];
#pragma unroll
  for (int p = 0; p < IN_FLIGHT; ++p) {
    const int k = VEC * (threadIdx.x + p * BLOCK_THREADS);
    if (k + VEC <= count) {
      q[p] = __ldg(reinterpret_cast<const float4*>(from + k));
    } else {  // the block's last floats, or none
      q[p].x = k < count ? __ldg(from + k) : 0.0f;
      q[p].y = k + 1 < count ? __ldg(from + k + 1) : 0.0f;
      q[p].z = k + 2 < count ? __ldg(from + k + 2) : 0.0f;
      q[p].w = 0.0f;
    }
  }
#pragma unroll
  for (int p = 0; p < IN_FLIGHT; ++p) {
    const int k = VEC * (threadIdx.x + p * BLOCK_THREADS);
    int r = k / cols, c = k - r * cols;
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      if (k + i < count) piece[c][r] = float_of(q[p], i);
      if (++c == cols) c = 0, ++r;
    }
  }
  __syncthreads();
  // Store phase: warp w writes output rows w, w + 8, ..., 32 floats of a row per store.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float* const to = out + std::int64_t(warp) * rows + r0 + lane;
#pragma unroll
  for (int i = 0; i < TILE_DIM / WARPS; ++i) {
    const int c = warp + WARPS * i;
#pragma unroll
    for (int j = 0; j < TILE_DIM / 32; ++j)
      if (c < cols && lane + 32 * j < height)
        to[std::int64_t(WARPS * i) * rows + 32 * j] = piece[c][lane + 32 * j];
  }
}
//! [stretch]

}  // namespace transpose_any_shape
