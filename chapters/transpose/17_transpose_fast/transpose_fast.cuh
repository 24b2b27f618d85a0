// transpose_fast: a transpose for today's GPUs, at cublasSgeam's speed or better when rows and cols
//   are multiples of 64 (the shapes its bench measures). Other shapes are correct but slower:
//   partial tiles take a one-float-at-a-time kernel in launches of their own, and a side that is
//   not a multiple of 4 sends the whole matrix there (transpose_any_shape fixes both).
// The one idea: let the copy engine write the output. Each block loads a 64 x 64 tile with 16-byte
//   loads into a swizzled shared tile; each thread transposes one 4 x 4 block of it in registers
//   into a dense output tile; each warp then ships the 8 output rows it owns (256 bytes each) with
//   bulk asynchronous copies (cp.async.bulk, the Hopper TMA unit's 1D form) instead of storing them
//   itself. The --sweep variants store from registers instead (evict-first or plain), or take the
//   guarded one-float-at-a-time path for every tile.
// Changes from the previous steps (transpose_no_bank_conflicts): float4 loads, a bigger tile, a
//   swizzle instead of padding (padding breaks 16-byte alignment), a register transpose of 4 x 4
//   blocks (4 shared loads and 4 shared stores per thread), bulk stores, 64-bit offsets, edge tiles
//   in a kernel of their own, and several launches for matrices taller than one grid.
// What limits it: DRAM, at those shapes: it moves its bytes nearly as fast as cudaMemcpy does (see
//   its page); at other shapes its guarded kernel and the extra launches.
// Run: build/bin/transpose_fast [--rows 16384 --cols 16384] [--sweep] [--quick]
// Source: none of the five; the whitepaper's closing remark (tile size, elements per thread)
//   (source 002) points this way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/check.cuh"
#include "common/per_device.cuh"
#include "common/program.cuh"
#include "common/transpose/program.cuh"

namespace transpose_fast {

constexpr int BLOCK_THREADS = 256;
constexpr int TILE_DIM = 64;           // TILE_DIM x TILE_DIM floats per block
constexpr int VEC = 4;                 // floats per 16-byte access
constexpr int SLOTS = TILE_DIM / VEC;  // 16-byte slots per tile row
constexpr int MAX_GRID_Y = 65535;
// 6 blocks of 256 threads per SM: 6 x 33 KB of shared memory fit in 228 KB, and ptxas fits the
// fast path in the 40 registers per thread that this leaves (no spills, its -Xptxas -v says).
constexpr int MIN_BLOCKS_PER_SM = 6;
// A __launch_bounds__ count of blocks per SM, capped at what the GPU being compiled for holds of
// BLOCK_THREADS threads: 1536 threads per SM on sm_86, sm_87, sm_89 and sm_120. Unchanged for
// compute_75 (1024 threads per SM), whose PTX (a 75-virtual build) also runs on newer GPUs, where
// the count holds; ptxas for a real sm_75 warns that it ignores it. Unchanged on sm_80, sm_90 and
// sm_100.
__host__ __device__ constexpr int resident_blocks(int blocks) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || \
                               __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
  constexpr int most = 1536 / BLOCK_THREADS;
  return blocks < most ? blocks : most;
#else
  return blocks;
#endif
}

// How the output leaves the block: the default and the two choices of the --sweep.
constexpr int BULK_STORES = 0;       // the copy engine, from a dense output tile in shared memory
constexpr int STREAMING_STORES = 1;  // st.global.cs from registers (evict first from L2)
constexpr int PLAIN_STORES = 2;      // st.global from registers

//! [swizzle]
// The input tile holds rows of 16 slots of 4 floats. Slot s of row r is stored at slot
// s ^ ((r / 4) % 8): a row keeps its slots in 8-slot groups (the load phase's float4 stores stay
// conflict-free), and the 8 row quads that a quarter-warp reads in the transpose phase (same slot,
// rows 4 apart) land on 8 different 16-byte bank groups.
__host__ __device__ constexpr int swizzled_slot(int row, int slot) {
  return slot ^ ((row / VEC) % 8);
}
// The float offset of tile element (row, col).
__host__ __device__ constexpr int tile_offset(int row, int col) {
  return row * TILE_DIM + VEC * swizzled_slot(row, col / VEC) + col % VEC;
}
//! [swizzle]

