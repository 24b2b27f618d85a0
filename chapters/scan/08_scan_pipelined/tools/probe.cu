// scan_pipelined_probe: where scan_pipelined's time goes (not a step of the book: evidence for its
//   page and its runs page, run by chapters/scan/tools/gpu_checks.sh; not built by default).
// An instrumented copy of scan_pipelined's kernel counts, with clock64(), how long the tile warps
//   wait for a tile's prefix, how long each look-back takes, and how many windows of status words
//   it reads and re-reads; it runs beside the uninstrumented step, the copy yardstick and variants
//   that each change one thing: no look-back at all (the output is then wrong: only the time
//   counts), the aggregate stored a second time by the look-back warp before its loads (as
//   scan_lookback's look_back does by default), two look-back warps per block taking alternate
//   tiles, tiles of 4096 elements (two blocks per SM), a 128-tile window, every tile dealt
//   round-robin (none claimed), and no look-back, no sum and no scan (the pipeline alone).
//   The copy keeps every wait and barrier of the step; only the counters are added. Beside the
//   copy yardstick, copy kernels of our own (16-byte loads and stores, in a few forms, and bulk
//   copies both ways through shared memory) show how far a plain copy gets.
// --copies prints only copies: cudaMemcpy before and after a grid-stride copy in many shapes
//   (blocks per SM, threads, loads in flight), a copy of one bulk-copied tile per block (CUB's
//   form on Hopper, 4 to 32 KiB tiles; and with blocks that stay and loop over 4 KiB tiles,
//   dealt or claimed), CUB's own (DeviceTransform with the identity), and
//   cudaMemcpy while a spinning kernel holds every SM's thread slots (it waits: an SM kernel).
// --pipelines prints only the pipeline alone, with other tile sizes and numbers of stages, and
//   the pipeline alone and the counted step with at most 1 to 4 bulk loads in flight per block.
// Run: build/bin/scan_pipelined_probe [--n 2^28] [--copies | --pipelines]   (int32; one table)
#include <cuda_runtime.h>

#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include <cstdint>
#include <cstdio>
#include <string>

#include "chapters/scan/08_scan_pipelined/scan_pipelined.cuh"
#include "common/check.cuh"
#include "common/cli.hpp"
#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/exit_codes.hpp"
#include "common/program.cuh"
#include "common/timing.cuh"

namespace probe {

using namespace scan_pipelined;
using scan_lookback::flag_of;
using scan_lookback::publish;
using scan_lookback::read_status;
using scan_lookback::STATUS_INVALID;
using scan_lookback::STATUS_PREFIX;
using scan_lookback::value_of;
using scan_reduce_then_scan::FULL_MASK;
using scan_reduce_then_scan::warp_sum;

// Sums over every block and repetition since the last reset.
enum counter {
  TILES,               // tiles the tile warps finished
  TILE_LOOP_CYCLES,    // the tile warps' whole loop, per block
  LANDED_WAIT_CYCLES,  // thread 0's wait for its tile to land
  PREFIX_WAIT_CYCLES,  // thread 0's wait for its tile's prefix
  REQUEST_CYCLES,      // thread 0's request of the next tile (the buffer's wait, the claim)
  LOOK_BACKS,
  LOOK_BACK_CYCLES,
  WINDOWS,  // windows of status words read
  REREADS,  // rounds of re-reading words still INVALID
  COUNTERS
};
__device__ unsigned long long counters[COUNTERS];

// scan_lookback::look_back, counting its windows and re-reads; REPUBLISH stores the aggregate (the
// sum warp's) again first.
template <int WINDOW, bool REPUBLISH>
__device__ std::int32_t counted_look_back(unsigned long long* status, std::int64_t tile,
                                          std::int32_t tile_total, unsigned long long& windows,
                                          unsigned long long& rereads) {
  constexpr int WORDS = WINDOW / WARP_THREADS;
  const int lane = threadIdx.x % WARP_THREADS;
  if (tile == 0) {
    if (lane == 0) publish(&status[0], STATUS_PREFIX, tile_total);
    return 0;
  }
  if (REPUBLISH && lane == 0) publish(&status[tile], scan_lookback::STATUS_AGGREGATE, tile_total);
  constexpr unsigned long long PREFIX_OF_ZERO = static_cast<unsigned long long>(STATUS_PREFIX)
                                                << 32;
  std::int32_t exclusive = 0;
  for (std::int64_t window_start = tile - WINDOW;; window_start -= WINDOW) {
    ++windows;
    unsigned long long words[WORDS];
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      const std::int64_t predecessor = window_start + j * WARP_THREADS + lane;
      words[j] = predecessor >= 0 ? read_status(&status[predecessor]) : PREFIX_OF_ZERO;
    }
    for (;;) {
      bool invalid = false;
#pragma unroll
      for (int j = 0; j < WORDS; ++j) invalid = invalid || flag_of(words[j]) == STATUS_INVALID;
      if (!__any_sync(FULL_MASK, invalid)) break;
      ++rereads;
#pragma unroll
      for (int j = 0; j < WORDS; ++j)
        if (flag_of(words[j]) == STATUS_INVALID)
          words[j] = read_status(&status[window_start + j * WARP_THREADS + lane]);
    }
    int nearest = -1;
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      const unsigned prefix_lanes = __ballot_sync(FULL_MASK, flag_of(words[j]) == STATUS_PREFIX);
      if (prefix_lanes) nearest = j * WARP_THREADS + WARP_THREADS - 1 - __clz(prefix_lanes);
    }
    std::int32_t sum = 0;
#pragma unroll
    for (int j = 0; j < WORDS; ++j)
      if (j * WARP_THREADS + lane >= nearest) sum += value_of<std::int32_t>(words[j]);
    exclusive += warp_sum(sum);
    if (nearest >= 0) break;
  }
  if (lane == 0) publish(&status[tile], STATUS_PREFIX, exclusive + tile_total);
  return exclusive;
}

