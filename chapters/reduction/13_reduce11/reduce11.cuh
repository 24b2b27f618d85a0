// reduce11: any n that fits in the device's memory, each block an equal share of the array.
// The one idea: the share of the array each block streams is computed once per block, in 64 bits,
//   and cut into equal runs of 512-byte groups (one warp's load) instead of whole tiles. Past
//   2^31 elements a 32-bit index overflows, so every count and offset on the way (the program's
//   --n, the buffers, the reference, the grid, the split) is 64-bit; the loop itself walks a
//   pointer. And with whole tiles, the first tiles % blocks blocks stream a tile more than the
//   others while the rest of the GPU idles; equal runs end together.
// Changes from the previous step (reduce10): a kernel of its own for n past one cluster, with a
//   64-bit n and thread_sum() rewritten around the block's run [begin, begin + count) of vectors:
//   full tiles of UNROLL loads per thread, then one guarded trip for the run's last part of a
//   tile. block_sum() is reduce7's, the last-block finish reduce9's (reduce9::finish), the
//   cluster for n <= reduce10::CLUSTER_ELEMENTS reduce10's.
// What limits it: the bytes: the whole-tile split reads at about the read-only yardstick's speed,
//   as CUB does. Measured (the page has the tables): the group split gains nothing on the H200
//   and is slower than whole tiles on the H100, where at 2^28 this step is behind CUB; at 2^30
//   and 2^32 it is ahead of CUB on both GPUs, by a few thousandths.
// Run: build/bin/reduce11 [--n 2^32] [--type int32|float|both] [--sweep]
// Source: beyond the slides (source 001); the even split of whole tiles is CUB's
//   GridEvenShare, here cut finer; the cache hint of one variant is PTX's ld.global.nc with the
//   L1::no_allocate and L2::256B qualifiers (PTX ISA, sm_80 and later).
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "chapters/reduction/12_reduce10/reduce10.cuh"
#include "common/check.cuh"
#include "common/vector4.cuh"

namespace reduce11 {

constexpr int BLOCK_THREADS = reduce9::BLOCK_THREADS;  // reduce9::finish() is written for it
constexpr int VECTOR = reduce8::VECTOR;                // elements per 16-byte load
// The unit of the split: one warp's load of one vector per lane, 32 x 16 = 512 bytes, so every
// block's run starts on a 512-byte boundary (relative to the first whole vector).
constexpr int GROUP_VECTORS = reduce7::WARP_THREADS;

using common::vector4;

//! [split]
// The head / vectors / tail of reduce8, for a 64-bit n: reduce8::split_for_vectors(in, n).

// A block's run of vectors: [begin, begin + count).
struct block_run {
  std::int64_t begin, count;
};

// `units` whole units of unit_vectors vectors each, shared out as `blocks` contiguous runs whose
// lengths differ by at most one unit: the first units % blocks runs take one unit more. A pure
// function, so the host tests can check that the runs tile [0, units * unit_vectors) exactly.
__host__ __device__ inline block_run run_of(std::int64_t units, int unit_vectors, int blocks,
                                            int block) {
  const std::int64_t per_block = units / blocks, extra = units % blocks;
  const std::int64_t first = block * per_block + (block < extra ? block : extra);
  const std::int64_t count = per_block + (block < extra ? 1 : 0);
  return {first * unit_vectors, count * unit_vectors};
}
//! [split]

//! [loads]
// How a thread loads a vector: `plain` lets the compiler choose (for a const __restrict__
// pointer it is ld.global.nc, the read-only path); `streaming` adds PTX's L1::no_allocate (keep
// nothing in L1) and L2::256B (fetch 256 bytes into L2 per miss), a variant the page measures.
enum class load_hint { plain, streaming };

template <load_hint HINT, class V>
__device__ inline V load_vector(const V* p) {
  if constexpr (HINT == load_hint::plain) {
    return *p;
  } else {  // the 16 bytes as four 32-bit words, whatever their type
    unsigned x, y, z, w;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
        : "l"(p));
    V v;
    static_assert(sizeof(V) == 4 * sizeof(unsigned), "16-byte vectors of 32-bit words");
    const unsigned words[4] = {x, y, z, w};
    memcpy(&v, words, sizeof(v));
    return v;
  }
}

