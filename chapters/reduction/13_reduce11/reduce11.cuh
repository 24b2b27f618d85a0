// reduce11: any n that fits in the device's memory; the blocks take tiles in order from a counter.
// The one idea: no block has a share of the array fixed in advance. Block b sums tile b, then
//   takes the next tile nobody has taken yet from one counter in memory (one atomic add per
//   64 KiB tile, eight 16-byte loads per thread, issued while that tile's loads are in flight),
//   until the tiles run out. The tiles being read at any moment then lie in one window of about a
//   tile per block that moves through the array in order, and a block that reads faster takes
//   more tiles, so the blocks end within a tile of each other. Past 2^31 elements a 32-bit index
//   overflows, so every count and offset on the way (the program's --n, the buffers, the
//   reference, the grid, the tiles) is 64-bit; the loop itself walks a pointer.
// Changes from the previous step (reduce10): a kernel of its own for n past one cluster, with a
//   64-bit n; thread_sum() takes its tiles from the counter (a word of the workspace beside
//   reduce9's arrival counter, stamped with the launch as reduce9's is). block_sum() is
//   reduce7's, the last-block finish reduce9's (reduce9::finish), the cluster for
//   n <= reduce10::CLUSTER_ELEMENTS reduce10's, except for n of at most one tile: one block in an
//   ordinary launch. The variants the page measures: the claims of
//   32 KiB tiles (unroll=4, the step's first form), and fixed shares: reduce8's contiguous runs
//   of whole tiles or of 512-byte groups, and tiles b, b + blocks, ... (strided).
// What limits it: the bytes, the order they are read in, the size of a claim. Measured on the
//   H200 and the H100, two runs each (the page has the tables): faster than the read-only
//   yardstick, than CUB at 2^28, 2^30 and 2^32 and than every fixed share; 32 KiB claims, as fast
//   on the H100, were at CUB's speed or below on the H200 (why: hypotheses, not profiled). The
//   price: the tiles a block sums change between launches, and so do a float sum's last bits.
//   Up to one tile (8192 elements) the time is a launch and one trip to memory: on the H100 the
//   single block is level with CUB up to 100 elements and at 4096, past it elsewhere (the page).
// Run: build/bin/reduce11 [--n 2^32] [--type int32|float|both] [--sweep]
// Source: beyond the slides (source 001); a grid that fills the GPU once and takes its work from
//   an atomic counter is the "persistent threads" style (Gupta, Stuart and Owens, 2012); the
//   even split of whole tiles is CUB's GridEvenShare.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "chapters/reduction/12_reduce10/reduce10.cuh"
#include "common/check.cuh"
#include "common/per_device.cuh"
#include "common/reduction/program.cuh"
#include "common/vector4.cuh"

