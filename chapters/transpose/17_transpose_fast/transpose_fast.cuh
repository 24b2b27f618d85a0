// transpose_fast: a transpose for today's GPUs, any shape, aiming at cublasSgeam's speed.
// The one idea: more bytes per access and per block, and stores that do not linger in L2: 16-byte
//   loads and stores wherever the shape allows them (cols and rows multiples of 4), a 64 x 64 tile
//   per 256-thread block (16 floats per thread), streaming (evict-first) stores, and a shared tile
//   without padding whose 16-byte slots are XOR-swizzled so that neither the row-wise stores nor
//   the column-wise loads conflict. A load pipeline (the next tile's loads issued while the
//   current one is stored) is a --sweep variant: it helps only with plain stores.
// Changes from the previous steps (transpose_no_bank_conflicts): float4 accesses, a bigger tile,
//   a swizzle instead of padding (padding breaks 16-byte alignment), 64-bit offsets, and a loop
//   over rows of tiles (no shape refused for grid limits).
// What limits it: measured, not yet understood: it matches cuBLAS but stays below cudaMemcpy
//   (see its page); the tile's scattered output rows are the prime suspect.
// Run: build/bin/transpose_fast [--rows 16384 --cols 16384] [--sweep] [--quick]
// Source: none of the five; the whitepaper's closing remark (tile size, elements per thread)
//   (source 002) points this way.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/check.cuh"

namespace transpose_fast {

constexpr int BLOCK_THREADS = 256;
constexpr int TILE_DIM = 64;  // the default tile: TILE_DIM x TILE_DIM floats per block
constexpr int VEC = 4;        // floats per 16-byte access
constexpr int MAX_GRID_Y = 65535;

//! [swizzle]
// The tile holds input rows as TILE/4 slots of 4 floats. Slot s of row r is stored at slot
// s ^ ((r / 4) % 8): a row keeps its slots in 8-slot groups (row-wise float4 stores stay
// conflict-free), while the 4 x 8 floats a warp reads down the tile (4 columns of 8 row quads)
// land in 32 different banks.
__host__ __device__ constexpr int swizzled_slot(int row, int slot) {
  return slot ^ ((row / VEC) % 8);
}
// The float offset of tile element (row, col) in a tile `tile` floats wide.
__host__ __device__ constexpr int tile_offset(int row, int col, int tile) {
  return row * tile + VEC * swizzled_slot(row, col / VEC) + col % VEC;
}
//! [swizzle]

constexpr int MIN_BLOCKS_PER_SM = 3;  // registers <= 85: the fast path needs 74 without spilling
constexpr int TILES_PER_BLOCK = 4;    // the most rows of tiles a block walks through (pipeline)
constexpr int MIN_WAVES = 4;  // but never so few blocks that the GPU holds them in < 4 waves

//! [kernel]
template <int TILE, bool VECTOR, bool PIPELINE, bool STREAMING, bool STREAM_LOADS,
          int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK_THREADS, MIN_BLOCKS)
    kernel(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
           std::int64_t cols) {
  constexpr int SLOTS = TILE / VEC;                  // float4 slots per tile row
  constexpr int LOAD_ROWS = BLOCK_THREADS / SLOTS;   // tile rows loaded per pass
  constexpr int LOADS = TILE / LOAD_ROWS;            // float4 loads per thread per tile
  constexpr int SLOT_GROUPS = SLOTS / 8;             // 8-slot (128-byte) groups per out row
  constexpr int STORE_ROWS = 4 * (8 / SLOT_GROUPS);  // output rows written per pass
  static_assert(SLOTS % 8 == 0 && TILE % LOAD_ROWS == 0 && TILE % STORE_ROWS == 0);
  __shared__ __align__(16) float tile[TILE * TILE];

  const int t = threadIdx.x;  // [0, BLOCK_THREADS)
  // Load phase: slot [0, SLOTS) of tile rows load_row + k * LOAD_ROWS, k in [0, LOADS).
  const int load_slot = t % SLOTS, load_row = t / SLOTS;
  // Store phase: a warp writes 4 output rows x 8 float4 (128 bytes each, coalesced).
  const int warp = t / 32, lane = t % 32;
  const int out_quad = (warp % SLOT_GROUPS) * 8 + lane % 8;  // [0, SLOTS): input rows 4q .. 4q+3
  const int out_row = (warp / SLOT_GROUPS) * 4 + lane / 8;   // [0, STORE_ROWS)

  const std::int64_t col0 = std::int64_t(blockIdx.x) * TILE;  // first input column of the tile
  const std::int64_t row_tiles = (rows + TILE - 1) / TILE;
  // A whole tile inside the matrix, with 16-byte accesses legal: the fast path.
  auto is_full = [&](std::int64_t tile_row) {
    return VECTOR && tile_row < row_tiles && (tile_row + 1) * TILE <= rows && col0 + TILE <= cols;
  };
  float4 v[LOADS];  // this thread's share of the next tile, in flight in registers
  auto load_registers = [&](std::int64_t row0) {
    const float* src = in + (row0 + load_row) * cols + col0 + VEC * load_slot;
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
      const float4* from = reinterpret_cast<const float4*>(src + k * LOAD_ROWS * cols);
      v[k] = STREAM_LOADS ? __ldcs(from) : *from;  // read once: evict first
    }
  };

  std::int64_t tile_row = blockIdx.y;  // rows of tiles blockIdx.y, + gridDim.y, ...
  bool full = is_full(tile_row);
  if (full) load_registers(tile_row * TILE);
  for (; tile_row < row_tiles; tile_row += gridDim.y) {
    const std::int64_t row0 = tile_row * TILE;  // first input row of the tile
    if (full) {
#pragma unroll
      for (int k = 0; k < LOADS; ++k)
        *reinterpret_cast<float4*>(
            &tile[tile_offset(load_row + k * LOAD_ROWS, VEC * load_slot, TILE)]) = v[k];
    } else {      // edge tiles and shapes without 16-byte alignment: one float at a time, guarded
#pragma unroll 1  // rare and slow anyway: keep its registers out of the fast path's way
      for (int k = 0; k < LOADS; ++k) {
        const int r = load_row + k * LOAD_ROWS;
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          const int c = VEC * load_slot + e;
          if (row0 + r < rows && col0 + c < cols)
            tile[tile_offset(r, c, TILE)] = in[(row0 + r) * cols + col0 + c];
        }
      }
    }
    // The whole tile must be in shared memory before any thread reads a column of it.
    __syncthreads();
    const std::int64_t next = tile_row + gridDim.y;
    const bool next_full = is_full(next);
    // The pipeline: the next tile's loads go out now and arrive while this tile is stored.
    if (PIPELINE && next_full) load_registers(next * TILE);
    if (full) {
      float* dst = out + (col0 + out_row) * rows + row0 + VEC * out_quad;
#pragma unroll
      for (int k = 0; k < TILE / STORE_ROWS; ++k) {
        const int c = out_row + k * STORE_ROWS;  // output row in the tile = input column
        float4 w;
        w.x = tile[tile_offset(VEC * out_quad + 0, c, TILE)];
        w.y = tile[tile_offset(VEC * out_quad + 1, c, TILE)];
        w.z = tile[tile_offset(VEC * out_quad + 2, c, TILE)];
        w.w = tile[tile_offset(VEC * out_quad + 3, c, TILE)];
        float4* to = reinterpret_cast<float4*>(dst + k * STORE_ROWS * rows);
        if (STREAMING)
          __stcs(to, w);
        else
          *to = w;
      }
    } else {
#pragma unroll 1
      for (int k = 0; k < TILE / STORE_ROWS; ++k) {
        const int c = out_row + k * STORE_ROWS;
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          const int r = VEC * out_quad + e;
          if (row0 + r < rows && col0 + c < cols)
            out[(col0 + c) * rows + row0 + r] = tile[tile_offset(r, c, TILE)];
        }
      }
    }
    // Another tile follows in this block: everyone must be done reading this one first.
    if (next < row_tiles) __syncthreads();
    if (!PIPELINE && next_full) load_registers(next * TILE);
    full = next_full;
  }
}
//! [kernel]