// scan_pipelined::kernel (exclusive, int32, 16-byte aligned arrays) with counters, and
// LOOK_BACK_WARPS look-back warps taking alternate tiles; LOOK_BACK false publishes each tile's
// sum as its prefix and hands the tile warps 0 (a wrong result, as fast as no waiting can be);
// ORDER: how a block gets its tiles.
enum tile_order { STEP_ORDER, ALL_DEALT };
template <int STAGES, int ORDER>
struct probe_tile_source {
  unsigned* counter;
  __device__ std::int64_t operator()(std::int64_t r) const {
    if (ORDER == ALL_DEALT) return blockIdx.x + r * gridDim.x;
    return tile_source<STAGES>{counter}(r);
  }
};
// LOADS_IN_FLIGHT (0: no limit): thread 0 requests a tile only once all but LOADS_IN_FLIGHT - 1
// of the block's earlier requests have landed, so that at most that many of its bulk loads are in
// flight at once (the landed tiles still wait in the other buffers).
template <class S, int STAGES, int WINDOW, int LOOK_BACK_WARPS, bool LOOK_BACK, bool REPUBLISH,
          int ORDER, bool NO_SCAN, int LOADS_IN_FLIGHT = 0>
__global__ void __launch_bounds__(S::BLOCK_THREADS + (1 + LOOK_BACK_WARPS) * WARP_THREADS)
    counted_kernel(const std::int32_t* in, std::int64_t n, std::int32_t* out,
                   unsigned* tile_counter, unsigned long long* status) {
  static_assert(LOOK_BACK_WARPS <= STAGES, "the claims past the end are in the stages");
  using T = std::int32_t;
  using state = pipeline_state<S, STAGES, T>;
  constexpr int SLOTS = state::SLOTS;
  extern __shared__ __align__(128) unsigned char stages_raw[];
  T* const stage_data = reinterpret_cast<T*>(stages_raw);
  __shared__ state ps;
  const std::int64_t tiles = (n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;
  const int warp = threadIdx.x / WARP_THREADS, lane = threadIdx.x % WARP_THREADS;
  constexpr int SUM_WARP = S::WARPS + LOOK_BACK_WARPS;

  const probe_tile_source<STAGES, ORDER> next_tile{tile_counter};
  if (threadIdx.x == 0) start_pipeline(ps, next_tile, in, n, tiles, true, stage_data);
  clear_workspace(tile_counter, status, tiles);

  if (warp == SUM_WARP) {
    // Every look-back warp must meet a claim past the last tile to stop: arrive for that many.
    for (int i = 0, past_end = 0; past_end < LOOK_BACK_WARPS; ++i) {
      const int s = i % STAGES, k = i % SLOTS;
      wait(&ps.landed[s], i / STAGES);
      const std::int64_t tile = ps.tile[k];
      if (tile < tiles) {
        const T total = NO_SCAN
                            ? T(0)
                            : warp_sum_of_tile<S>(stage_data + std::int64_t(s) * S::TILE_ELEMENTS,
                                                  in, n, tile, true);
        if (lane == 0) {
          publish(&status[tile], scan_lookback::STATUS_AGGREGATE, total);
          ps.total[k] = total;
        }
      } else {
        ++past_end;
      }
      __syncwarp();
      if (lane == 0) barrier_arrive(&ps.total_known[k], 0);
    }
    return;
  }
  if (warp >= S::WARPS) {
    unsigned long long look_backs = 0, cycles = 0, windows = 0, rereads = 0;
    for (int i = warp - S::WARPS;; i += LOOK_BACK_WARPS) {
      const int k = i % SLOTS;
      wait(&ps.total_known[k], i / SLOTS);
      const std::int64_t tile = ps.tile[k];
      if (tile >= tiles) break;
      const long long start = clock64();
      T prefix = 0;
      if (LOOK_BACK)
        prefix = counted_look_back<WINDOW, REPUBLISH>(status, tile, ps.total[k], windows, rereads);
      else if (lane == 0)
        publish(&status[tile], STATUS_PREFIX, ps.total[k]);
      cycles += clock64() - start;
      ++look_backs;
      if (lane == 0) {
        ps.prefix[k] = prefix;
        barrier_arrive(&ps.prefix_known[k], 0);
      }
    }
    if (lane == 0) {
      atomicAdd(&counters[LOOK_BACKS], look_backs);
      atomicAdd(&counters[LOOK_BACK_CYCLES], cycles);
      atomicAdd(&counters[WINDOWS], windows);
      atomicAdd(&counters[REREADS], rereads);
    }
    return;
  }

  const tile_warps_barrier<S> tile_barrier;
  const long long loop_start = clock64();
  unsigned long long tiles_done = 0, landed_wait = 0, prefix_wait = 0, request_cycles = 0;
  for (int i = 0;; ++i) {
    const int s = i % STAGES, k = i % SLOTS;
    const std::int64_t tile = ps.tile[k];
    if (tile >= tiles) break;
    const std::int64_t tile_base = tile * S::TILE_ELEMENTS;
    const long long landed_start = clock64();
    wait(&ps.landed[s], i / STAGES);
    landed_wait += clock64() - landed_start;
    thread_items<S, T> t =
        read_tile<S>(stage_data + std::int64_t(s) * S::TILE_ELEMENTS, in, n, tile, true);
    if (!NO_SCAN) block_scan<false>(t, ps.warp_totals, tile_barrier);
    tile_barrier();
    if (threadIdx.x == 0) {
      const long long request_start = clock64();
      wait(&ps.total_known[k], i / SLOTS);
      if (LOADS_IN_FLIGHT > 0 && LOADS_IN_FLIGHT < STAGES) {
        const int landed_round = i + STAGES - LOADS_IN_FLIGHT;  // requested LOADS_IN_FLIGHT ago
        wait(&ps.landed[landed_round % STAGES], landed_round / STAGES);
      }
      request<S>(s, (i + STAGES) % SLOTS, next_tile(i + STAGES), in, n, tiles, true, stage_data,
                 ps.tile, ps.landed);
      request_cycles += clock64() - request_start;
    }
    const long long wait_start = clock64();
    wait(&ps.prefix_known[k], i / SLOTS);
    prefix_wait += clock64() - wait_start;
    const T prefix = ps.prefix[k];
#pragma unroll
    for (int v = 0; v < S::VECTORS; ++v)
#pragma unroll
      for (int j = 0; j < 4; ++j) t.items[v][j] += prefix;
    store_tile(out, n, tile_base, true, t);
    ++tiles_done;
  }
  if (threadIdx.x == 0) {
    atomicAdd(&counters[TILES], tiles_done);
    atomicAdd(&counters[TILE_LOOP_CYCLES], clock64() - loop_start);
    atomicAdd(&counters[LANDED_WAIT_CYCLES], landed_wait);
    atomicAdd(&counters[PREFIX_WAIT_CYCLES], prefix_wait);
    atomicAdd(&counters[REQUEST_CYCLES], request_cycles);
  }
}

// A plain copy of n int32 (n a multiple of 4), 16-byte loads and stores, UNROLL of them in flight
// per thread: a copy of our own beside cudaMemcpy's. Over a grid-stride loop, or (CHUNKED) each
// block over a contiguous piece of the array; STREAMING: evict-first stores (st.global.cs).
template <int UNROLL, bool CHUNKED = false, bool STREAMING = false>
__global__ void copy_kernel(const int4* __restrict__ in, int4* __restrict__ out, std::int64_t n4) {
  std::int64_t end = n4, stride = std::int64_t(gridDim.x) * blockDim.x;
  std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (CHUNKED) {
    const std::int64_t piece = (n4 + gridDim.x - 1) / gridDim.x;
    const std::int64_t begin = blockIdx.x * piece < n4 ? blockIdx.x * piece : n4;
    end = begin + piece < n4 ? begin + piece : n4;
    stride = blockDim.x;
    i = begin + threadIdx.x;
  }
  for (; i + (UNROLL - 1) * stride < end; i += UNROLL * stride) {
    int4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (STREAMING)
        __stcs(&out[i + u * stride], v[u]);
      else
        out[i + u * stride] = v[u];
    }
  }
  for (; i < end; i += stride) out[i] = in[i];
}

