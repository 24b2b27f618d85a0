// scan_pipelined: scan_lookback's single pass, with the look-back off the loads' path (the
//   final step).
// The one idea: a block of scan_lookback holds its tile in registers while it waits for its
//   predecessors; while it waits, it loads nothing. Here a block stays resident and works through
//   a stream of tiles, claimed STAGES ahead from the same atomic counter and bulk-copied by the
//   Hopper TMA unit into shared-memory buffers (cp.async.bulk, completion counted by an mbarrier).
//   Its warps split the work by role: a sum warp publishes each tile's sum as soon as the tile
//   lands, a look-back warp runs scan_lookback's look-back, the tile warps scan the tile while its
//   look-back runs, hand its buffer back for the next claim, then add the prefix and store.
// Changes from the previous step (scan_lookback): a grid of resident blocks (one per SM with the
//   default's 7 x 32 KiB buffers) that loop over tiles; bulk copies into STAGES buffers; three
//   kinds of warps handing tiles on through mbarriers; per-tile bookkeeping in 2 x STAGES slots;
//   the tile warps' barrier a named one (the block scan takes it). The block scan, the look-back
//   (without its second store of the aggregate) and the stores are scan_lookback's. A tile that is
//   not whole, or an array that is not 16-byte aligned, is read with guarded loads instead.
// What limits it: the look-back. One look-back warp per block is busy for most of each tile's
//   round: a look-back is one or two reads of status words, each a slow round trip to L2 under the
//   streaming traffic (measured with an instrumented copy, scan_pipelined_probe; see the page). On
//   the H200 at 2^28 it is past CUB by far but just short of 0.92 of the copy; at 2^21 and 2^22
//   elements it is slower than CUB (the page has the hypothesis: the first claims).
// Run: build/bin/scan_pipelined [--n 2^28] [--inclusive] [--sweep]
// Source: beyond the slides (source 001); Merrill and Garland, "Single-pass Parallel Prefix Scan
//   with Decoupled Look-back" (NVIDIA, 2016) for the look-back; the bulk copies and mbarriers are
//   in the PTX ISA (cp.async.bulk, mbarrier), sections on asynchronous data movement.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chapters/scan/07_scan_lookback/scan_lookback.cuh"
#include "common/check.cuh"
#include "common/scan/program.cuh"

namespace scan_pipelined {

using scan_lookback::look_back;
using scan_lookback::workspace_bytes;
using scan_reduce_then_scan::block_scan;
using scan_reduce_then_scan::load_tile;
using scan_reduce_then_scan::shape;
using scan_reduce_then_scan::store_tile;
using scan_reduce_then_scan::thread_items;
using scan_reduce_then_scan::vector4;
using scan_reduce_then_scan::WARP_THREADS;

// The default: 256 threads x 32 elements (8192-element tiles, 32 KiB of int32 or float), seven
// stages (224 KiB: one block per SM of the H100 or H200), scan_lookback's window of 32 tiles.
using default_shape = shape<256, 8>;
constexpr int DEFAULT_STAGES = 7;
constexpr int DEFAULT_WINDOW = scan_lookback::DEFAULT_WINDOW;
// Tiles per claim: one (a look-back per tile); the sweep also claims two or four consecutive tiles
// at a time, with one look-back for them.
constexpr int DEFAULT_CLAIM = 1;
// The workspace is cleared by a kernel of this step that lets the scan start early (programmatic
// dependent launch); the sweep also clears it with cudaMemsetAsync before the scan is launched.
constexpr bool DEFAULT_EARLY_START = true;
constexpr int BLOCK_THREADS = default_shape::BLOCK_THREADS;
constexpr int TILE_ELEMENTS = default_shape::TILE_ELEMENTS;

//! [bulk]
// The mbarrier of a stage counts one arrival (thread 0's) and the bytes its bulk copy delivers; a
// wait on it returns once both are in, for the phase given by its parity.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrier_init(std::uint64_t* barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(barrier)) : "memory");
}
// Makes the initialized barriers visible to the TMA unit (the async proxy).
__device__ __forceinline__ void barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// Thread 0's arrival; `bytes` more are still to come from a bulk copy (0: none).
__device__ __forceinline__ void barrier_arrive(std::uint64_t* barrier, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ bool barrier_try_wait(std::uint64_t* barrier, unsigned parity) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; "
      "}"
      : "=r"(done)
      : "r"(shared_address(barrier)), "r"(parity)
      : "memory");
  return done != 0;
}
// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global to shared memory
// through the TMA unit; the barrier counts them in when they have landed.
__device__ __forceinline__ void bulk_load(void* to, const void* from, unsigned bytes,
                                          std::uint64_t* barrier) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(shared_address(to)),
      "l"(from), "r"(bytes), "r"(shared_address(barrier))
      : "memory");
}
//! [bulk]