// The number of SMs of the current device, asked once (on the first launch, never at load time).
inline int sm_count() {
  static const int count = [] {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  }();
  return count;
}

//! [launch]
template <int TILE, bool PIPELINE = true, bool STREAMING = false, bool ALLOW_VECTOR = true,
          bool STREAM_LOADS = false, int MIN_BLOCKS = MIN_BLOCKS_PER_SM>
void launch_variant(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  // 16-byte accesses need every row start 16-byte aligned, in and out (cudaMalloc aligns the base).
  const bool vector = ALLOW_VECTOR && rows % VEC == 0 && cols % VEC == 0;
  const std::int64_t row_tiles = (rows + TILE - 1) / TILE;
  // With the pipeline, each block walks up to TILES_PER_BLOCK rows of tiles, fewer when the grid
  // would not fill the GPU MIN_WAVES times over (a 2048 x 2048 matrix has 1024 tiles of 64 x 64).
  // Never more than 65535 blocks in y: the kernel loops over whatever rows of tiles remain.
  const std::int64_t col_tiles = (cols + TILE - 1) / TILE;
  const std::int64_t resident_blocks = std::int64_t(sm_count()) * MIN_BLOCKS;
  const std::int64_t per_block =
      PIPELINE ? std::clamp<std::int64_t>(row_tiles * col_tiles / (MIN_WAVES * resident_blocks), 1,
                                          TILES_PER_BLOCK)
               : 1;
  const std::int64_t grid_y = (row_tiles + per_block - 1) / per_block;
  const dim3 grid(unsigned(col_tiles), unsigned(std::min<std::int64_t>(grid_y, MAX_GRID_Y)));
  if (vector)
    kernel<TILE, true, PIPELINE, STREAMING, STREAM_LOADS, MIN_BLOCKS>
        <<<grid, BLOCK_THREADS>>>(d_in, d_out, rows, cols);
  else
    kernel<TILE, false, PIPELINE, STREAMING, STREAM_LOADS, MIN_BLOCKS>
        <<<grid, BLOCK_THREADS>>>(d_in, d_out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// The default, the fastest of the --sweep on our GPU: streaming (evict-first) stores, no pipeline.
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  launch_variant<TILE_DIM, false, true>(d_in, d_out, rows, cols);
}
//! [launch]

}  // namespace transpose_fast
