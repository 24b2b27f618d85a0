// scan_pipelined: scan_lookback's single pass, with the look-back off the loads' path (the
//   final step).
// The one idea: a block of scan_lookback holds its tile in registers while it waits for its
//   predecessors; while it waits, it loads nothing. Here a block stays resident and works through
//   a stream of tiles, taken STAGES ahead (the first STAGES dealt, the rest claimed from the same
//   atomic counter) and bulk-copied by the Hopper TMA unit into shared-memory buffers
//   (cp.async.bulk, completion counted by an mbarrier).
//   Its warps split the work by role: a sum warp publishes each tile's sum as soon as the tile
//   lands, a look-back warp runs scan_lookback's look-back, the tile warps scan the tile while its
//   look-back runs, hand its buffer back for the next claim, then add the prefix and store.
// Changes from the previous step (scan_lookback): a grid of resident blocks (one per SM with the
//   default's 7 x 32 KiB buffers) that loop over tiles; bulk copies into STAGES buffers; three
//   kinds of warps handing tiles on through mbarriers; per-tile bookkeeping in 2 x STAGES slots;
//   the tile warps' barrier a named one (the block scan takes it); a cooperative launch (every
//   block resident), so that the first tiles can be dealt and the kernel clears its own workspace
//   while they load, behind a grid barrier, instead of a clearing launch before it. The block scan,
//   the look-back (without its second store of the aggregate) and the stores are scan_lookback's.
//   An array that is not 16-byte aligned is read with guarded loads instead; of a last tile that is
//   not whole, the whole 16-byte vectors come by bulk copy and the last 0 to 3 elements by loads.
//   An n of at most one small tile takes a single block in an ordinary launch; in a band of middle
//   sizes each block scans one large tile (one_large_tile_per_block). Where the pipeline's sm_90
//   code does not run (a GPU older than Hopper, or a build without sm_90 code), or its stages do
//   not fit in shared memory, the same single pass runs without the pipeline: scan_lookback's
//   kernel (launch_portable, the portable path). The launch functions take a stream and return
//   a cudaError_t; they never end the process.
// What limits it: the look-back. One look-back warp per block is busy for most of each tile's
//   round: a look-back is one or two reads of status words, each a slow round trip to L2 under the
//   streaming traffic (measured with an instrumented copy, scan_pipelined_probe; see the page); yet
//   a form with half as many look-backs was no faster at 2^28 (the runs page). At 2^28 it is past
//   CUB by far and near the copy yardstick, at 2^21 elements about at CUB's speed (the page's
//   results); the size bands and the single block's figures are on the runs page. Without the
//   Hopper pipeline (an older GPU or build) the portable path is scan_lookback's single pass.
// Files: this one (the pipeline and its launch); bulk_copy.cuh (the Hopper instructions it loads
//   with), resident_launch.cuh (grids of resident blocks), tuning.cuh (the sizes and shapes the
//   launch picks by, with their provenance), variants.cuh (the program's and the tests' variants).
// Run: build/bin/scan_pipelined [--n 2^28] [--inclusive] [--sweep]
// Source: beyond the slides (source 001); Merrill and Garland, "Single-pass Parallel Prefix Scan
//   with Decoupled Look-back" (NVIDIA, 2016) for the look-back; the bulk copies and mbarriers are
//   in the PTX ISA (cp.async.bulk, mbarrier), sections on asynchronous data movement.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "chapters/scan/07_scan_lookback/scan_lookback.cuh"
#include "chapters/scan/08_scan_pipelined/bulk_copy.cuh"
#include "chapters/scan/08_scan_pipelined/resident_launch.cuh"
#include "chapters/scan/08_scan_pipelined/tuning.cuh"
#include "common/check.cuh"
#include "common/preconditions.hpp"
#include "common/per_device.cuh"

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

