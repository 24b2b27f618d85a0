// reduce9: one launch; the last block to finish adds up the partial sums.
// The one idea: every block writes its partial sum, stamped with the launch, then counts itself
//   in with one atomic fetch_add on a counter; the block that arrives last knows that every
//   partial sum is on its way, waits for the ones not yet landed (by their stamp), adds them up
//   and writes the result. One kernel launch instead of two, and no grid-wide wait:
//   no block ever waits for another.
// Changes from the previous step (reduce8): the loads, block_sum() and the grid are reduce8's; the
//   kernel gains the arrival counter (a 64-bit word in the workspace, stamped with the launch so
//   that whatever the workspace held before, poison included, counts as "nobody has arrived") and
//   the last block's sum; launch() is one kernel, with no common::reduce_in_passes.
// What limits it: at 2^28 the bytes (it reads as fast as the read-only yardstick can); at 2^16
//   the launch itself and the dependent round trips to memory (load; slot and atomic together;
//   the last block's loads).
// Run: build/bin/reduce9 [--n 2^22] [--type int32|float|both]
// Source: beyond the slides (source 001); the last-block pattern is the CUDA Programming Guide's
//   __threadfence() example (and NVIDIA's threadFenceReduction sample), written here with
//   cuda::atomic_ref and explicit memory orders.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "chapters/reduction/10_reduce8/reduce8.cuh"
#include "common/check.cuh"