//! [block]
// The 4 x 4 block that thread `thread` transposes: input rows 4 * rho .. 4 * rho + 3, input
// columns (= output rows) 4 * quad .. 4 * quad + 3. A warp owns two quads, i.e. output rows
// 8 * warp .. 8 * warp + 7, whole: it can ship them without waiting for the other warps.
struct block_of_thread {
  int rho, quad;
};
__host__ __device__ constexpr block_of_thread block_of(int thread) {
  return {thread % 32 % 16, 2 * (thread / 32) + thread % 32 / 16};
}
//! [block]

// The 16-byte loads of input floats (full_tile's INPUT: a later step passes its own kind).
struct vector_loads {
  __device__ __forceinline__ static float4 load(const float* p) {
    return *reinterpret_cast<const float4*>(p);
  }
};

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}

//! [ship]
// Bulk-copies BYTES (a multiple of 16, both addresses 16-byte aligned) from shared to global
// memory through the TMA unit, then waits until the source has been read (not until the bytes
// have reached memory), so that the shared tile may be reused or released.
template <int BYTES>
__device__ __forceinline__ void ship_row(float* to, const float* from) {
  static_assert(BYTES % 16 == 0, "bulk copies move multiples of 16 bytes");
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(to),
               "r"(shared_address(from)), "n"(BYTES)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#else
  // Built without sm_90 code there are no bulk copies, and the launch does not choose them
  // (bulk_stores_here); should it, the row is still copied, by this lane, 16 bytes at a time.
  for (int i = 0; i < BYTES / 16; ++i)
    reinterpret_cast<float4*>(to)[i] = reinterpret_cast<const float4*>(from)[i];
#endif
}
//! [ship]

//! [kernel]
// The 4 x 4 register transpose of this thread's block of the (swizzled) input tile: w[f] is
// output row in_col + f, tile rows in_row .. in_row + 3.
struct transposed_block {
  float4 w[VEC];
};
__device__ __forceinline__ transposed_block transpose_block(const float* tile, int in_row,
                                                            int in_col) {
  float4 r[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e)
    r[e] = *reinterpret_cast<const float4*>(&tile[tile_offset(in_row + e, in_col)]);
  return {{make_float4(r[0].x, r[1].x, r[2].x, r[3].x), make_float4(r[0].y, r[1].y, r[2].y, r[3].y),
           make_float4(r[0].z, r[1].z, r[2].z, r[3].z),
           make_float4(r[0].w, r[1].w, r[2].w, r[3].w)}};
}

// Bulk stores: this thread's transposed block w (output rows in_col .. in_col + 3, tile rows
// in_row .. in_row + 3) goes into the dense output tile; then the warp's 8 output rows, whole,
// leave through the copy engine, one lane per row. Output rows must start 16-byte aligned.
__device__ __forceinline__ void bulk_store(float* __restrict__ out, std::int64_t rows,
                                           std::int64_t row0, std::int64_t col0, int in_row,
                                           int in_col, const float4* w, float* out_tile) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int f = 0; f < VEC; ++f)
    *reinterpret_cast<float4*>(&out_tile[(in_col + f) * TILE_DIM + in_row]) = w[f];
#if __CUDA_ARCH__ >= 900
  // The bulk copies read shared memory through the async proxy: make this thread's writes
  // visible to it, then let the warp's 8 output rows go, one lane per row.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  __syncwarp();
  if (lane < 8) {
    const int c = 8 * warp + lane;  // output row in the tile
    ship_row<TILE_DIM * sizeof(float)>(out + (col0 + c) * rows + row0, &out_tile[c * TILE_DIM]);
  }
}