//! [claim]
// A claim from the counter, numbered from `base` on; one thread's claims come back in increasing
// order.
__device__ __forceinline__ std::int64_t claim(unsigned* tile_counter, std::int64_t base) {
  return base + atomicAdd(tile_counter, 1u);
}

// Thread 0 starts the load of the block's claimed `tile` into `stage`. A whole tile of an aligned
// array comes by bulk copy; any other tile is copied in by the tile warps themselves (the barrier
// then counts only thread 0's arrival). Before the bulk copy overwrites the stage, the fence
// orders the threads' earlier reads of it (generic proxy) before the copy (async proxy).
template <class S, class T>
__device__ void request(int stage, int slot, std::int64_t tile, const T* in, std::int64_t n,
                        std::int64_t tiles, bool bulk_possible, T* stage_data,
                        std::int64_t* slot_tile, std::uint64_t* landed) {
  slot_tile[slot] = tile;
  const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
  if (tile < tiles && bulk_possible && tile_base + S::TILE_ELEMENTS <= n) {
    constexpr unsigned TILE_BYTES = S::TILE_ELEMENTS * sizeof(T);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    barrier_arrive(&landed[stage], TILE_BYTES);
    bulk_load(stage_data + std::int64_t(stage) * S::TILE_ELEMENTS, in + tile_base, TILE_BYTES,
              &landed[stage]);
  } else {
    barrier_arrive(&landed[stage], 0);
  }
}
//! [claim]

// The shared state of a block: STAGES tile buffers, each with a barrier (its bytes have landed),
// and SLOTS = 2 STAGES slots of a tile's bookkeeping: which tile, its sum, its prefix, and two
// barriers (its sum is known; its prefix is known). The block's i-th tile uses buffer i % STAGES
// and slot i % SLOTS: a buffer is refilled as soon as the tile warps have its tile in registers,
// while the tile's look-back may still be running on its slot; the slot is reused only by tile
// i + SLOTS, requested after tile i + STAGES is done (so after tile i's prefix has been used).
template <class S, int STAGES, class T>
struct pipeline_state {
  static constexpr int SLOTS = 2 * STAGES;
  std::uint64_t landed[STAGES], total_known[SLOTS], prefix_known[SLOTS];
  std::int64_t tile[SLOTS];
  T total[SLOTS], prefix[SLOTS];
  T warp_totals[S::WARPS];
};

// The barrier of the tile warps only (named barrier 1): the look-back warp never joins it.
template <class S>
struct tile_warps_barrier {
  __device__ void operator()() const {
    asm volatile("bar.sync 1, %0;" ::"n"(S::BLOCK_THREADS) : "memory");
  }
};

// Waits for phase `phase` of a barrier to complete. The parity names the phase: no barrier runs
// two phases ahead of a waiter, since a buffer is refilled only once every warp has read its tile
// and a slot is reused only once its tile's prefix has been used.
__device__ __forceinline__ void wait(std::uint64_t* barrier, unsigned phase) {
  while (!barrier_try_wait(barrier, phase & 1u)) {
  }
}

template <class S>
__device__ bool whole_bulk_tile(std::int64_t tile, std::int64_t n, bool bulk_possible) {
  return bulk_possible && (tile + 1) * S::TILE_ELEMENTS <= n;
}

// This thread's items of the tile in a stage.
template <class S, class T>
__device__ thread_items<S, T> read_stage(const T* stage) {
  using V = typename vector4<T>::type;
  thread_items<S, T> t;
  const T* p = stage + scan_reduce_then_scan::thread_offset<S>();
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v) {
    const V x = *reinterpret_cast<const V*>(p + v * S::CHUNK_ELEMENTS);
    t.items[v][0] = x.x, t.items[v][1] = x.y, t.items[v][2] = x.z, t.items[v][3] = x.w;
  }
  return t;
}