// A copy by bulk copies both ways: one thread per block (one block per SM) loads pieces of
// BULK_PIECE bytes into STAGES shared buffers (cp.async.bulk, counted by an mbarrier, as the step
// loads its tiles) and stores each from there with a bulk store (cp.async.bulk to global, in a bulk
// group); a buffer is loaded again once the store from it has read it. Block b takes pieces b,
// b + blocks, ...; the array is a whole number of pieces.
constexpr unsigned BULK_PIECE = 32768;
template <int STAGES>
__global__ void bulk_copy_kernel(const int4* in, int4* out, std::int64_t pieces) {
  extern __shared__ __align__(128) unsigned char buffers[];
  __shared__ std::uint64_t landed[STAGES];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < STAGES; ++s) barrier_init(&landed[s]);
  barrier_init_fence();
  const char* from = reinterpret_cast<const char*>(in);
  char* to = reinterpret_cast<char*>(out);
  const auto piece_of = [&](std::int64_t i) { return blockIdx.x + i * gridDim.x; };
  const auto load = [&](std::int64_t i) {
    if (piece_of(i) >= pieces) return;
    const int s = int(i % STAGES);
    barrier_arrive(&landed[s], BULK_PIECE);
    bulk_load(buffers + std::int64_t(s) * BULK_PIECE, from + piece_of(i) * BULK_PIECE, BULK_PIECE,
              &landed[s]);
  };
  for (int i = 0; i < STAGES; ++i) load(i);
  for (std::int64_t i = 0; piece_of(i) < pieces; ++i) {
    const int s = int(i % STAGES);
    wait(&landed[s], int(i / STAGES));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                     to + piece_of(i) * BULK_PIECE),
                 "r"(shared_address(buffers + std::int64_t(s) * BULK_PIECE)), "r"(BULK_PIECE)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (i > 0) {  // the store before this one has read its buffer: load that buffer again
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      load(i - 1 + STAGES);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // every store complete
}