namespace reduce11 {

constexpr int BLOCK_THREADS = reduce9::BLOCK_THREADS;  // reduce9::finish() is written for it
constexpr int VECTOR = reduce8::VECTOR;                // elements per 16-byte load
// The unit of the group split (a variant): one warp's load of one vector per lane, 32 x 16 = 512
// bytes, so every block's run starts on a 512-byte boundary (relative to the first whole vector).
constexpr int GROUP_VECTORS = reduce7::WARP_THREADS;

using common::vector4;

//! [claims]
// The counter the blocks take their tiles from: one 64-bit word of the workspace, the launch's
// stamp (its low 32 bits, as in reduce9's slots) above the number of tiles claimed so far. A word
// with another stamp is an earlier launch's (or poison): the first block to claim resets it to
// "this launch, none claimed", and a block that finds it reset already leaves it alone, as
// reduce9 does with its arrival counter. 32 bits of count hold more tiles than any GPU's memory.
using claim_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

struct claims {
  unsigned long long* word;
  unsigned long long stamp;  // this launch's, 32 bits
  unsigned long long seen;   // the word as thread 0 read it when the block started
};

// Called by thread 0: the next tile nobody has taken. Tiles [0, gridDim.x) are the blocks' first
// tiles, taken without asking, so the claims count from gridDim.x.
__device__ inline std::int64_t claim_next(claims& c) {
  claim_ref word(*c.word);
  if ((c.seen >> 32) != c.stamp) {  // an earlier launch's word when this block started
    // Succeeds for the first block only: a word that changed since it was read has been reset
    // by another block of this launch (and perhaps claimed from), and must stay as it is.
    word.compare_exchange_strong(c.seen, c.stamp << 32, cuda::memory_order_relaxed);
    c.seen = c.stamp << 32;  // either way the word is this launch's now
  }
  const unsigned long long before = word.fetch_add(1, cuda::memory_order_relaxed);
  return std::int64_t(before & 0xFFFFFFFFull) + gridDim.x;
}
//! [claims]

//! [split]
// The variants with a fixed share per block. A block's run of vectors: [begin, begin + count).
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
// How the blocks share the tiles out. `claimed` (the step): tile b, then tiles from the counter.
// The variants: `runs`, each block one contiguous run of units (reduce8's split); `strided`,
// tiles b, b + blocks, b + 2 blocks, ... (a fixed share that reads the array in the same order
// as `claimed` until the blocks drift apart).
enum class order { claimed, runs, strided };

// One tile of UNROLL vectors per thread: vector u of the thread at p[u * BLOCK_THREADS], so each
// warp's load reads 512 contiguous bytes, and all UNROLL loads are issued before the first add.
// while_loading() runs between the two (the claim of the next tile travels with the loads).
// Loads at or past `rest` vectors into the tile are skipped (a run's last part of a tile).
template <int UNROLL, class V, class T, class WhileLoading>
__device__ inline void add_tile(const V* p, T& sum, int rest, WhileLoading&& while_loading) {
  V v[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
    v[u] = u * BLOCK_THREADS + int(threadIdx.x) < rest ? p[u * BLOCK_THREADS] : V{};
  while_loading();
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
}

// This thread's share of in[0, n). The whole vectors are cut into units of UNIT_VECTORS (a whole
// tile, or for the group split a 512-byte group) and shared out in ORDER. The vectors past the
// last whole unit (fewer than UNIT_VECTORS) and the head and tail elements are shared out one
// per thread.
template <class P, class T>
__device__ T thread_sum(const T* __restrict__ in, std::int64_t n, claims c) {
  using V = typename vector4<T>::type;
  constexpr int TILE_VECTORS = P::UNROLL * BLOCK_THREADS;
  auto nothing = [] {};
  const std::int64_t thread = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * BLOCK_THREADS;
  const auto s = reduce8::split_for_vectors(in, n);  // 64-bit head, vectors, tail
  T sum = T(0);
  if (thread < s.head) sum += in[thread];                      // [0, head)
  if (thread < n - s.tail) sum += in[s.tail + thread];         // [tail, n)
  const V* vectors = reinterpret_cast<const V*>(in + s.head);  // 16-byte aligned
  const std::int64_t units = s.vectors / P::UNIT_VECTORS;
  if constexpr (P::ORDER == order::claimed) {
    static_assert(P::UNIT_VECTORS == TILE_VECTORS, "a claim is a whole tile");
    __shared__ std::int64_t next_tile[2];  // thread 0 writes one while the block reads the other
    int parity = 0;
    for (std::int64_t tile = blockIdx.x; tile < units; parity ^= 1) {
      std::int64_t next = 0;
      add_tile<P::UNROLL>(vectors + tile * TILE_VECTORS + threadIdx.x, sum, TILE_VECTORS, [&] {
        if (threadIdx.x == 0) next = claim_next(c);
      });
      if (threadIdx.x == 0) next_tile[parity] = next;
      __syncthreads();  // one barrier per tile: the next tile's number is there for every thread
      tile = next_tile[parity];
    }
  } else if constexpr (P::ORDER == order::strided) {
    static_assert(P::UNIT_VECTORS == TILE_VECTORS, "strided takes whole tiles");
    for (std::int64_t tile = blockIdx.x; tile < units; tile += gridDim.x)
      add_tile<P::UNROLL>(vectors + tile * TILE_VECTORS + threadIdx.x, sum, TILE_VECTORS, nothing);
  } else {  // runs: whole tiles, then one guarded trip for the run's last part of a tile
    const block_run run = run_of(units, P::UNIT_VECTORS, gridDim.x, blockIdx.x);
    const V* p = vectors + run.begin + threadIdx.x;  // this thread's vector of the first tile
    const V* const end_of_tiles = p + run.count / TILE_VECTORS * TILE_VECTORS;
    for (; p != end_of_tiles; p += TILE_VECTORS) add_tile<P::UNROLL>(p, sum, TILE_VECTORS, nothing);
    const int rest = int(run.count % TILE_VECTORS);  // a multiple of a unit: whole warps load
    if (rest > 0) add_tile<P::UNROLL>(p, sum, rest, nothing);  // the same for the whole block
  }
  for (std::int64_t i = units * P::UNIT_VECTORS + thread; i < s.vectors; i += threads) {
    const V v = vectors[i];  // [units * UNIT_VECTORS, vectors): fewer than UNIT_VECTORS
    sum += (v.x + v.y) + (v.z + v.w);
  }
  return sum;
}
//! [loads]

//! [kernel]
// reduce9's kernel with a 64-bit n and this step's loads; the finish is reduce9's. Thread 0 reads
// both counters before the loads: the answers travel while the block loads its first tile.
template <class T, class P>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ in, std::int64_t n, T* out, unsigned long long* slots,
           unsigned long long* counter, unsigned long long* claim_word, unsigned long long stamp) {
  unsigned long long seen = 0;
  claims c{claim_word, stamp & 0xFFFFFFFFull, 0};
  if (threadIdx.x == 0) {
    seen = reduce9::counter_ref(*counter).load(cuda::memory_order_relaxed);
    if constexpr (P::ORDER == order::claimed)
      c.seen = claim_ref(*claim_word).load(cuda::memory_order_relaxed);
  }
  const T sum = reduce7::block_sum<BLOCK_THREADS>(thread_sum<P>(in, n, c));  // in thread 0
  reduce9::finish(sum, seen, out, slots, counter, stamp);
}
//! [kernel]

//! [launch]
// The step and the variants the page measures: how the array is shared out, and the loads in
// flight per thread (UNROLL; a tile is UNROLL x BLOCK_THREADS vectors).
template <order ORDER_, int UNIT_VECTORS_, int UNROLL_>
struct policy {
  static constexpr order ORDER = ORDER_;
  static constexpr int UNIT_VECTORS = UNIT_VECTORS_, UNROLL = UNROLL_;
};
// The step claims 64 KiB tiles, eight loads per thread in flight; with four (32 KiB tiles) it was
// the fastest on the H100, but on the H200 slower than CUB in one pair of runs and at its speed in
// another (see the page).
struct claimed : policy<order::claimed, 8 * BLOCK_THREADS, 8> {};  // the step
struct claimed_unroll4 : policy<order::claimed, 4 * BLOCK_THREADS, 4> {};
struct tiles : policy<order::runs, 4 * BLOCK_THREADS, 4> {};  // reduce8's (and reduce10's)
struct groups : policy<order::runs, GROUP_VECTORS, 4> {};     // equal runs, 512-byte groups
struct strided : policy<order::strided, 4 * BLOCK_THREADS, 4> {};

// The grid that fills the GPU once (reduce8's: SMs x resident blocks), at most one block per
// TILE_ELEMENTS; asked once per device (and again after a reset) for the current device.
template <class V>
cudaError_t query_grid_limit(int& limit) {
  static common::PerDevice<int> cache;
  return cache.get_current(limit, [](int& blocks) {
    int device = 0, sms = 0, per_sm_int32 = 0, per_sm_float = 0;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm_int32, kernel<std::int32_t, V>, BLOCK_THREADS, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_float, kernel<float, V>,
                                                           BLOCK_THREADS, 0));
    blocks = std::min<int>(sms * std::min(per_sm_int32, per_sm_float), int(reduce9::COUNT_MASK));
    return cudaSuccess;
  });
}