// The sum of a tile, by one warp, in every lane: from its stage when it came by bulk copy, else
// from global memory (the last tile, or arrays not 16-byte aligned), elements past n as 0.
template <class S, class T>
__device__ T warp_sum_of_tile(const T* stage, const T* in, std::int64_t n, std::int64_t tile,
                              bool vector_io) {
  using V = typename vector4<T>::type;
  const int lane = threadIdx.x % WARP_THREADS;
  T sum = T(0);
  if (whole_bulk_tile<S>(tile, n, vector_io)) {
#pragma unroll 8
    for (int k = lane; k < S::TILE_ELEMENTS / 4; k += WARP_THREADS) {
      const V x = reinterpret_cast<const V*>(stage)[k];
      sum += (x.x + x.y) + (x.z + x.w);
    }
  } else {
    const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
    for (int k = lane; k < S::TILE_ELEMENTS; k += WARP_THREADS)
      if (tile_base + k < n) sum += in[tile_base + k];
  }
  return scan_reduce_then_scan::warp_sum(sum);
}

// A position in a ring of buffers or slots, and the phase of its barrier: the parity of the
// times the position has gone round (counted this way, not with % and /, whose divisors are known
// only at run time).
struct ring {
  int index = 0;
  unsigned phase = 0;
  __device__ void advance(int size) {
    if (++index == size) index = 0, phase ^= 1u;
  }
};

//! [early]
// Clears the workspace, then lets the kernel that depends on it start early: the scan kernel,
// launched with programmatic dependent launch, sets up its blocks and loads its first tiles while
// this grid finishes, and waits for it (grid_dependency_wait) before it touches the workspace.
__global__ void clear_workspace(unsigned long long* words, std::int64_t count) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    words[i] = 0;
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
// Returns once the grids this one depends on have completed and their stores are visible (at once
// when it was not launched as a dependent).
__device__ __forceinline__ void grid_dependency_wait() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
//! [early]