// The input: (i mod 7) - 3, whose exclusive scan at i is the sum of (k - 3) for k < i mod 7.
__global__ void fill(std::int32_t* a, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    a[i] = std::int32_t(i % 7) - 3;
}
__global__ void count_wrong(const std::int32_t* out, std::int64_t n, unsigned long long* wrong) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const int r = int(i % 7);
    if (out[i] != r * (r - 1) / 2 - 3 * r) atomicAdd(wrong, 1ull);
  }
}

// A copy in CUB's DeviceTransform form on Hopper, written our way: one tile per block (a grid
// of n / TILE_BYTES blocks), the tile bulk-copied into shared memory by thread 0, then stored by
// every thread with 16-byte stores; as many blocks per SM as fit. The array is a whole number of
// tiles.
template <unsigned TILE_BYTES>
__global__ void __launch_bounds__(256) tile_copy_kernel(const int4* in, int4* out) {
  __shared__ __align__(128) int4 tile[TILE_BYTES / 16];
  __shared__ std::uint64_t landed;
  const std::int64_t base = std::int64_t(blockIdx.x) * (TILE_BYTES / 16);
  if (threadIdx.x == 0) {
    barrier_init(&landed);
    barrier_init_fence();
    barrier_arrive(&landed, TILE_BYTES);
    bulk_load(tile, in + base, TILE_BYTES, &landed);
  }
  __syncthreads();  // the barrier is initialized before anyone waits on it
  wait(&landed, 0);
  for (unsigned k = threadIdx.x; k < TILE_BYTES / 16; k += blockDim.x) out[base + k] = tile[k];
}

// The same copy with blocks that stay: as many blocks as fit on the GPU, each copying one tile at a
// time, in a loop, the tile taken grid-stride (block b: b, b + blocks, ...) or, CLAIMED, from a
// counter (one atomicAdd per tile, as the step claims its tiles; the counter zeroed before the
// launch). Tells whether the one-tile blocks owe their speed to the hardware handing out tiles.
template <unsigned TILE_BYTES, bool CLAIMED>
__global__ void __launch_bounds__(256)
    staying_tile_copy_kernel(const int4* in, int4* out, std::int64_t tiles, unsigned* counter) {
  __shared__ __align__(128) int4 tile[TILE_BYTES / 16];
  __shared__ std::uint64_t landed;
  __shared__ std::int64_t current;
  if (threadIdx.x == 0) {
    barrier_init(&landed);
    barrier_init_fence();
  }
  for (int round = 0;; ++round) {
    if (threadIdx.x == 0) {
      const std::int64_t mine = CLAIMED ? std::int64_t(atomicAdd(counter, 1u))
                                        : blockIdx.x + std::int64_t(round) * gridDim.x;
      current = mine;
      if (mine < tiles) {
        // The threads' reads of the last tile (generic proxy) before the copy over it (async).
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        barrier_arrive(&landed, TILE_BYTES);
        bulk_load(tile, in + mine * (TILE_BYTES / 16), TILE_BYTES, &landed);
      }
    }
    __syncthreads();  // `current` (and, in round 0, the barrier) is ready
    const std::int64_t mine = current;
    if (mine >= tiles) return;
    wait(&landed, round);
    for (unsigned k = threadIdx.x; k < TILE_BYTES / 16; k += blockDim.x)
      out[mine * (TILE_BYTES / 16) + k] = tile[k];
    __syncthreads();  // every thread has read the tile and `current` before thread 0 reuses them
  }
}