template <class V>
int grid_limit() {
  int limit = 0;
  CUDA_CHECK(query_grid_limit<V>(limit));
  return limit;
}

// A pure function, so the host tests can check it at any n: one block per tile, at least one,
// at most max_blocks.
constexpr int grid_for(std::int64_t n, int max_blocks) {
  const std::int64_t tiles = (n + reduce8::TILE_ELEMENTS - 1) / reduce8::TILE_ELEMENTS;
  return int(std::max<std::int64_t>(1, std::min<std::int64_t>(tiles, max_blocks)));
}

// n of at most one tile: one block sums it and writes the result, in an ordinary launch. At such
// sizes the time is the launch and one trip to memory, so two things count: no cluster (a cluster
// launch and its barriers took longer: reduce10's cluster of one block was behind CUB here), and
// every load of a thread issued before the first add (reduce8's loop over the vectors past the
// last whole tile made two or more trips of its loads, one after the other). See the page.
constexpr std::int64_t SINGLE_TILE_ELEMENTS = reduce8::TILE_ELEMENTS;
static_assert(BLOCK_THREADS == reduce8::BLOCK_THREADS, "one trip of one block: a tile");

template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    single_tile_kernel(const T* __restrict__ in, int n, T* out) {
  using V = typename vector4<T>::type;
  const reduce8::vector_split s = reduce8::split_for_vectors(in, n);
  const V* vectors = reinterpret_cast<const V*>(in + s.head);  // 16-byte aligned
  const int t = threadIdx.x;
  V v[reduce8::UNROLL];  // vectors t, t + BLOCK_THREADS, ...: a warp's load reads 512 bytes
#pragma unroll
  for (int u = 0; u < reduce8::UNROLL; ++u)
    v[u] = u * BLOCK_THREADS + t < s.vectors ? vectors[u * BLOCK_THREADS + t] : V{};
  T sum = (t < s.head ? in[t] : T(0)) + (t < n - s.tail ? in[s.tail + t] : T(0));
#pragma unroll
  for (int u = 0; u < reduce8::UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  sum = reduce7::block_sum<BLOCK_THREADS>(sum);  // in thread 0
  if (t == 0) *out = sum;
}

// Does n go to reduce10's cluster? (Its kernel takes an int n; the cluster's n are small.)
inline cudaError_t query_uses_cluster(std::int64_t n, bool& cluster) {
  cluster = false;
  if (n <= SINGLE_TILE_ELEMENTS || n > reduce10::CLUSTER_ELEMENTS) return cudaSuccess;
  return reduce10::query_cluster_available(cluster);
}

// The workspace launch() needs for n on the current device, in elements of T: reduce9's with one
// slot more (the claims' word sits where reduce9's first slot does, at the same place for every
// grid, and the blocks' slots follow it); none for one block or the cluster.
template <class V = claimed>
cudaError_t query_workspace_elements(std::int64_t n, std::size_t& elements) {
  elements = 0;
  bool cluster = false;
  CUDA_TRY(query_uses_cluster(n, cluster));
  if (n <= SINGLE_TILE_ELEMENTS || cluster) return cudaSuccess;
  int limit = 0;
  CUDA_TRY(query_grid_limit<V>(limit));
  elements = reduce9::workspace_elements_for_blocks(grid_for(n, limit) + 1);
  return cudaSuccess;
}

// The same for the programs, which end on a CUDA error.
template <class V = claimed>
std::size_t workspace_elements(std::int64_t n) {
  std::size_t elements = 0;
  CUDA_CHECK(query_workspace_elements<V>(n, elements));
  return elements;
}

// One launch for every n, 0 included, on `stream`: reusable code. It returns the first CUDA
// error (never ends the program) and cudaErrorInvalidValue for a negative n or a missing buffer
// (d_workspace may be null only where query_workspace_elements() says 0). Any alignment of d_in
// works (reduce8's split reads a head and a tail around the 16-byte vectors). Launches that run
// at the same time (two streams) need a workspace each: the claims' word and the counter live
// there. Its caches are kept per device.
template <class T, class V = claimed>
cudaError_t launch(const T* d_in, std::int64_t n, T* d_out, T* d_workspace,
                   cudaStream_t stream = 0) {
  if (n < 0 || d_out == nullptr || (n > 0 && d_in == nullptr)) return cudaErrorInvalidValue;
  if (n <= SINGLE_TILE_ELEMENTS) {
    single_tile_kernel<<<1, BLOCK_THREADS, 0, stream>>>(d_in, int(n), d_out);
    return cudaGetLastError();
  }
  bool cluster = false;
  CUDA_TRY(query_uses_cluster(n, cluster));
  if (cluster) return reduce10::launch_cluster(d_in, int(n), d_out, stream);  // no workspace
  if (d_workspace == nullptr) return cudaErrorInvalidValue;
  int limit = 0;
  CUDA_TRY(query_grid_limit<V>(limit));
  const reduce9::workspace_layout w = reduce9::layout_of(d_workspace);
  unsigned long long* const claim_word = w.slots;
  kernel<T, V><<<grid_for(n, limit), BLOCK_THREADS, 0, stream>>>(
      d_in, n, d_out, w.slots + 1, w.counter, claim_word, reduce9::next_stamp());
  return cudaGetLastError();
}
//! [launch]

// The program's and the tests' variants: the step first, then those the page compares.
// The programs' launch: the step's on the default stream, ending the program on a CUDA error.
template <class T, class V>
void launch_or_exit(const T* d_in, std::int64_t n, T* d_out, T* d_workspace) {
  CUDA_CHECK(launch<T, V>(d_in, n, d_out, d_workspace));
}

template <class V>
common::reduction_step_64 variant(const char* name) {
  return {"reduce11",
          "sum reduction of any n that fits in device memory, one launch",
          workspace_elements<V>,
          launch_or_exit<std::int32_t, V>,
          launch_or_exit<float, V>,
          name};
}
inline std::vector<common::reduction_step_64> variants() {
  return {variant<claimed>("split=claimed"), variant<claimed_unroll4>("unroll=4"),
          variant<tiles>("split=tiles"), variant<groups>("split=groups"),
          variant<strided>("split=strided")};
}

}  // namespace reduce11