//! [kernel]
// A grid of resident blocks, each of three kinds of warps that work through the block's tiles in
// the order they were claimed, CLAIM consecutive tiles per claim, handing each tile on through the
// barriers of its buffer and slot:
//   - the sum warp: waits until the tile has landed, sums it; at the claim's last tile it publishes
//     the claim's sum (AGGREGATE): to the look-backs a claim is one tile;
//   - the look-back warp: scan_lookback's look_back for the claim, once its sum is known, then each
//     tile's prefix (the claim's, plus the sums of its tiles before);
//   - the tile warps (S::BLOCK_THREADS threads): scan the tile from its buffer while the look-back
//     runs, request a new tile into the buffer, then, once the prefix is known, add it and store.
// So a claim's sum is published as soon as its bytes are in, whatever the look-backs are doing, and
// every buffer is loading while a tile waits for its prefix. The smallest claim without a prefix
// belongs to a block whose sum warp has published its sum (each of its tiles was requested before
// the tile warps wait for a prefix of it, and lands) and whose look-back warp is on it (its
// earlier claims have prefixes): no deadlock.
template <class S, int STAGES, int WINDOW, bool INCLUSIVE, class T, int CLAIM, bool EARLY_START>
__global__ void __launch_bounds__(S::BLOCK_THREADS + 2 * WARP_THREADS)
    kernel(const T* in, std::int64_t n, T* out, unsigned* tile_counter, unsigned long long* status,
           bool vector_io) {
  static_assert(STAGES >= 2, "a request reaches the tile warps through a later round's barrier");
  static_assert(STAGES >= CLAIM, "a claim's tiles are in flight together");
  using state = pipeline_state<S, STAGES, T>;
  constexpr int SLOTS = state::SLOTS;
  extern __shared__ __align__(128) unsigned char stages_raw[];  // STAGES tiles
  T* const stage_data = reinterpret_cast<T*>(stages_raw);
  __shared__ state ps;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;
  const int warp = threadIdx.x / WARP_THREADS, lane = threadIdx.x % WARP_THREADS;
  // Tiles in flight per block: STAGES, but no more than the tiles per block, so that when there
  // are few tiles per block the blocks that start first do not claim a burst of them while the
  // others run dry; and at least two and a whole claim, so that the last tile of a claim is
  // requested before the tile warps wait for the claim's prefix. The block's i-th tile uses buffer
  // i % depth, slot i % slots.
  constexpr int MIN_DEPTH = CLAIM > 2 ? CLAIM : 2;
  const std::int64_t tiles_per_block = (tiles + gridDim.x - 1) / gridDim.x;
  const int depth = tiles_per_block >= STAGES      ? STAGES
                    : tiles_per_block <= MIN_DEPTH ? MIN_DEPTH
                                                   : int(tiles_per_block);
  const int slots = 2 * depth;
  const std::int64_t claim_base = EARLY_START ? gridDim.x : 0;
  constexpr int LOOK_BACK_WARP = S::WARPS, SUM_WARP = S::WARPS + 1;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) barrier_init(&ps.landed[s]);
    for (int k = 0; k < SLOTS; ++k) {
      barrier_init(&ps.total_known[k]);
      barrier_init(&ps.prefix_known[k]);
    }
    barrier_init_fence();
    // The first claim alone, so that every block gets one of the first claims (a small n has
    // about one per block); the others back to back: two waits for the counter, not depth. With
    // an early start the first claim of block b is claim b, taken without the counter (every
    // block holds one: they are all resident), so that its load goes out before the workspace is
    // known to be clear; the counter then numbers the claims from gridDim.x on.
    std::int64_t claimed =  // the first tile of the latest claim
        CLAIM * (EARLY_START ? std::int64_t(blockIdx.x) : claim(tile_counter, claim_base));
    request<S>(0, 0, claimed, in, n, tiles, vector_io, stage_data, ps.tile, ps.landed);
    if constexpr (EARLY_START) grid_dependency_wait();
    std::int64_t next_claims[STAGES];
    for (int s = 1; s < depth; ++s)
      if (s % CLAIM == 0) next_claims[s] = CLAIM * claim(tile_counter, claim_base);
    for (int s = 1; s < depth; ++s) {
      if (s % CLAIM == 0) claimed = next_claims[s];
      request<S>(s, s, claimed + s % CLAIM, in, n, tiles, vector_io, stage_data, ps.tile,
                 ps.landed);
    }
  }
  __syncthreads();  // the only barrier of all threads: barriers initialized, tiles claimed
  if constexpr (EARLY_START) grid_dependency_wait();  // before this thread's status words

  if (warp == SUM_WARP) {
    ring buffer, slot;
    T claim_total = T(0);  // of the claim's tiles so far
    for (;; buffer.advance(depth), slot.advance(slots)) {
      wait(&ps.landed[buffer.index], buffer.phase);
      const std::int64_t tile = ps.tile[slot.index];
      const T total = tile < tiles ? warp_sum_of_tile<S>(
                                         stage_data + std::int64_t(buffer.index) * S::TILE_ELEMENTS,
                                         in, n, tile, vector_io)
                                   : T(0);
      claim_total += total;
      if (lane == 0) {
        ps.total[slot.index] = total;
        // The claim's last tile (possibly past the array's end, its first tile not): its sum is
        // the aggregate of the claim, which the look-backs see as one tile.
        if (tile % CLAIM == CLAIM - 1 && tile - (CLAIM - 1) < tiles)
          scan_lookback::publish(&status[tile / CLAIM], scan_lookback::STATUS_AGGREGATE,
                                 claim_total);
      }
      if (tile % CLAIM == CLAIM - 1) claim_total = T(0);
      __syncwarp();  // every lane has read the buffer
      if (lane == 0) barrier_arrive(&ps.total_known[slot.index], 0);
      if (tile >= tiles) return;
    }
  }
  if (warp == LOOK_BACK_WARP) {
    for (ring slot;; slot.advance(slots)) {  // the claim's first tile, then its last one
      wait(&ps.total_known[slot.index], slot.phase);
      const ring first = slot;
      const std::int64_t tile = ps.tile[first.index];
      if (tile >= tiles) return;
      T claim_total = ps.total[first.index];
      for (int j = 1; j < CLAIM; ++j) {
        slot.advance(slots);
        wait(&ps.total_known[slot.index], slot.phase);
        claim_total += ps.total[slot.index];
      }
      // The sum warp has published the aggregate: a second store of it here, just before the
      // window's loads, made every look-back slower (see the page).
      T prefix = look_back<WINDOW, false>(status, tile / CLAIM, claim_total);
      if (lane == 0) {
        ring k = first;
        for (int j = 0; j < CLAIM; ++j, k.advance(slots)) {  // the claim's prefix, then plus the
          ps.prefix[k.index] = prefix;                       // sums of the tiles before
          prefix += ps.total[k.index];
          barrier_arrive(&ps.prefix_known[k.index], 0);
        }
      }
      if (tile + CLAIM >= tiles) return;  // the last claim with a tile: the sum warp stops there
    }
  }

  const tile_warps_barrier<S> tile_barrier;
  ring buffer, slot;
  for (int i = 0;; ++i, buffer.advance(depth), slot.advance(slots)) {  // the tile warps
    const std::int64_t tile = ps.tile[slot.index];
    if (tile >= tiles) return;
    const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
    wait(&ps.landed[buffer.index], buffer.phase);
    thread_items<S, T> t =
        whole_bulk_tile<S>(tile, n, vector_io)
            ? read_stage<S>(stage_data + std::int64_t(buffer.index) * S::TILE_ELEMENTS)
            : load_tile<S>(in, n, tile_base, vector_io);
    block_scan<INCLUSIVE>(t, ps.warp_totals, tile_barrier);  // while the look-back runs
    tile_barrier();  // every tile thread has read the buffer and ps.warp_totals
    // The tile is in registers: thread 0 requests the block's tile i + depth into its buffer
    // (once the sum warp is done with it too), before the prefix of tile i is known: the first
    // tile of a new claim, or the tile after its predecessor's. The other tile threads see the new
    // slot through the barriers of the rounds in between (depth >= 2).
    if (threadIdx.x == 0) {
      wait(&ps.total_known[slot.index], slot.phase);
      const int next_slot = slot.index + depth < slots ? slot.index + depth : slot.index - depth;
      const std::int64_t next_tile = (i + depth) % CLAIM == 0
                                         ? CLAIM * claim(tile_counter, claim_base)
                                         : ps.tile[next_slot == 0 ? slots - 1 : next_slot - 1] + 1;
      request<S>(buffer.index, next_slot, next_tile, in, n, tiles, vector_io, stage_data, ps.tile,
                 ps.landed);
    }
    wait(&ps.prefix_known[slot.index], slot.phase);
    const T prefix = ps.prefix[slot.index];
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) t.items[v][j] += prefix;
    store_tile(out, n, tile_base, vector_io, t);
  }
}
//! [kernel]