// Spins for `cycles` SM clock cycles (holds its SM's thread slots meanwhile).
__global__ void spin(std::int64_t cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// The elements where a copy's output differs from its input.
__global__ void count_copy_wrong(const std::int32_t* in, const std::int32_t* out, std::int64_t n,
                                 unsigned long long* wrong) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    if (out[i] != in[i]) atomicAdd(wrong, 1ull);
}

struct arrays {
  std::int64_t n;
  common::device_buffer<std::int32_t> in, out;
  common::device_buffer<unsigned char> workspace;
  common::device_buffer<unsigned long long> wrong;
  common::l2_flusher flusher;
  arrays(std::int64_t n, std::size_t l2_bytes)
      : n(n),
        in(n),
        out(n),
        // enough status words for the smallest tiles the probe runs (4096 elements)
        workspace(workspace_bytes<scan_reduce_then_scan::shape<256, 4>>(n)),
        wrong(1),
        flusher(l2_bytes) {
    fill<<<1024, 256>>>(in.data(), n);
    CUDA_CHECK_LAUNCH();
  }
  // Poisons the output and times `launch` (the median ms).
  template <class Launch>
  double time_ms(Launch&& launch) {
    CUDA_CHECK(cudaMemset(out.data(), 0xff, out.bytes()));
    const common::timing_options options;
    return common::time_repeated(
               options, flusher, [] {}, launch)
        .median_ms;
  }
  // The elements that `count` (a launch of count_wrong or count_copy_wrong into `wrong`) finds
  // wrong in the output.
  template <class Count>
  unsigned long long wrong_elements(Count&& count) {
    CUDA_CHECK(cudaMemset(wrong.data(), 0, sizeof(unsigned long long)));
    count();
    CUDA_CHECK_LAUNCH();
    unsigned long long w = 0;
    CUDA_CHECK(cudaMemcpy(&w, wrong.data(), sizeof w, cudaMemcpyDeviceToHost));
    return w;
  }
  // Times `launch` and counts the wrong elements of its last result, as a scan.
  template <class Launch>
  std::pair<double, unsigned long long> time(Launch&& launch) {
    const double ms = time_ms(launch);
    return {ms, wrong_elements([&] { count_wrong<<<1024, 256>>>(out.data(), n, wrong.data()); })};
  }
};

void print_header(const common::device_info& gpu, std::int64_t n) {
  std::printf(
      "%s, %d SMs; exclusive scan of n = %lld int32; median of 30 timed runs each, L2 "
      "flushed before each; cycles are SM clock cycles (clock64), averaged over all runs\n\n",
      gpu.name.c_str(), gpu.sm_count, static_cast<long long>(n));
  std::printf("%-38s %7s %9s  %s\n", "configuration", "blocks", "ms", "result");
}

template <class S, int STAGES, int WINDOW, int LOOK_BACK_WARPS, bool LOOK_BACK,
          bool REPUBLISH = false, int ORDER = STEP_ORDER, bool NO_SCAN = false,
          int LOADS_IN_FLIGHT = 0>
void run_counted(arrays& a, const char* name) {
  auto* kernel = counted_kernel<S, STAGES, WINDOW, LOOK_BACK_WARPS, LOOK_BACK, REPUBLISH, ORDER,
                                NO_SCAN, LOADS_IN_FLIGHT>;
  const int threads = S::BLOCK_THREADS + (1 + LOOK_BACK_WARPS) * WARP_THREADS;
  const std::size_t bytes = stage_bytes<S, STAGES, std::int32_t>();
  const std::int64_t tiles = (a.n + S::TILE_ELEMENTS - 1) / S::TILE_ELEMENTS;
  const int blocks = int(std::min<std::int64_t>(tiles, blocks_at_once(kernel, threads, bytes)));
  const unsigned long long zero[COUNTERS] = {};
  CUDA_CHECK(cudaMemcpyToSymbol(counters, zero, sizeof zero));
  auto* counter = reinterpret_cast<unsigned*>(a.workspace.data());
  auto* status = reinterpret_cast<unsigned long long*>(a.workspace.data() + 8);
  const auto [ms, wrong] = a.time([&] {
    launch_resident(kernel, blocks, threads, bytes, a.in.data(), a.n, a.out.data(), counter,
                    status);
  });
  unsigned long long c[COUNTERS];
  CUDA_CHECK(cudaMemcpyFromSymbol(c, counters, sizeof c));
  const double per_tile = 1.0 / double(c[TILES]), per_look_back = 1.0 / double(c[LOOK_BACKS]);
  std::printf("%-38s %7d %9.4f  %s\n", name, blocks, ms,
              wrong == 0 ? "correct" : (LOOK_BACK ? "WRONG" : "wrong (no look-back: by design)"));
  std::printf(
      "    per tile: %6.0f cycles of a block's tile loop: %5.0f waiting for the tile, %5.0f for "
      "the prefix, %5.0f requesting the next\n",
      double(c[TILE_LOOP_CYCLES]) * per_tile, double(c[LANDED_WAIT_CYCLES]) * per_tile,
      double(c[PREFIX_WAIT_CYCLES]) * per_tile, double(c[REQUEST_CYCLES]) * per_tile);
  if (LOOK_BACK)
    std::printf(
        "    per look-back: %6.0f cycles, %.2f windows read, %.2f re-reads: %5.0f cycles "
        "per read of status words\n",
        double(c[LOOK_BACK_CYCLES]) * per_look_back, double(c[WINDOWS]) * per_look_back,
        double(c[REREADS]) * per_look_back,
        double(c[LOOK_BACK_CYCLES]) / double(c[WINDOWS] + c[REREADS]));
}