// The tile whose first input row is row0 and first input column col0, whole (64 x 64) inside a
// matrix whose rows and cols are multiples of 4 (16-byte accesses legal). Nothing to check, so
// the loads go out first thing. tile: the block's shared input tile; out_tile: its output tile
// (TILE_DIM x TILE_DIM floats, 128-byte aligned) for bulk stores, else unused. INPUT: how the
// input is read (16-byte loads).
template <int STORES, class INPUT = vector_loads>
__device__ __forceinline__ void full_tile(const float* __restrict__ in, float* __restrict__ out,
                                          std::int64_t rows, std::int64_t cols, std::int64_t row0,
                                          std::int64_t col0, float* tile, float* out_tile) {
  constexpr int LOAD_ROWS = BLOCK_THREADS / SLOTS;  // tile rows loaded per pass
  constexpr int LOADS = TILE_DIM / LOAD_ROWS;       // float4 loads per thread
  const int t = threadIdx.x;
  const int load_slot = t % SLOTS, load_row = t / SLOTS;  // load phase: 16 rows x 16 slots

  const float* src = in + (row0 + load_row) * cols + col0 + VEC * load_slot;
  float4 v[LOADS];  // all loads in flight before the first store into the tile
#pragma unroll
  for (int k = 0; k < LOADS; ++k) v[k] = INPUT::load(src + k * LOAD_ROWS * cols);
#pragma unroll
  for (int k = 0; k < LOADS; ++k)
    *reinterpret_cast<float4*>(&tile[tile_offset(load_row + k * LOAD_ROWS, VEC * load_slot)]) =
        v[k];
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();

  // Four rows of this thread's block in, four columns out.
  const block_of_thread mine = block_of(t);
  const int in_row = VEC * mine.rho, in_col = VEC * mine.quad;  // the block's corner
  const transposed_block block = transpose_block(tile, in_row, in_col);
  const float4* w = block.w;
  if constexpr (STORES == BULK_STORES) {
    bulk_store(out, rows, row0, col0, in_row, in_col, w, out_tile);
  } else {
#pragma unroll
    for (int f = 0; f < VEC; ++f) {
      float4* to = reinterpret_cast<float4*>(out + (col0 + in_col + f) * rows + row0 + in_row);
      if constexpr (STORES == STREAMING_STORES)
        __stcs(to, w[f]);
      else
        *to = w[f];
    }
  }
}

// The fast path: one whole tile per block.
template <int STORES>
__global__ void __launch_bounds__(BLOCK_THREADS, resident_blocks(MIN_BLOCKS_PER_SM))
    kernel_full(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                std::int64_t cols, std::int64_t first_tile_row) {
  __shared__ __align__(128) float tile[TILE_DIM * TILE_DIM];  // input rows, swizzled
  // Output rows, dense and 128-byte aligned: the bulk copies read them as they are.
  __shared__ __align__(128) float out_tile[STORES == BULK_STORES ? TILE_DIM * TILE_DIM : VEC];
  const std::int64_t col0 = std::int64_t(blockIdx.x) * TILE_DIM;       // first input column
  const std::int64_t row0 = (first_tile_row + blockIdx.y) * TILE_DIM;  // first input row
  full_tile<STORES>(in, out, rows, cols, row0, col0, tile, out_tile);
}
//! [kernel]

//! [edge]
// Everything else: tiles that reach past the matrix, and shapes whose rows are not 16-byte
// aligned. One float at a time, each access guarded, through the same swizzled tile.
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel_edge(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                std::int64_t cols, std::int64_t first_tile_row, std::int64_t first_tile_col) {
  constexpr int LOAD_ROWS = BLOCK_THREADS / SLOTS;
  __shared__ __align__(16) float tile[TILE_DIM * TILE_DIM];
  const int t = threadIdx.x, load_slot = t % SLOTS, load_row = t / SLOTS;
  const std::int64_t col0 = (first_tile_col + blockIdx.x) * TILE_DIM;
  const std::int64_t row0 = (first_tile_row + blockIdx.y) * TILE_DIM;
  for (int r = load_row; r < TILE_DIM; r += LOAD_ROWS)
    for (int c = VEC * load_slot; c < VEC * load_slot + VEC; ++c)
      if (row0 + r < rows && col0 + c < cols)
        tile[tile_offset(r, c)] = in[(row0 + r) * cols + col0 + c];
  __syncthreads();
  const block_of_thread mine = block_of(t);
  for (int c = VEC * mine.quad; c < VEC * mine.quad + VEC; ++c)
    for (int r = VEC * mine.rho; r < VEC * mine.rho + VEC; ++r)
      if (row0 + r < rows && col0 + c < cols)
        out[(col0 + c) * rows + row0 + r] = tile[tile_offset(r, c)];
}
//! [edge]