// This thread's share of in[0, n). The whole vectors are cut into units of UNIT_VECTORS (a 512-
// byte group by default; a whole tile reproduces reduce8's split) and each block takes one
// contiguous run of units (run_of). Within the run, a tile is UNROLL vectors per thread, vector u
// of the thread at tile[u * BLOCK_THREADS + threadIdx.x]: each warp's load reads 512 contiguous
// bytes, and all UNROLL loads are issued before the first add. After the run's whole tiles, one
// more trip with the same loads, each guarded, takes what is left of the run (less than a tile;
// a multiple of a group, so a warp loads 32 vectors or none). The vectors past the last whole
// unit (fewer than UNIT_VECTORS) and the head and tail elements are shared out one per thread.
template <int UNIT_VECTORS, int UNROLL, load_hint HINT, class T>
__device__ T thread_sum(const T* __restrict__ in, std::int64_t n) {
  using V = typename vector4<T>::type;
  constexpr int TILE_VECTORS = UNROLL * BLOCK_THREADS;
  const std::int64_t thread = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * BLOCK_THREADS;
  const auto s = reduce8::split_for_vectors(in, n);  // 64-bit head, vectors, tail
  T sum = T(0);
  if (thread < s.head) sum += in[thread];                      // [0, head)
  if (thread < n - s.tail) sum += in[s.tail + thread];         // [tail, n)
  const V* vectors = reinterpret_cast<const V*>(in + s.head);  // 16-byte aligned
  const std::int64_t units = s.vectors / UNIT_VECTORS;
  const block_run run = run_of(units, UNIT_VECTORS, gridDim.x, blockIdx.x);
  const V* p = vectors + run.begin + threadIdx.x;  // this thread's vector of the run's first tile
  const V* const end_of_tiles = p + run.count / TILE_VECTORS * TILE_VECTORS;
  for (; p != end_of_tiles; p += TILE_VECTORS) {
    V v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load_vector<HINT>(p + u * BLOCK_THREADS);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  const int rest = int(run.count % TILE_VECTORS);  // [0, TILE_VECTORS), a multiple of a group
  if (rest > 0) {                                  // the same for the whole block
    V v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      v[u] = u * BLOCK_THREADS + int(threadIdx.x) < rest ? load_vector<HINT>(p + u * BLOCK_THREADS)
                                                         : V{};
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (std::int64_t i = units * UNIT_VECTORS + thread; i < s.vectors; i += threads) {
    const V v = vectors[i];  // [units * UNIT_VECTORS, vectors): fewer than UNIT_VECTORS
    sum += (v.x + v.y) + (v.z + v.w);
  }
  return sum;
}
//! [loads]

//! [kernel]
// reduce9's kernel with a 64-bit n and this step's loads; the finish is reduce9's.
template <class T, int UNIT_VECTORS, int UNROLL, load_hint HINT>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ in, std::int64_t n, T* out, unsigned long long* slots,
           unsigned long long* counter, unsigned long long stamp) {
  unsigned long long seen = 0;  // the counter, asked for now (reduce9): it travels with the loads
  if (threadIdx.x == 0) seen = reduce9::counter_ref(*counter).load(cuda::memory_order_relaxed);
  const T sum = reduce7::block_sum<BLOCK_THREADS>(thread_sum<UNIT_VECTORS, UNROLL, HINT>(in, n));
  reduce9::finish(sum, seen, out, slots, counter, stamp);
}
//! [kernel]

//! [launch]
// The variants the page measures; `groups` is the step.
struct groups {  // 512-byte groups, 4 loads in flight per thread
  static constexpr int UNIT_VECTORS = GROUP_VECTORS, UNROLL = 4;
  static constexpr load_hint HINT = load_hint::plain;
};
struct tiles {  // reduce8's split: whole tiles (some blocks stream one tile more)
  static constexpr int UNIT_VECTORS = 4 * BLOCK_THREADS, UNROLL = 4;
  static constexpr load_hint HINT = load_hint::plain;
};
struct groups_unroll8 {  // 8 loads in flight per thread
  static constexpr int UNIT_VECTORS = GROUP_VECTORS, UNROLL = 8;
  static constexpr load_hint HINT = load_hint::plain;
};
struct groups_streaming {  // the L1::no_allocate.L2::256B loads
  static constexpr int UNIT_VECTORS = GROUP_VECTORS, UNROLL = 4;
  static constexpr load_hint HINT = load_hint::streaming;
};

template <class T, class V>
constexpr auto kernel_of = kernel<T, V::UNIT_VECTORS, V::UNROLL, V::HINT>;

// The grid that fills the GPU once (reduce8's: SMs x resident blocks), at most one block per
// TILE_ELEMENTS; asked once per process, for the device current at the first call.
template <class V>
int grid_limit() {
  static const int resident =
      reduce8::resident_blocks(kernel_of<std::int32_t, V>, kernel_of<float, V>, BLOCK_THREADS);
  return std::min<int>(resident, int(reduce9::COUNT_MASK));
}

// A pure function, so the host tests can check it at any n: one block per tile, at least one,
// at most max_blocks.
constexpr int grid_for(std::int64_t n, int max_blocks) {
  const std::int64_t tiles = (n + reduce8::TILE_ELEMENTS - 1) / reduce8::TILE_ELEMENTS;
  return int(std::max<std::int64_t>(1, std::min<std::int64_t>(tiles, max_blocks)));
}

template <class V = groups>
int blocks_for(std::int64_t n) {
  return grid_for(n, grid_limit<V>());
}

// Does n go to reduce10's cluster? (Its kernel takes an int n; the cluster's n are small.)
inline bool uses_cluster(std::int64_t n) {
  return n <= reduce10::CLUSTER_ELEMENTS && reduce10::uses_cluster(int(n));
}

template <class V = groups>
std::size_t workspace_elements(std::int64_t n) {
  return uses_cluster(n) ? 0 : reduce9::workspace_elements_for_blocks(blocks_for<V>(n));
}

// One launch for every n, 0 included.
template <class T, class V = groups>
void launch(const T* d_in, std::int64_t n, T* d_out, T* d_workspace) {
  if (uses_cluster(n)) {
    reduce10::launch(d_in, int(n), d_out, d_workspace);  // one cluster, no workspace
    return;
  }
  const reduce9::workspace_layout w = reduce9::layout_of(d_workspace);
  kernel<T, V::UNIT_VECTORS, V::UNROLL, V::HINT><<<blocks_for<V>(n), BLOCK_THREADS>>>(
      d_in, n, d_out, w.slots, w.counter, reduce9::next_stamp());
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace reduce11