namespace reduce9 {

constexpr int BLOCK_THREADS = reduce8::BLOCK_THREADS;  // the loads are reduce8's thread_sum()

// The arrival counter: one 64-bit word, stamp << COUNT_BITS | arrivals. The stamp names the
// launch (a new one per launch, see next_stamp()); arrivals counts that launch's finished blocks.
constexpr int COUNT_BITS = 24;  // a grid of up to 2^24 - 1 blocks
constexpr std::uint64_t COUNT_MASK = (std::uint64_t(1) << COUNT_BITS) - 1;
constexpr std::uint64_t STAMP_MASK = (std::uint64_t(1) << (64 - COUNT_BITS)) - 1;
// Workspace: the counter first, 8 bytes on an 8-byte boundary (at most one 4-byte element of
// padding plus two elements), then the partial sums. The counter's place does not depend on the
// grid, so a launch with another n finds the word the previous launch left ready.
constexpr std::size_t COUNTER_ELEMENTS = 3;

using counter_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

//! [kernel]
// A block's partial sum travels with the launch's stamp in one 64-bit word (stamp in the high
// 32 bits, the sum's bits in the low 32), written and read as a single atomic word: a reader that
// finds this launch's stamp has this launch's sum, whenever and in whatever order the stores land.
using slot_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

template <class T>
__device__ unsigned long long stamped(T value, unsigned long long stamp) {
  std::uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return (stamp << 32) | bits;
}

template <class T>
__device__ T unstamped(unsigned long long word) {
  const std::uint32_t bits = std::uint32_t(word);
  T value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

// The finish, called by every thread of every block once its block's sum is in thread 0: `seen`
// is the counter as thread 0 read it before the loads. Written apart from the kernel so that
// reduce11, whose loads differ, finishes the same way.
template <class T>
__device__ void finish(T sum, unsigned long long seen, T* out, unsigned long long* slots,
                       unsigned long long* counter, unsigned long long stamp) {
  __shared__ bool last_block;
  const unsigned long long slot_stamp = stamp & 0xFFFFFFFFull;
  if (threadIdx.x == 0) {
    slot_ref(slots[blockIdx.x]).store(stamped(sum, slot_stamp), cuda::memory_order_relaxed);
    counter_ref arrivals(*counter);
    if ((seen >> COUNT_BITS) != stamp) {
      // Another launch's stamp, or never initialised (the harness poisons the workspace): no block
      // of this launch had arrived when thread 0 looked. Reset it to "this launch, nobody yet"
      // unless it changed since: then another block of this launch reset it first, and its
      // stamp is already this launch's. Either way every arrival below counts from 0.
      arrivals.compare_exchange_strong(seen, stamp << COUNT_BITS, cuda::memory_order_relaxed);
    }
    // Relaxed: the slot carries its own stamp, so the arrival need not wait for the slot's store
    // to land (a release would). Both travel to L2 at once: one round trip, not two.
    const unsigned long long before = arrivals.fetch_add(1, cuda::memory_order_relaxed);
    last_block = (before & COUNT_MASK) == gridDim.x - 1;
  }
  __syncthreads();  // last_block is written; block_sum()'s warp_sums may be used again
  if (!last_block) return;
  // The last block: every other block has arrived, so every slot's store has been issued. A slot
  // that still shows an older stamp has not landed yet: read it again until it has. Up to 32
  // slots (small n) one warp adds them up, without the block's barriers.
  auto slot_value = [&](int b) {
    unsigned long long word = slot_ref(slots[b]).load(cuda::memory_order_relaxed);
    while ((word >> 32) != slot_stamp) word = slot_ref(slots[b]).load(cuda::memory_order_relaxed);
    return unstamped<T>(word);
  };
  T total = T(0);
  if (gridDim.x <= 32) {
    if (threadIdx.x >= 32) return;
    total = reduce7::warp_sum(threadIdx.x < gridDim.x ? slot_value(threadIdx.x) : T(0));
  } else {
    for (int b = threadIdx.x; b < gridDim.x; b += BLOCK_THREADS) total += slot_value(b);
    total = reduce7::block_sum<BLOCK_THREADS>(total);
  }
  if (threadIdx.x == 0) {
    *out = total;
    // Ready for the next launch, which gets stamp + 1 when nothing else launched in between: its
    // blocks then find their own stamp and skip the reset.
    counter_ref(*counter).store(((stamp + 1) & STAMP_MASK) << COUNT_BITS,
                                cuda::memory_order_relaxed);
  }
}

template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ in, int n, T* out, unsigned long long* slots,
           unsigned long long* counter, unsigned long long stamp) {
  // Thread 0 asks for the counter now; the answer travels while the block loads its elements.
  unsigned long long seen = 0;
  if (threadIdx.x == 0) seen = counter_ref(*counter).load(cuda::memory_order_relaxed);
  const T sum = reduce7::block_sum<BLOCK_THREADS>(reduce8::thread_sum(in, n));  // in thread 0
  finish(sum, seen, out, slots, counter, stamp);
}
//! [kernel]

//! [launch]
// A stamp per launch. It starts at a value taken from the clock, so that a counter word left in
// reused memory by anything else matches the stamp of this launch only by the chance of 40 given
// bits; reduce9's own words from earlier launches carry earlier stamps.
inline unsigned long long next_stamp() {
  static std::atomic<std::uint64_t> next{[] {
    const auto ticks = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    return (ticks * 0x9E3779B97F4A7C15ull) >> COUNT_BITS;  // the clock's bits spread over 40
  }()};
  return next.fetch_add(1) & STAMP_MASK;
}

// Where the counter and the stamped partial sums (8 bytes each) lie in a workspace.
struct workspace_layout {
  unsigned long long* counter;
  unsigned long long* slots;
};

template <class T>
workspace_layout layout_of(T* workspace) {
  const std::uintptr_t counter = (reinterpret_cast<std::uintptr_t>(workspace) + 7) / 8 * 8;
  return {reinterpret_cast<unsigned long long*>(counter),
          reinterpret_cast<unsigned long long*>(counter + 8)};
}

// reduce8's grid (one block per tile, at most what fits on the GPU), for this kernel.
inline int grid_limit() {
  static const int resident =
      reduce8::resident_blocks(kernel<std::int32_t>, kernel<float>, BLOCK_THREADS);
  return std::min<int>(reduce8::WAVES * resident, int(COUNT_MASK));
}

inline int blocks_for(int count) { return reduce8::grid_for(count, grid_limit()); }

// Two 4-byte elements per slot, plus the counter and its alignment.
constexpr std::size_t workspace_elements_for_blocks(int blocks) {
  return 2 * std::size_t(blocks) + COUNTER_ELEMENTS;
}
inline std::size_t workspace_elements(int n) {
  return workspace_elements_for_blocks(blocks_for(n));
}

// One launch for every n, 0 included (one block that adds nothing and writes 0).
template <class T>
void launch(const T* d_in, int n, T* d_out, T* d_workspace) {
  const workspace_layout w = layout_of(d_workspace);
  const int blocks = blocks_for(n);
  kernel<T><<<blocks, BLOCK_THREADS>>>(d_in, n, d_out, w.slots, w.counter, next_stamp());
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace reduce9