// The pipeline alone (the counted kernel with no look-back, no sum and no scan) with tiles of
// shape S in STAGES buffers.
template <class S, int STAGES, int LOADS_IN_FLIGHT = 0>
void run_alone(arrays& a, const char* name) {
  run_counted<S, STAGES, DEFAULT_WINDOW, 1, false, false, STEP_ORDER, true, LOADS_IN_FLIGHT>(a,
                                                                                             name);
}
// The step's counted kernel with at most LOADS_IN_FLIGHT bulk loads in flight per block.
template <int LOADS_IN_FLIGHT>
void run_throttled(arrays& a, const char* name) {
  run_counted<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true, false, STEP_ORDER, false,
              LOADS_IN_FLIGHT>(a, name);
}

}  // namespace probe

int main(int argc, char** argv) {
  using namespace probe;
  std::int64_t n = std::int64_t(1) << 28;
  common::cli cli("scan_pipelined_probe",
                  "where scan_pipelined's time goes: an instrumented copy of its kernel, and "
                  "variants that each change one thing (int32, exclusive)");
  cli.add_int("n", n, std::int64_t(1) << 20, std::int64_t(1) << 31,
              "elements (int32: the input's partial sums stay small)");
  bool pipelines_only = false;
  cli.add_flag("pipelines", pipelines_only,
               "only the pipeline alone (the counted kernel with no look-back, no sum and no "
               "scan) with tiles of 8, 16 or 32 KiB and 2 to 24 stages, and it and the counted "
               "step with at most 1 to 4 bulk loads in flight per block");
  bool copies_only = false;
  cli.add_flag("copies", copies_only,
               "only the copies: cudaMemcpy and a grid-stride copy kernel of our own in many "
               "shapes (blocks per SM, threads, 16-byte loads in flight per thread)");
  return common::run_with_device(
      cli.program(), cli, argc, argv, [&](const common::device_info& gpu) {
        arrays a(n, gpu.l2_bytes);
        print_header(gpu, n);
        const double copy_ms = a.time_ms([&] {
          CUDA_CHECK(
              cudaMemcpyAsync(a.out.data(), a.in.data(), a.in.bytes(), cudaMemcpyDeviceToDevice));
        });
        std::printf("%-38s %7s %9.4f  (the copy yardstick: 2 n x 4 bytes)\n",
                    "cudaMemcpy device to device", "", copy_ms);
        if (n % 4 == 0) {
          const auto* from = reinterpret_cast<const int4*>(a.in.data());
          auto* to = reinterpret_cast<int4*>(a.out.data());
          // One line of a copy of our own: its name, its blocks, what it is, how it is launched.
          const auto time_copy = [&](const char* name, int blocks, const char* what, auto launch) {
            const double ms = a.time_ms([&] {
              launch();
              CUDA_CHECK_LAUNCH();
            });
            // A copy is no scan: checked against its input.
            const unsigned long long wrong = a.wrong_elements([&] {
              count_copy_wrong<<<1024, 256>>>(a.in.data(), a.out.data(), n, a.wrong.data());
            });
            std::printf("%-38s %7d %9.4f  %s (%s)\n", name, blocks, ms,
                        wrong == 0 ? "correct" : "WRONG", what);
          };
          const auto own_copy = [&](auto kernel, int blocks_per_sm, const char* name,
                                    int threads = 256) {
            const int blocks = gpu.sm_count * blocks_per_sm;
            time_copy(name, blocks, "16-byte loads and stores",
                      [&] { kernel<<<blocks, threads>>>(from, to, n / 4); });
          };
          if (copies_only) {  // the grid-stride copy's shape: blocks per SM, threads, in flight
            char name[64];
            const auto shaped = [&](auto kernel, int unroll, int blocks_per_sm, int threads) {
              std::snprintf(name, sizeof name, "  %d x %d threads per SM, %d in flight",
                            blocks_per_sm, threads, unroll);
              own_copy(kernel, blocks_per_sm, name, threads);
            };
            for (const int per_sm : {1, 2, 3, 4, 8}) {
              shaped(copy_kernel<2>, 2, per_sm, 256);
              shaped(copy_kernel<4>, 4, per_sm, 256);
              shaped(copy_kernel<8>, 8, per_sm, 256);
            }
            shaped(copy_kernel<16>, 16, 1, 256);
            shaped(copy_kernel<2>, 2, 1, 1024);
            shaped(copy_kernel<4>, 4, 1, 1024);
            shaped(copy_kernel<2>, 2, 2, 512);
            shaped(copy_kernel<4>, 4, 2, 512);
            const auto tile_copy = [&](auto kernel, unsigned tile_bytes, const char* name) {
              const std::int64_t blocks = n * std::int64_t(sizeof(std::int32_t)) / tile_bytes;
              if (blocks * tile_bytes != n * std::int64_t(sizeof(std::int32_t))) return;
              time_copy(name, int(blocks), "one bulk-copied tile per block, 16-byte stores",
                        [&] { kernel<<<unsigned(blocks), 256>>>(from, to); });
            };
            tile_copy(tile_copy_kernel<4096>, 4096, "  a 4 KiB tile per block");
            tile_copy(tile_copy_kernel<32768>, 32768, "  a 32 KiB tile per block");
            tile_copy(tile_copy_kernel<8192>, 8192, "  an 8 KiB tile per block");
            tile_copy(tile_copy_kernel<16384>, 16384, "  a 16 KiB tile per block");
            const auto staying_copy = [&](auto kernel, const char* name) {
              constexpr unsigned TILE_BYTES = 4096;
              const std::int64_t tiles = n * std::int64_t(sizeof(std::int32_t)) / TILE_BYTES;
              int per_sm = 0;
              CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 256, 0));
              const int blocks = gpu.sm_count * per_sm;
              auto* counter = reinterpret_cast<unsigned*>(a.workspace.data());
              time_copy(name, blocks, "blocks that stay, one 4 KiB tile at a time", [&] {
                CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(unsigned)));
                kernel<<<blocks, 256>>>(from, to, tiles, counter);
              });
            };
            staying_copy(staying_tile_copy_kernel<4096, false>, "  4 KiB tiles, staying, dealt");
            staying_copy(staying_tile_copy_kernel<4096, true>, "  4 KiB tiles, staying, claimed");
            // CUB's own copy (DeviceTransform with the identity): the library's SM kernel.
            time_copy("  cub::DeviceTransform (identity)", 0, "CUB's transform kernel", [&] {
              CUDA_CHECK(cub::DeviceTransform::Transform(a.in.data(), a.out.data(), n,
                                                         ::cuda::std::identity{}));
            });
            // Does cudaMemcpy need the SMs? Every SM's thread slots are held by a spinning
            // kernel (2 x 1024 threads per SM); the copy is timed on another stream.
            {
              cudaStream_t spin_stream, copy_stream;
              CUDA_CHECK(cudaStreamCreateWithFlags(&spin_stream, cudaStreamNonBlocking));
              CUDA_CHECK(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking));
              cudaEvent_t e[4];
              for (auto& x : e) CUDA_CHECK(cudaEventCreate(&x));
              CUDA_CHECK(cudaDeviceSynchronize());
              CUDA_CHECK(cudaEventRecord(e[0], spin_stream));
              spin<<<2 * gpu.sm_count, 1024, 0, spin_stream>>>(std::int64_t(40) << 20);
              CUDA_CHECK_LAUNCH();
              CUDA_CHECK(cudaEventRecord(e[1], spin_stream));
              CUDA_CHECK(cudaEventRecord(e[2], copy_stream));
              CUDA_CHECK(cudaMemcpyAsync(a.out.data(), a.in.data(), a.in.bytes(),
                                         cudaMemcpyDeviceToDevice, copy_stream));
              CUDA_CHECK(cudaEventRecord(e[3], copy_stream));
              CUDA_CHECK(cudaDeviceSynchronize());
              float spin_ms = 0, copy_ms_held = 0;
              CUDA_CHECK(cudaEventElapsedTime(&spin_ms, e[0], e[1]));
              CUDA_CHECK(cudaEventElapsedTime(&copy_ms_held, e[2], e[3]));
              std::printf(
                  "%-38s %7s %9.4f  (while a kernel spinning for %.2f ms holds every "
                  "SM's thread slots)\n",
                  "cudaMemcpy device to device", "", copy_ms_held, spin_ms);
              for (auto& x : e) CUDA_CHECK(cudaEventDestroy(x));
              CUDA_CHECK(cudaStreamDestroy(spin_stream));
              CUDA_CHECK(cudaStreamDestroy(copy_stream));
            }
            const double again_ms = a.time_ms([&] {
              CUDA_CHECK(cudaMemcpyAsync(a.out.data(), a.in.data(), a.in.bytes(),
                                         cudaMemcpyDeviceToDevice));
            });
            std::printf("%-38s %7s %9.4f  (again, after the copies)\n",
                        "cudaMemcpy device to device", "", again_ms);
            return common::EXIT_CORRECT;
          }
          own_copy(copy_kernel<4>, 8, "a copy kernel of our own, 4 in flight");
          own_copy(copy_kernel<1>, 8, "  1 in flight per thread");
          own_copy(copy_kernel<8>, 8, "  8 in flight per thread");
          own_copy(copy_kernel<4>, 2, "  2 blocks per SM");
          own_copy(copy_kernel<4, true>, 8, "  a contiguous piece per block");
          own_copy(copy_kernel<4, false, true>, 8, "  evict-first stores");
          if (n * sizeof(std::int32_t) % BULK_PIECE == 0) {
            constexpr int STAGES = 7;
            const std::size_t bytes = std::size_t(STAGES) * BULK_PIECE;
            CUDA_CHECK(cudaFuncSetAttribute(
                bulk_copy_kernel<STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
            const std::int64_t pieces = n * std::int64_t(sizeof(std::int32_t)) / BULK_PIECE;
            time_copy("  bulk copies both ways", gpu.sm_count,
                      "bulk copies in and out, 7 x 32 KiB buffers", [&] {
                        bulk_copy_kernel<STAGES><<<gpu.sm_count, 32, bytes>>>(from, to, pieces);
                      });
          }
        }
        if (pipelines_only) {  // the pipeline alone (no look-back, sum or scan), by tile and stages
          using scan_reduce_then_scan::shape;
          run_alone<shape<256, 8>, 2>(a, "32 KiB tiles x 2 stages");
          run_alone<shape<256, 8>, 3>(a, "32 KiB tiles x 3 stages");
          run_alone<shape<256, 8>, 4>(a, "32 KiB tiles x 4 stages");
          run_alone<shape<256, 8>, 5>(a, "32 KiB tiles x 5 stages");
          run_alone<shape<256, 8>, 7>(a, "32 KiB tiles x 7 stages (the step's)");
          run_alone<shape<256, 4>, 4>(a, "16 KiB tiles x 4 stages");
          run_alone<shape<256, 4>, 7>(a, "16 KiB tiles x 7 stages");
          run_alone<shape<256, 4>, 13>(a, "16 KiB tiles x 13 stages");
          run_alone<shape<256, 2>, 7>(a, "8 KiB tiles x 7 stages");
          run_alone<shape<256, 2>, 14>(a, "8 KiB tiles x 14 stages");
          run_alone<shape<256, 2>, 24>(a, "8 KiB tiles x 24 stages");
          // At most K of a block's bulk loads in flight, the other buffers holding landed tiles:
          // the pipeline alone, then the step (counted, with its look-back).
          run_alone<shape<256, 8>, 7, 1>(a, "32 KiB x 7, 1 load in flight");
          run_alone<shape<256, 8>, 7, 2>(a, "32 KiB x 7, 2 loads in flight");
          run_alone<shape<256, 8>, 7, 3>(a, "32 KiB x 7, 3 loads in flight");
          run_alone<shape<256, 8>, 7, 4>(a, "32 KiB x 7, 4 loads in flight");
          run_counted<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true>(
              a, "the step, counted (no limit)");
          run_throttled<1>(a, "the step, 1 load in flight");
          run_throttled<2>(a, "the step, 2 loads in flight");
          run_throttled<3>(a, "the step, 3 loads in flight");
          run_throttled<4>(a, "the step, 4 loads in flight");
          return common::EXIT_CORRECT;
        }
        const auto [step_ms, step_wrong] =
            a.time([&] { launch<std::int32_t>(a.in.data(), n, a.out.data(), a.workspace.data()); });
        std::printf(
            "%-38s %7d %9.4f  %s\n", "scan_pipelined, uninstrumented",
            resident_blocks<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW, false, std::int32_t>(),
            step_ms, step_wrong == 0 ? "correct" : "WRONG");
        using S = default_shape;
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true>(a,
                                                                "counted copy of scan_pipelined");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, false>(a, "  no look-back");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, false, false, STEP_ORDER, true>(
            a, "  no look-back, no sum, no scan");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true, true>(a,
                                                                      "  aggregate stored twice");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 2, true>(a, "  two look-back warps");
        run_counted<scan_reduce_then_scan::shape<256, 4>, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true>(
            a, "  4096-element tiles (two blocks per SM)");
        run_counted<S, DEFAULT_STAGES, 128, 1, true>(a, "  window of 128 tiles");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, true, false, ALL_DEALT>(
            a, "  every tile dealt");
        run_counted<S, DEFAULT_STAGES, DEFAULT_WINDOW, 1, false, false, ALL_DEALT>(
            a, "  every tile dealt, no look-back");
        return common::EXIT_CORRECT;
      });
}
