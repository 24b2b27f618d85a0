// reduce8: 16-byte vector loads, several in flight, a grid that fills the GPU once.
// The one idea: a memory-bound kernel is as fast as the bytes it keeps in flight. Each thread
//   issues UNROLL independent 16-byte loads (int4 / float4) before it adds any of them, and the
//   grid is exactly the blocks this GPU holds at once (asked of the CUDA runtime, not guessed).
// Changes from the previous step (reduce7): each block walks one contiguous run of tiles of 16-byte
//   vectors, UNROLL per thread per tile, 512-thread blocks; at most 3 scalar elements before the
//   first 16-byte boundary (the head) and 3 after
//   the last whole vector (the tail), so any n and any 4-byte-aligned d_in work; blocks_for()
//   uses the SM count and the occupancy calculator instead of GRID_BLOCKS. block_sum() is
//   reduce7's.
// What limits it: it still takes two launches (the second sums the partial sums), which costs
//   little at 2^28 but is most of the time at 2^16; reduce9 finishes in the first launch.
// Run: build/bin/reduce8 [--n 2^22] [--type int32|float|both]
// Source: beyond the slides (source 001); vector loads as in NVIDIA's "CUDA Pro Tip: Increase
//   Performance with Vectorized Memory Access" (Luitjens, 2013).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "chapters/reduction/09_reduce7/reduce7.cuh"
#include "common/check.cuh"
#include "common/reduction/reduction.cuh"
#include "common/vector4.cuh"

namespace reduce8 {

// Tuning constants (see the page): 512 threads, 4 loads in flight and contiguous runs of tiles
// per block measured best on our GPU; the grid is WAVES times what fits on the GPU at once.
constexpr int BLOCK_THREADS = 512;
constexpr int UNROLL = 4;  // independent 16-byte loads per thread per trip
constexpr int WAVES = 1;   // grid = WAVES x (SMs x blocks per SM)
constexpr int VECTOR = 4;  // elements per 16-byte load
constexpr int TILE_VECTORS = BLOCK_THREADS * UNROLL;  // one trip of one block, in vectors
constexpr int TILE_ELEMENTS = TILE_VECTORS * VECTOR;  // the same, in elements

using common::vector4;  // the 16-byte vector of four T: int4, float4

//! [split]
// in[0, head) lie before the first 16-byte boundary, in[head, tail) are `vectors` whole 16-byte
// vectors, in[tail, n) are left over. head and n - tail are both in [0, VECTOR). Only the address
// matters, not n % 4: d_in + 1 has a head of 3. Written for any count type (this step's int;
// reduce11's 64-bit n).
template <class Count>
struct basic_vector_split {
  Count head, vectors, tail;
};
using vector_split = basic_vector_split<int>;

template <class T, class Count>
__host__ __device__ inline basic_vector_split<Count> split_for_vectors(const T* in, Count n) {
  static_assert(sizeof(typename vector4<T>::type) == VECTOR * sizeof(T), "16-byte vectors");
  const int misaligned = int(reinterpret_cast<std::uintptr_t>(in) / sizeof(T) % VECTOR);
  const int to_boundary = (VECTOR - misaligned) % VECTOR;  // [0, VECTOR)
  basic_vector_split<Count> s;
  s.head = n < to_boundary ? n : to_boundary;
  s.vectors = (n - s.head) / VECTOR;
  s.tail = s.head + s.vectors * VECTOR;
  return s;
}
//! [split]

//! [loads]
// This thread's share of in[0, n). The whole tiles of vectors (a tile: UNROLL vectors per thread
// of one block) are split into gridDim.x contiguous runs of nearly equal length, one per block, as
// CUB does: each block streams through one stretch of memory. Inside a tile, vector u of the
// thread is tile[u * BLOCK_THREADS + threadIdx.x], so each load instruction of a warp reads 512
// contiguous bytes, and all UNROLL loads are issued before the first add uses one. The vectors
// after the last whole tile, and the head and tail elements, are shared out one per thread.
template <class T>
__device__ T thread_sum(const T* __restrict__ in, int n) {
  using V = typename vector4<T>::type;
  const int thread = blockIdx.x * BLOCK_THREADS + threadIdx.x;  // [0, threads)
  const int threads = gridDim.x * BLOCK_THREADS;
  const vector_split s = split_for_vectors(in, n);
  T sum = T(0);
  if (thread < s.head) sum += in[thread];                      // [0, head)
  if (thread < n - s.tail) sum += in[s.tail + thread];         // [tail, n)
  const V* vectors = reinterpret_cast<const V*>(in + s.head);  // 16-byte aligned
  const int tiles = s.vectors / TILE_VECTORS;                  // no overflow: s.vectors < 2^29
  const int block = blockIdx.x;
  const int per_block = tiles / gridDim.x, extra = tiles % gridDim.x;
  const int first_tile = block * per_block + min(block, extra);  // the first `extra` take one more
  const int end_tile = first_tile + per_block + (block < extra ? 1 : 0);
  for (int t = first_tile; t < end_tile; ++t) {
    const V* tile = vectors + t * TILE_VECTORS;
    V v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = tile[u * BLOCK_THREADS + threadIdx.x];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (int i = tiles * TILE_VECTORS + thread; i < s.vectors; i += threads) {  // < one tile left
    const V v = vectors[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  return sum;
}
//! [loads]

//! [kernel]
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ in, int n, T* block_sums) {
  const T sum = reduce7::block_sum<BLOCK_THREADS>(thread_sum(in, n));  // in thread 0
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}
//! [kernel]

//! [grid]
// Blocks of these kernels that run at once on the current GPU: SMs x resident blocks per SM (the
// occupancy calculator counts threads, registers and shared memory), the smaller of the two.
template <class KernelA, class KernelB>
int resident_blocks(KernelA kernel_a, KernelB kernel_b, int block_threads) {
  int device = 0, sms = 0, per_sm_a = 0, per_sm_b = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_a, kernel_a, block_threads, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_b, kernel_b, block_threads, 0));
  return sms * std::min(per_sm_a, per_sm_b);
}

// One block per TILE_ELEMENTS (each thread's loop then makes one full trip), at most max_blocks,
// at least one. A pure function, so the host tests can check it without a GPU.
inline int grid_for(int count, int max_blocks) {
  const int tiles = count / TILE_ELEMENTS + (count % TILE_ELEMENTS != 0);  // no overflow
  return std::max(1, std::min(tiles, max_blocks));
}

// The grid limit is asked once per process (for the device current at the first call).
inline int grid_limit() {
  static const int blocks =
      WAVES * resident_blocks(kernel<std::int32_t>, kernel<float>, BLOCK_THREADS);
  return blocks;
}
//! [grid]

//! [launch]
// Small n: one block per tile (2^16 elements: 16 blocks). Large n: the full grid, each thread
// looping. The second pass sums at most grid_limit() partial sums in one block whenever
// grid_limit() <= TILE_ELEMENTS; otherwise common::reduce_in_passes adds a pass.
inline int blocks_for(int count) { return grid_for(count, grid_limit()); }

inline std::size_t workspace_elements(int n) {
  return common::passes_workspace_elements(n, blocks_for);
}

template <class T>
void launch(const T* d_in, int n, T* d_out, T* d_workspace) {
  common::reduce_in_passes(d_in, n, d_out, d_workspace, blocks_for,
                           [](const T* in, int count, T* out, int blocks) {
                             kernel<T><<<blocks, BLOCK_THREADS>>>(in, count, out);
                             CUDA_CHECK_LAUNCH();
                           });
}
//! [launch]

}  // namespace reduce8