//! [claim]
// The block's r-th tile (r = 0, 1, ...), in increasing order. The first STAGES are dealt
// round-robin over the grid (block b gets b, b + blocks, ...): a small n is spread evenly over the
// blocks, and no block waits for the counter to start. Every later tile is claimed from the
// counter, so that a block whose tiles go faster takes more of them. Dealing needs the whole grid
// resident at once (a cooperative launch): the block a tile is dealt to must be running.
template <int STAGES>
struct tile_source {
  unsigned* counter;
  __device__ std::int64_t operator()(std::int64_t r) const {
    if (r < STAGES) return blockIdx.x + r * gridDim.x;
    return std::int64_t(STAGES) * gridDim.x + atomicAdd(counter, 1u);
  }
};

template <class S>
__device__ bool whole_bulk_tile(std::int64_t tile, std::int64_t n, bool bulk_possible) {
  return bulk_possible && (tile + 1) * S::TILE_ELEMENTS <= n;
}

// Of the last tile, when it is not whole (of an aligned array), the elements that come by bulk
// copy: its whole 16-byte vectors. Its last 0 to 3 elements are read from global memory.
template <class S>
__device__ int staged_of_last_tile(std::int64_t tile, std::int64_t n, bool bulk_possible) {
  const std::int64_t left = n - tile * S::TILE_ELEMENTS;
  return bulk_possible && left > 0 && left < S::TILE_ELEMENTS ? int(left) & ~3 : 0;
}