//! [launch]
template <class S, int STAGES, class T>
constexpr std::size_t stage_bytes() {
  return std::size_t(STAGES) * S::TILE_ELEMENTS * sizeof(T);
}

// As many blocks as fit on the GPU at once (never more than there are tiles): the blocks loop.
template <class S, int STAGES, int WINDOW, bool INCLUSIVE, class T, int CLAIM = DEFAULT_CLAIM,
          bool EARLY_START = DEFAULT_EARLY_START>
int resident_blocks() {
  static const int blocks = [] {
    auto* k = kernel<S, STAGES, WINDOW, INCLUSIVE, T, CLAIM, EARLY_START>;
    constexpr std::size_t bytes = stage_bytes<S, STAGES, T>();
    CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, k, S::BLOCK_THREADS + 2 * WARP_THREADS, bytes));
    return sms * std::max(per_sm, 1);
  }();
  return blocks;
}

// The workspace: scan_lookback's (the counter, one status word per tile) for this step's tiles or
// for scan_lookback's own smaller ones, whichever is larger (small n go to its kernel).
template <class S>
std::size_t launch_workspace_bytes(std::int64_t n) {
  return std::max(workspace_bytes<S>(n), workspace_bytes<scan_lookback::default_shape>(n));
}

// d_out[0, n) = the exclusive (or inclusive) scan of d_in[0, n); d_in may equal d_out. d_workspace:
// launch_workspace_bytes<S>(n), any content. With at most one tile per resident block there is
// nothing to pipeline: scan_lookback's kernel, which sets up no stages, does those n.
template <class T, bool INCLUSIVE = false, class S = default_shape, int STAGES = DEFAULT_STAGES,
          int WINDOW = DEFAULT_WINDOW, int CLAIM = DEFAULT_CLAIM,
          bool EARLY_START = DEFAULT_EARLY_START>