//! [launch]
// kernel_edge over tile rows [row_tile0, row_tile1) x tile columns [col_tile0, col_tile1), in grids
// of at most 65535 rows of blocks.
inline void launch_edge(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols,
                        std::int64_t row_tile0, std::int64_t row_tile1, std::int64_t col_tile0,
                        std::int64_t col_tile1) {
  for (std::int64_t first = row_tile0; first < row_tile1; first += MAX_GRID_Y) {
    const dim3 grid(unsigned(col_tile1 - col_tile0),
                    unsigned(std::min<std::int64_t>(row_tile1 - first, MAX_GRID_Y)));
    kernel_edge<<<grid, BLOCK_THREADS>>>(d_in, d_out, rows, cols, first, col_tile0);
    CUDA_CHECK_LAUNCH();
  }
}

// Whether this GPU runs the bulk stores: compute capability 9.0 or newer, and a build with sm_90
// code (the kernel's, not the device's alone), asked once per device.
inline bool bulk_stores_here() {
  static common::PerDevice<bool> known;
  bool here = false;
  CUDA_CHECK(known.get_current(
      here, [](bool& value) { return common::runs_hopper_code(kernel_full<BULK_STORES>, value); }));
  return here;
}

// d_in and d_out as cudaMalloc returns them (256-byte aligned): the 16-byte accesses and the bulk
// copies rely on it. Bulk stores on a GPU or build without them: common::not_available (the
// program says so and exits 78).
template <bool ALLOW_VECTOR = true, int STORES = BULK_STORES>
void launch_variant(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  if (rows == 0 || cols == 0) return;  // nothing to move, and a grid of zero blocks is an error
  const std::int64_t row_tiles = (rows + TILE_DIM - 1) / TILE_DIM;
  const std::int64_t col_tiles = (cols + TILE_DIM - 1) / TILE_DIM;
  // 16-byte accesses need every row start 16-byte aligned, in and out.
  if (!ALLOW_VECTOR || rows % VEC != 0 || cols % VEC != 0) {
    launch_edge(d_in, d_out, rows, cols, 0, row_tiles, 0, col_tiles);
    return;
  }
  // The whole tiles, one per block (a grid holds 65535 rows of blocks: taller matrices take
  // several launches), then the partial last row and column of tiles, if any.
  const std::int64_t full_rows = rows / TILE_DIM, full_cols = cols / TILE_DIM;
  if (STORES == BULK_STORES && !bulk_stores_here())
    throw common::not_available(
        "bulk stores (cp.async.bulk) need compute capability 9.0 or newer and a build with sm_90 "
        "code (CMAKE_CUDA_ARCHITECTURES with 90); the --sweep's 'streaming stores' are the "
        "portable form");
  for (std::int64_t first = 0; full_cols > 0 && first < full_rows; first += MAX_GRID_Y) {
    const dim3 grid(unsigned(full_cols),
                    unsigned(std::min<std::int64_t>(full_rows - first, MAX_GRID_Y)));
    kernel_full<STORES><<<grid, BLOCK_THREADS>>>(d_in, d_out, rows, cols, first);
    CUDA_CHECK_LAUNCH();
  }
  if (full_rows < row_tiles)
    launch_edge(d_in, d_out, rows, cols, full_rows, row_tiles, 0, col_tiles);
  if (full_cols < col_tiles)
    launch_edge(d_in, d_out, rows, cols, 0, full_rows, full_cols, col_tiles);
}

// The default: bulk stores, 16-byte accesses wherever the shape allows them.
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  launch_variant<true, BULK_STORES>(d_in, d_out, rows, cols);
}
//! [launch]

// The program's and the tests' variants: the default first, then the choices it was picked from
// (the --sweep): stores from registers, evict-first or plain, instead of bulk copies, and the
// guarded one-float-at-a-time path for every tile. No grid limit (tall matrices take several
// launches) and 64-bit offsets.
inline std::vector<common::matrix_variant> variants() {
  const common::matrix_limits any_shape{0, false, 64, false};
  return {{"", launch, any_shape},
          {"streaming stores", launch_variant<true, STREAMING_STORES>, any_shape},
          {"plain stores", launch_variant<true, PLAIN_STORES>, any_shape},
          {"guarded path only", launch_variant<false, BULK_STORES>, any_shape}};
}

}  // namespace transpose_fast