// Thread 0 starts the load of the block's claimed `tile` into `stage`. A whole tile of an aligned
// array comes by bulk copy, and so do the whole 16-byte vectors of a last tile that is not whole;
// the rest (the last few elements, or every element of an array not 16-byte aligned) the warps read
// from global memory themselves (with nothing to copy, the barrier counts only thread 0's
// arrival). Before the bulk copy overwrites the stage, the fence orders the threads' earlier reads
// of it (generic proxy) before the copy (async proxy).
template <class S, class T>
__device__ void request(int stage, int slot, std::int64_t tile, const T* in, std::int64_t n,
                        std::int64_t tiles, bool bulk_possible, T* stage_data,
                        std::int64_t* slot_tile, std::uint64_t* landed) {
  slot_tile[slot] = tile;
  const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
  const unsigned bytes = tile >= tiles ? 0u
                         : whole_bulk_tile<S>(tile, n, bulk_possible)
                             ? unsigned(S::TILE_ELEMENTS * sizeof(T))
                             : unsigned(staged_of_last_tile<S>(tile, n, bulk_possible) * sizeof(T));
  if (bytes > 0) {
    async_proxy_fence();
    barrier_arrive(&landed[stage], bytes);
    bulk_load(stage_data + std::int64_t(stage) * S::TILE_ELEMENTS, in + tile_base, bytes,
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
__device__ __forceinline__ void wait(std::uint64_t* barrier, int phase) {
  while (!barrier_try_wait(barrier, unsigned(phase) & 1u)) {
  }
}

// Thread 0's start of the pipeline: every barrier initialized, the block's first STAGES tiles
// (next_tile(0), next_tile(1), ...) requested.
template <class S, int STAGES, class T, class TileSource>
__device__ void start_pipeline(pipeline_state<S, STAGES, T>& ps, TileSource next_tile, const T* in,
                               std::int64_t n, std::int64_t tiles, bool vector_io, T* stage_data) {
  for (int s = 0; s < STAGES; ++s) barrier_init(&ps.landed[s]);
  for (int k = 0; k < pipeline_state<S, STAGES, T>::SLOTS; ++k) {
    barrier_init(&ps.total_known[k]);
    barrier_init(&ps.prefix_known[k]);
  }
  barrier_init_fence();
  for (int s = 0; s < STAGES; ++s)
    request<S>(s, s, next_tile(s), in, n, tiles, vector_io, stage_data, ps.tile, ps.landed);
}

//! [clear]
// Every thread of the grid, once its block's first tiles are requested (they need no workspace):
// clears the counter and the tiles' status words, then waits at the grid's barrier, which orders
// every clearing store before any claim, publication or look-back (and is also the block's barrier:
// thread 0 has initialized the mbarriers). No clearing launch before the kernel, so no launch gap.
__device__ inline void clear_workspace(unsigned* tile_counter, unsigned long long* status,
                                       std::int64_t tiles) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *tile_counter = 0;
  for (std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < tiles;
       t += std::int64_t(gridDim.x) * blockDim.x)
    status[t] = scan_lookback::STATUS_INVALID;
  cooperative_groups::this_grid().sync();
}
//! [clear]

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

// This lane's part of the sum of a stage's first `vectors` 16-byte vectors (lane, lane + 32, ...).
template <class T>
__device__ __forceinline__ T lane_sum_of_staged(const T* stage, int vectors) {
  using V = typename vector4<T>::type;
  T sum = T(0);
#pragma unroll 8
  for (int k = threadIdx.x % WARP_THREADS; k < vectors; k += WARP_THREADS) {
    const V x = reinterpret_cast<const V*>(stage)[k];
    sum += (x.x + x.y) + (x.z + x.w);
  }
  return sum;
}

//! [last_tile]
// This thread's items of a tile that did not come whole by bulk copy: the last tile, when it is not
// whole, or any tile of an array not 16-byte aligned. Staged vectors (see request) from the stage,
// the other elements from global memory, those past n as 0; the staged elements are a multiple of
// 4, so each vector is staged whole or not at all. Out of line, so that the whole tiles' code stays
// as it was.
template <class S, class T>
__device__ __noinline__ thread_items<S, T> read_other_tile(const T* stage, const T* in,
                                                           std::int64_t n, std::int64_t tile,
                                                           bool vector_io) {
  using V = typename vector4<T>::type;
  const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
  const int staged = staged_of_last_tile<S>(tile, n, vector_io);
  if (staged == 0) return load_tile<S>(in, n, tile_base, vector_io);
  thread_items<S, T> t;
  const int first = scan_reduce_then_scan::thread_offset<S>();
#pragma unroll
  for (int v = 0; v < S::VECTORS; ++v) {
    const int offset = first + v * S::CHUNK_ELEMENTS;
    if (offset < staged) {
      const V x = *reinterpret_cast<const V*>(stage + offset);
      t.items[v][0] = x.x, t.items[v][1] = x.y, t.items[v][2] = x.z, t.items[v][3] = x.w;
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        t.items[v][j] = tile_base + offset + j < n ? in[tile_base + offset + j] : T(0);
    }
  }
  return t;
}

// This lane's part of the same tile's sum: its staged vectors from the stage, its other elements
// below n from global memory. Out of line too.
template <class S, class T>
__device__ __noinline__ T lane_sum_of_other_tile(const T* stage, const T* in, std::int64_t n,
                                                 std::int64_t tile, bool vector_io) {
  const int staged = staged_of_last_tile<S>(tile, n, vector_io);
  T sum = lane_sum_of_staged(stage, staged / 4);
  const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
  const int count = n - tile_base < S::TILE_ELEMENTS ? int(n - tile_base) : S::TILE_ELEMENTS;
  for (int k = staged + threadIdx.x % WARP_THREADS; k < count; k += WARP_THREADS)
    sum += in[tile_base + k];
  return sum;
}

//! [last_tile]

// This thread's items of `tile`.
template <class S, class T>
__device__ thread_items<S, T> read_tile(const T* stage, const T* in, std::int64_t n,
                                        std::int64_t tile, bool vector_io) {
  return whole_bulk_tile<S>(tile, n, vector_io) ? read_stage<S>(stage)
                                                : read_other_tile<S>(stage, in, n, tile, vector_io);
}

// The sum of a tile, by one warp, in every lane: from its stage when it came whole by bulk copy,
// else as read_other_tile reads it.
template <class S, class T>
__device__ T warp_sum_of_tile(const T* stage, const T* in, std::int64_t n, std::int64_t tile,
                              bool vector_io) {
  const T sum = whole_bulk_tile<S>(tile, n, vector_io)
                    ? lane_sum_of_staged(stage, S::TILE_ELEMENTS / 4)
                    : lane_sum_of_other_tile<S>(stage, in, n, tile, vector_io);
  return scan_reduce_then_scan::warp_sum(sum);
}

//! [kernel]
// A grid of resident blocks, each of three kinds of warps that work through the block's tiles in
// the order the block took them, handing each tile on through the barriers of its buffer and slot:
//   - the sum warp: waits until the tile has landed, sums it, publishes its sum (AGGREGATE);
//   - the look-back warp: scan_lookback's look_back for the tile, once its sum is known;
//   - the tile warps (S::BLOCK_THREADS threads): scan the tile from its buffer while the look-back
//     runs, take the block's next tile into the buffer, then, once the prefix is known, add it and
//     store.
// So a tile's sum is published as soon as its bytes are in, whatever the look-backs are doing, and
// every buffer is loading while a tile waits for its prefix. The smallest tile without a prefix
// belongs to a running block (the launch is cooperative: every block is resident) whose sum warp
// has published its sum (every tile taken lands) and whose look-back warp is on it (its earlier
// tiles have prefixes): no deadlock.
template <class S, int STAGES, int WINDOW, bool INCLUSIVE, class T>
__global__ void __launch_bounds__(S::BLOCK_THREADS + 2 * WARP_THREADS)
    kernel(const T* in, std::int64_t n, T* out, unsigned* tile_counter, unsigned long long* status,
           bool vector_io) {
  static_assert(STAGES >= 2, "a request reaches the tile warps through a later round's barrier");
  using state = pipeline_state<S, STAGES, T>;
  constexpr int SLOTS = state::SLOTS;
  extern __shared__ __align__(128) unsigned char stages_raw[];  // STAGES tiles
  T* const stage_data = reinterpret_cast<T*>(stages_raw);
  __shared__ state ps;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;
  const int warp = threadIdx.x / WARP_THREADS, lane = threadIdx.x % WARP_THREADS;
  constexpr int LOOK_BACK_WARP = S::WARPS, SUM_WARP = S::WARPS + 1;

  const tile_source<STAGES> next_tile{tile_counter};
  if (threadIdx.x == 0) start_pipeline(ps, next_tile, in, n, tiles, vector_io, stage_data);
  clear_workspace(tile_counter, status, tiles);  // while the dealt tiles load

  if (warp == SUM_WARP) {
    for (int i = 0;; ++i) {
      const int s = i % STAGES, k = i % SLOTS;
      wait(&ps.landed[s], i / STAGES);
      const std::int64_t tile = ps.tile[k];
      if (tile < tiles) {
        const T total = warp_sum_of_tile<S>(stage_data + std::int64_t(s) * S::TILE_ELEMENTS, in, n,
                                            tile, vector_io);
        if (lane == 0) {
          scan_lookback::publish(&status[tile], scan_lookback::STATUS_AGGREGATE, total);
          ps.total[k] = total;
        }
      }
      __syncwarp();  // every lane has read the buffer
      if (lane == 0) barrier_arrive(&ps.total_known[k], 0);
      if (tile >= tiles) return;
    }
  }
  if (warp == LOOK_BACK_WARP) {
    for (int i = 0;; ++i) {
      const int k = i % SLOTS;
      wait(&ps.total_known[k], i / SLOTS);
      const std::int64_t tile = ps.tile[k];
      if (tile >= tiles) return;
      // The sum warp has published the aggregate: a second store of it here, just before the
      // window's loads, made every look-back slower (see the page).
      const T prefix = look_back<WINDOW, false>(status, tile, ps.total[k]);
      if (lane == 0) {
        ps.prefix[k] = prefix;
        barrier_arrive(&ps.prefix_known[k], 0);
      }
    }
  }

  const tile_warps_barrier<S> tile_barrier;
  for (int i = 0;; ++i) {  // the tile warps
    const int s = i % STAGES, k = i % SLOTS;
    const std::int64_t tile = ps.tile[k];
    if (tile >= tiles) return;
    const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
    wait(&ps.landed[s], i / STAGES);
    thread_items<S, T> t =
        read_tile<S>(stage_data + std::int64_t(s) * S::TILE_ELEMENTS, in, n, tile, vector_io);
    block_scan<INCLUSIVE>(t, ps.warp_totals, tile_barrier);  // while the look-back runs
    tile_barrier();  // every tile thread has read the buffer and ps.warp_totals
    // The tile is in registers: thread 0 takes the block's tile i + STAGES into its buffer (once
    // the sum warp is done with it too), before the prefix of tile i is known. The other tile
    // threads see the new slot through the barriers of the rounds in between (STAGES >= 2).
    if (threadIdx.x == 0) {
      wait(&ps.total_known[k], i / SLOTS);
      request<S>(s, (i + STAGES) % SLOTS, next_tile(i + STAGES), in, n, tiles, vector_io,
                 stage_data, ps.tile, ps.landed);
    }
    wait(&ps.prefix_known[k], i / SLOTS);
    const T prefix = ps.prefix[k];
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) t.items[v][j] += prefix;
    store_tile(out, n, tile_base, vector_io, t);
  }
}
//! [kernel]

//! [launch]
// The launch functions' convention (every final step's): they return the first CUDA error as a
// cudaError_t and never end the process; everything runs on `stream` (no synchronization inside);
// cudaErrorInvalidValue for arguments that break the preconditions (check_arguments), and
// cudaErrorNotSupported for a pipelined configuration asked for where its code does not run.
template <class S, int STAGES, class T>
constexpr std::size_t stage_bytes() {
  return std::size_t(STAGES) * S::TILE_ELEMENTS * sizeof(T);
}

// The preconditions (cudaErrorInvalidValue if one fails): n >= 0; for n > 0 the arrays and the
// workspace not null, the arrays aligned to T (any element offset from 16 bytes is fine: such
// arrays are read without vector loads) and the workspace to 8 bytes; d_out either d_in itself
// (in place) or apart from it (a partial overlap would overwrite input not read yet); the workspace
// (`workspace` bytes) apart from both.
template <class T>
cudaError_t check_arguments(const T* d_in, std::int64_t n, const T* d_out, const void* d_workspace,
                            std::size_t workspace) {
  if (n < 0) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  const std::size_t bytes = std::size_t(n) * sizeof(T);
  const auto address = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (!d_in || !d_out || !d_workspace || address(d_in) % alignof(T) != 0 ||
      address(d_out) % alignof(T) != 0 || address(d_workspace) % 8 != 0)
    return cudaErrorInvalidValue;
  if (d_in != d_out && common::overlapping(d_in, bytes, d_out, bytes))
    return cudaErrorInvalidValue;
  if (common::overlapping(d_workspace, workspace, d_in, bytes) ||
      common::overlapping(d_workspace, workspace, d_out, bytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// Does the pipelined kernel run its sm_90 code on the current device? Both the device and the
// build must have it: a compute_75 build (PTX only) runs on an H200 as the body its #if left.
inline cudaError_t pipeline_code_here(bool& here) {
  static common::PerDevice<bool> cache;
  return cache.get_current(here, [](bool& h) {
    return common::runs_hopper_code(
        kernel<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW, false, std::int32_t>, h);
  });
}

// The blocks of a configuration that run at once on the current device (kept per device and
// context): 0 where its sm_90 code does not run or its stages do not fit in shared memory.
template <class S, int STAGES, int WINDOW, bool INCLUSIVE, class T>
cudaError_t resident_blocks(int& blocks) {
  static common::PerDevice<int> cache;
  return cache.get_current(blocks, [](int& b) {
    b = 0;
    bool here = false;
    CUDA_TRY(pipeline_code_here(here));
    if (!here) return cudaSuccess;
    return blocks_at_once(kernel<S, STAGES, WINDOW, INCLUSIVE, T>,
                          S::BLOCK_THREADS + 2 * WARP_THREADS, stage_bytes<S, STAGES, T>(), b);
  });
}
// The same for the tests and the probe: a CUDA error ends the process.
template <class S, int STAGES, int WINDOW, bool INCLUSIVE, class T>
int resident_blocks() {
  int blocks = 0;
  CUDA_CHECK((resident_blocks<S, STAGES, WINDOW, INCLUSIVE, T>(blocks)));
  return blocks;
}

// The pipelined kernel in a grid of `fit` resident blocks at most (fit > 0, from resident_blocks;
// the arguments checked): the launch proper, shared by launch() and launch_by_size().
template <class T, bool INCLUSIVE, class S, int STAGES, int WINDOW>
cudaError_t launch_pipeline(const T* d_in, std::int64_t n, T* d_out, void* d_workspace,
                            cudaStream_t stream, int fit) {
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;  // < 2^31 for n < 2^40
  const int blocks = int(std::min<std::int64_t>(tiles, fit));
  auto* tile_counter = static_cast<unsigned*>(d_workspace);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(d_workspace) + 8);
  return launch_cooperative(stream, kernel<S, STAGES, WINDOW, INCLUSIVE, T>, blocks,
                            S::BLOCK_THREADS + 2 * WARP_THREADS, stage_bytes<S, STAGES, T>(), d_in,
                            n, d_out, tile_counter, status,
                            scan_reduce_then_scan::vector_io_possible(d_in, d_out));
}

// d_out[0, n) = the exclusive (or inclusive) scan of d_in[0, n); d_in may equal d_out. d_workspace:
// workspace_bytes<S>(n) (scan_lookback's: the counter, one status word per tile), any content (the
// kernel clears it). cudaErrorNotSupported where the configuration does not run (see
// resident_blocks).
template <class T, bool INCLUSIVE = false, class S = default_shape, int STAGES = DEFAULT_STAGES,
          int WINDOW = DEFAULT_WINDOW>
cudaError_t launch(const T* d_in, std::int64_t n, T* d_out, void* d_workspace,
                   cudaStream_t stream = 0) {
  CUDA_TRY(check_arguments(d_in, n, d_out, d_workspace, workspace_bytes<S>(n)));
  if (n == 0) return cudaSuccess;
  int fit = 0;
  CUDA_TRY((resident_blocks<S, STAGES, WINDOW, INCLUSIVE, T>(fit)));
  if (fit == 0) return cudaErrorNotSupported;
  return launch_pipeline<T, INCLUSIVE, S, STAGES, WINDOW>(d_in, n, d_out, d_workspace, stream, fit);
}

// The portable path, for GPUs (or builds) without the sm_90 code: the same single pass of
// decoupled look-back, without the pipeline: scan_lookback's kernel at its default shape and
// window (one tile per block, the tile in registers while it looks back; the workspace zeroed on
// the stream first). Also callable on a Hopper GPU, as the tests do. d_workspace:
// workspace_bytes<portable_shape>(n), any content.
using portable_shape = scan_lookback::default_shape;
template <class T, bool INCLUSIVE = false>
cudaError_t launch_portable(const T* d_in, std::int64_t n, T* d_out, void* d_workspace,
                            cudaStream_t stream = 0) {
  using S = portable_shape;
  const std::size_t workspace = workspace_bytes<S>(n);
  CUDA_TRY(check_arguments(d_in, n, d_out, d_workspace, workspace));
  if (n == 0) return cudaSuccess;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;  // < 2^31 for n < 2^40
  CUDA_TRY(cudaMemsetAsync(d_workspace, 0, workspace, stream));
  auto* tile_counter = static_cast<unsigned*>(d_workspace);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(d_workspace) + 8);
  scan_lookback::kernel<S, DEFAULT_WINDOW, INCLUSIVE, T>
      <<<unsigned(tiles), S::BLOCK_THREADS, 0, stream>>>(
          d_in, n, d_out, tile_counter, status,
          scan_reduce_then_scan::vector_io_possible(d_in, d_out));
  return cudaGetLastError();
}

// n of at most one small tile: a single block scans it in an ordinary launch, with no look-back,
// no workspace and none of the pipeline's set-up. A cooperative launch of the pipelined kernel
// takes microseconds longer, which at such sizes is most of the time (see the page).
template <class S, bool INCLUSIVE, class T>
__global__ void __launch_bounds__(S::BLOCK_THREADS)
    single_tile_kernel(const T* in, std::int64_t n, T* out, bool vector_io) {
  __shared__ T warp_totals[S::WARPS];
  thread_items<S, T> t = load_tile<S>(in, n, 0, vector_io);
  block_scan<INCLUSIVE>(t, warp_totals);
  store_tile(out, n, 0, vector_io, t);
}

// Enough workspace for every configuration of the step at n (the 4096-element tiles', the most
// status words; the 8192-element tiles use the first half).
inline std::size_t workspace_bytes_by_size(std::int64_t n) {
  return std::max({workspace_bytes<small_n_shape>(n), workspace_bytes<default_shape>(n),
                   workspace_bytes<portable_shape>(n)});
}

// The step's scan: the configuration for the size (one block up to SINGLE_TILE_LIMIT, one large
// tile per block in the band above, the small tiles elsewhere below SMALL_N_LIMIT), or the
// portable path where the pipelined configuration does not run. d_workspace:
// workspace_bytes_by_size(n).
template <class T, bool INCLUSIVE = false>
cudaError_t launch_by_size(const T* d_in, std::int64_t n, T* d_out, void* d_workspace,
                           cudaStream_t stream = 0) {
  CUDA_TRY(check_arguments(d_in, n, d_out, d_workspace, workspace_bytes_by_size(n)));
  if (n == 0) return cudaSuccess;
  if (n <= SINGLE_TILE_LIMIT) {
    single_tile_kernel<small_n_shape, INCLUSIVE><<<1, small_n_shape::BLOCK_THREADS, 0, stream>>>(
        d_in, n, d_out, scan_reduce_then_scan::vector_io_possible(d_in, d_out));
    return cudaGetLastError();
  }
  if (n < SMALL_N_LIMIT) {
    int middle = 0, small = 0;
    CUDA_TRY((resident_blocks<default_shape, MIDDLE_STAGES, DEFAULT_WINDOW, INCLUSIVE, T>(middle)));
    if (middle > 0 && one_large_tile_per_block(n, middle))
      return launch_pipeline<T, INCLUSIVE, default_shape, MIDDLE_STAGES, DEFAULT_WINDOW>(
          d_in, n, d_out, d_workspace, stream, middle);
    CUDA_TRY((resident_blocks<small_n_shape, SMALL_N_STAGES, DEFAULT_WINDOW, INCLUSIVE, T>(small)));
    if (small > 0)
      return launch_pipeline<T, INCLUSIVE, small_n_shape, SMALL_N_STAGES, DEFAULT_WINDOW>(
          d_in, n, d_out, d_workspace, stream, small);
  } else {
    int large = 0;
    CUDA_TRY((resident_blocks<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW, INCLUSIVE, T>(large)));
    if (large > 0)
      return launch_pipeline<T, INCLUSIVE, default_shape, DEFAULT_STAGES, DEFAULT_WINDOW>(
          d_in, n, d_out, d_workspace, stream, large);
  }
  return launch_portable<T, INCLUSIVE>(d_in, n, d_out, d_workspace, stream);
}
//! [launch]

}  // namespace scan_pipelined