void launch(const T* d_in, std::int64_t n, T* d_out, void* d_workspace) {
  if (n == 0) return;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;  // < 2^31 for n < 2^40
  const int resident = resident_blocks<S, STAGES, WINDOW, INCLUSIVE, T, CLAIM, EARLY_START>();
  if (tiles <= resident) {
    scan_lookback::launch<T, INCLUSIVE>(d_in, n, d_out, d_workspace);
    return;
  }
  auto* tile_counter = static_cast<unsigned*>(d_workspace);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(d_workspace) + 8);
  const bool vector_io = scan_reduce_then_scan::vector_io_possible(d_in, d_out);
  auto* k = kernel<S, STAGES, WINDOW, INCLUSIVE, T, CLAIM, EARLY_START>;
  const unsigned threads = S::BLOCK_THREADS + 2 * WARP_THREADS;
  const std::size_t bytes = workspace_bytes<S>(n);  // the counter's 8 bytes and the status words
  if constexpr (!EARLY_START) {
    CUDA_CHECK(cudaMemsetAsync(d_workspace, 0, bytes, 0));
    k<<<resident, threads, stage_bytes<S, STAGES, T>()>>>(d_in, n, d_out, tile_counter, status,
                                                          vector_io);
    CUDA_CHECK_LAUNCH();
    return;
  }
  const std::int64_t words = std::int64_t(bytes / 8);
  clear_workspace<<<unsigned(std::min<std::int64_t>((words + 255) / 256, 1024)), 256>>>(
      static_cast<unsigned long long*>(d_workspace), words);
  CUDA_CHECK_LAUNCH();
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(resident));
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = stage_bytes<S, STAGES, T>();
  config.stream = 0;
  cudaLaunchAttribute early[1] = {};
  early[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = early;
  config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&config, k, d_in, n, d_out, tile_counter, status, vector_io));
}
//! [launch]

// The program's and the tests' variant of one configuration: exclusive and inclusive, both types.
template <int THREADS, int VECTORS, int STAGES, int WINDOW = DEFAULT_WINDOW,
          int CLAIM = DEFAULT_CLAIM, bool EARLY_START = DEFAULT_EARLY_START>
common::scan_variant pipeline_variant() {
  using S = shape<THREADS, VECTORS>;
  common::scan_variant v;
  v.name = "block=" + std::to_string(THREADS) + " items=" + std::to_string(S::ITEMS) +
           " stages=" + std::to_string(STAGES) + " window=" + std::to_string(WINDOW) +
           " claim=" + std::to_string(CLAIM) + (EARLY_START ? " start=early" : " start=memset");
  v.exclusive_int32 = launch<std::int32_t, false, S, STAGES, WINDOW, CLAIM, EARLY_START>;
  v.exclusive_float = launch<float, false, S, STAGES, WINDOW, CLAIM, EARLY_START>;
  v.inclusive_int32 = launch<std::int32_t, true, S, STAGES, WINDOW, CLAIM, EARLY_START>;
  v.inclusive_float = launch<float, true, S, STAGES, WINDOW, CLAIM, EARLY_START>;
  v.workspace_bytes = launch_workspace_bytes<S>;
  return v;
}

// The program's and the tests' variants: the default first, then the others the sweep measures.
inline std::vector<common::scan_variant> variants() {
  return {pipeline_variant<default_shape::BLOCK_THREADS, default_shape::VECTORS, DEFAULT_STAGES>(),
          pipeline_variant<256, 8, 7, DEFAULT_WINDOW, 1, false>(),  // cleared by cudaMemsetAsync
          pipeline_variant<256, 8, 7, DEFAULT_WINDOW, 2>(),  // two tiles per claim and look-back
          pipeline_variant<256, 8, 7, DEFAULT_WINDOW, 4>(),
          pipeline_variant<256, 8, 6>(),
          pipeline_variant<256, 8, 3>(),
          pipeline_variant<512, 4, 7>(),
          pipeline_variant<256, 8, 7, 64>(),
          pipeline_variant<256, 4, 7>(),
          pipeline_variant<256, 4, 7, DEFAULT_WINDOW, 2>(),
          pipeline_variant<128, 8, 7>(),
          pipeline_variant<512, 8, 3>()};
}

}  // namespace scan_pipelined
