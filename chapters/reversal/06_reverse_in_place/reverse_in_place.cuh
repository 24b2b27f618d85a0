// reverse_in_place: the array reversed where it stands, at copy speed, for any n, type and offset.
// The one idea: element i trades places with n - 1 - i. Each thread owns whole pairs: an aligned
//   16-byte group of the front half and the mirror window of the back half, which it reads before
//   anyone writes them. The windows are shifted from the back half's 16-byte chunks by one amount
//   for all, as in reverse_fast; the groups of a block exchange the halves of their chunks through
//   shared memory, so that the back half too is read and written 16 bytes at a time.
// Changes from the previous step (reverse_fast): one array; front groups and mirror windows owned
//   together; the back half's chunks written back whole after the exchange (the two chunks a block
//   shares with its neighbours element by element); the few pairs left at the head and in the
//   middle swapped by one thread; n of at most SMALL_N in one block, element by element, with a
//   barrier between its loads and its stores. The launch takes a stream and returns a
//   cudaError_t; it never ends the process.
// What limits it: DRAM bandwidth: it moves a copy's bytes (see its page).
// Run: build/bin/reverse_in_place [--n 2^28] [--type int32|float|int64] [--offset 1] [--sweep]
// Source: none of the five; the issue's in-place variant of the course's exercise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "chapters/reversal/05_reverse_fast/reverse_fast.cuh"
#include "common/check.cuh"

namespace reverse_in_place {

// reverse_fast's 16-byte groups, windows, chunked loads and hinted stores.
using reverse_fast::group;
using reverse_fast::PLAIN_STORES;
using reverse_fast::STREAMING_STORES;
using reverse_fast::VEC;

constexpr int BLOCK_THREADS = 256;
constexpr int UNROLL = 1;  // front groups per thread (the sweep: more do not pay)
// The int32 elements one block of the default swaps, front and back (the tests' edge sizes).
constexpr int BLOCK_ELEMENTS = 2 * VEC<std::int32_t> * UNROLL * BLOCK_THREADS;

//! [plan]
// Where the 16-byte boundaries fall, computed once on the host. The front half [0, n / 2) is cut
// into a head (before its first boundary), whole groups, and a rest of fewer than VEC elements;
// group g's mirror window, [n - head - VEC (g + 1), n - head - VEC g), starts at the same place in
// a back chunk for every g.
struct plan {
  std::int64_t n = 0;
  std::int64_t head = 0;         // front elements before the first 16-byte boundary
  std::int64_t groups = 0;       // whole front groups after the head
  std::int64_t back_begin = 0;   // the groups' mirror windows cover [back_begin, back_end):
  std::int64_t back_end = 0;     //   the only back elements the groups' threads may read
  std::int64_t first_chunk = 0;  // the chunk that group 0's window starts in
  int misalign = 0;              // d_data's elements past its 16-byte boundary
  int shift = 0;                 // where in that chunk the window starts (same for every group)
};

template <class T>
plan make_plan(const T* d_data, std::int64_t n) {
  constexpr int V = VEC<T>;
  plan p;
  p.n = n;
  p.misalign = int(reinterpret_cast<std::uintptr_t>(d_data) % 16 / sizeof(T));
  const std::int64_t half = n / 2;  // for odd n the middle element stays where it is
  p.head = std::min<std::int64_t>(p.misalign == 0 ? 0 : V - p.misalign, half);
  p.groups = (half - p.head) / V;
  p.back_end = n - p.head;
  p.back_begin = p.back_end - V * p.groups;
  // Window g starts at chunk position n - head - V + misalign - V g (not negative if groups > 0).
  p.first_chunk = p.groups > 0 ? (n - p.head - V + p.misalign) / V : 0;
  p.shift = int((n - p.head + p.misalign) % V);
  return p;
}
//! [plan]

//! [kernel]
// Elements [from, to) of chunk c only, the rest 0: a run of groups never reads the part of a chunk
// that the next or the previous run owns (and may be writing).
template <class T, int HINTS>
__device__ __forceinline__ group<T> load_part(const reverse_fast::chunked_input<T, HINTS>& in,
                                              std::int64_t c, int from, int to) {
  group<T> g{};
  const std::int64_t first = VEC<T> * c - in.misalign;
#pragma unroll
  for (int k = 0; k < VEC<T>; ++k)
    if (k >= from && k < to && first + k >= in.begin && first + k < in.end)
      g.e[k] = in.d[first + k];
  return g;
}

// Where the groups exchange window halves: within a warp by shuffles (a run of 32 groups), or
// within a block through shared memory (a run of UNROLL x 256 groups). Only the first and the last
// group of a run share a chunk with another run, and write their part of it alone.
constexpr int WARP_SHUFFLES = 0;
constexpr int BLOCK_SHARED = 1;

template <int EXCHANGE, int UNROLL_GROUPS>
constexpr int RUN_GROUPS = EXCHANGE == BLOCK_SHARED ? UNROLL_GROUPS* BLOCK_THREADS : 32;

template <class T, int SHIFT, int UNROLL_GROUPS, int HINTS, int EXCHANGE>
__global__ void __launch_bounds__(BLOCK_THREADS) kernel(T* __restrict__ d_data, plan p) {
  constexpr int V = VEC<T>;
  constexpr int RUN = RUN_GROUPS<EXCHANGE, UNROLL_GROUPS>;
  using reverse_fast::from_bits;
  using reverse_fast::reversed_window;
  using reverse_fast::to_bits;
  const reverse_fast::chunked_input<T, HINTS> back{d_data, p.back_begin, p.back_end, p.misalign};
  T* const front = d_data + p.head;       // 16-byte aligned
  T* const chunks = d_data - p.misalign;  // the 16-byte boundary at or below d_data
  // A block's groups are contiguous: round u of thread t has group first + 256 u, so the window
  // of group j + 1 sits just below that of group j, and a warp's round is 512 contiguous bytes.
  const std::int64_t block_first = std::int64_t(blockIdx.x) * UNROLL_GROUPS * BLOCK_THREADS;
  auto place_in_run = [&](int u) {  // [0, RUN)
    return EXCHANGE == BLOCK_SHARED ? u * BLOCK_THREADS + int(threadIdx.x) : int(threadIdx.x) % 32;
  };

  group<T> front_old[UNROLL_GROUPS], lo[UNROLL_GROUPS], hi[UNROLL_GROUPS];
#pragma unroll
  for (int u = 0; u < UNROLL_GROUPS; ++u) {  // every load in flight before the first store
    const std::int64_t j = block_first + u * BLOCK_THREADS + threadIdx.x;
    const int k = place_in_run(u);
    front_old[u] = lo[u] = hi[u] = group<T>{};
    if (j < p.groups) {
      front_old[u] = from_bits<T>(*reinterpret_cast<const uint4*>(front + V * j));
      // The window's lower part; for a run's last group the chunk's other part is another run's.
      lo[u] = SHIFT != 0 && k == RUN - 1 ? load_part(back, p.first_chunk - j, SHIFT, V)
                                         : back.load(p.first_chunk - j);
      // The window's upper part is in the next chunk: group j - 1's lo, except for a run's first
      // group, which reads only its own part of it.
      if (SHIFT != 0 && k == 0) hi[u] = load_part(back, p.first_chunk - j + 1, 0, SHIFT);
    }
  }
  // The window gets the front group reversed.
  group<T> window_new[UNROLL_GROUPS], next_window[UNROLL_GROUPS];
#pragma unroll
  for (int u = 0; u < UNROLL_GROUPS; ++u)
    window_new[u] = reversed_window<T, 0>(front_old[u], front_old[u]);
  // The exchange: hi from group j - 1's lo; next_window, group j + 1's window, for the part of
  // our window's chunk that belongs to it (its last SHIFT elements).
  if constexpr (SHIFT != 0 && EXCHANGE == WARP_SHUFFLES) {
#pragma unroll
    for (int u = 0; u < UNROLL_GROUPS; ++u) {  // every lane takes part
      const group<T> from_previous_lane = reverse_fast::shuffle(lo[u], 1);
      if (place_in_run(u) != 0) hi[u] = from_previous_lane;
      next_window[u] = reverse_fast::shuffle(window_new[u], -1);
    }
  } else if constexpr (SHIFT != 0) {
    __shared__ uint4 lo_of[RUN], window_of[RUN];  // [place in run]
#pragma unroll
    for (int u = 0; u < UNROLL_GROUPS; ++u) {
      lo_of[place_in_run(u)] = to_bits(lo[u]);
      window_of[place_in_run(u)] = to_bits(window_new[u]);
    }
    __syncthreads();  // every group's lo and window are in shared memory
#pragma unroll
    for (int u = 0; u < UNROLL_GROUPS; ++u) {
      const int k = place_in_run(u);
      if (k != 0) hi[u] = from_bits<T>(lo_of[k - 1]);
      if (k != RUN - 1) next_window[u] = from_bits<T>(window_of[k + 1]);
    }
  }
#pragma unroll
  for (int u = 0; u < UNROLL_GROUPS; ++u) {
    const std::int64_t j = block_first + u * BLOCK_THREADS + threadIdx.x;
    if (j >= p.groups) continue;
    const int k = place_in_run(u);
    T* const chunk = chunks + V * (p.first_chunk - j);  // where the window starts
    // The front group gets the window reversed.
    reverse_fast::store<HINTS>(front + V * j,
                               reversed_window<T, SHIFT>(lo[u], SHIFT ? hi[u] : lo[u]));
    if constexpr (SHIFT == 0) {
      reverse_fast::store<HINTS>(chunk, window_new[u]);
    } else {
      if (k != RUN - 1 && j + 1 < p.groups) {  // group j + 1's part of the chunk is ours to write
        group<T> whole;
#pragma unroll
        for (int e = 0; e < V; ++e)
          whole.e[e] = e < SHIFT ? next_window[u].e[V - SHIFT + e] : window_new[u].e[e - SHIFT];
        reverse_fast::store<HINTS>(chunk, whole);
      } else {  // a run's or the array's last group: only our own elements of the chunk
#pragma unroll
        for (int e = SHIFT; e < V; ++e) chunk[e] = window_new[u].e[e - SHIFT];
      }
      if (k == 0) {  // the upper part of our window, which no group j - 1 of this run writes
#pragma unroll
        for (int e = 0; e < SHIFT; ++e) chunk[V + e] = window_new[u].e[V - SHIFT + e];
      }
    }
  }
  // The thread of group index `groups` (one past the last) swaps the pairs the groups leave: the
  // head and the middle rest, fewer than 2 * V pairs. No group's thread reads or writes them.
  const std::int64_t first = block_first + threadIdx.x;
  if ((p.groups - first) % BLOCK_THREADS == 0 && p.groups >= first &&
      p.groups < first + std::int64_t(UNROLL_GROUPS) * BLOCK_THREADS) {
    auto swap_pair = [&](std::int64_t i) {
      const T a = d_data[i];
      d_data[i] = d_data[p.n - 1 - i];
      d_data[p.n - 1 - i] = a;
    };
    for (std::int64_t i = 0; i < p.head; ++i) swap_pair(i);
    for (std::int64_t i = p.head + V * p.groups; i < p.n / 2; ++i) swap_pair(i);
  }
}
//! [kernel]

// n of at most SMALL_N elements: one block, reverse_fast's element loads and stores with a
// barrier between them, so that every element is read before any is overwritten (see
// reverse_fast). One block only: blocks cannot wait for each other.
constexpr int SMALL_N = reverse_fast::SMALL_BLOCK_ELEMENTS;
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS) small_kernel(T* d_data, int n) {
  static_assert(BLOCK_THREADS == reverse_fast::BLOCK_THREADS, "reverse_fast's small block");
  T v[reverse_fast::SMALL_PER_THREAD];
  reverse_fast::load_small(d_data, n, v);
  __syncthreads();
  reverse_fast::store_small(d_data, n, v);
}

//! [launch]
// The launch functions follow reverse_fast's convention: a stream, a returned cudaError_t
// (cudaErrorInvalidValue for an array that is null or not aligned to its element, and nothing
// written), never an end of the process.

// The kernel for the plan's shift (0 .. VEC - 1; a template argument, so the element picks are
// constants).
template <class T, int UNROLL_GROUPS, int HINTS, int EXCHANGE, int SHIFT = 0>
cudaError_t launch_shift(T* d_data, const plan& p, unsigned blocks, cudaStream_t stream) {
  if constexpr (SHIFT < VEC<T>) {
    if (p.shift != SHIFT)
      return launch_shift<T, UNROLL_GROUPS, HINTS, EXCHANGE, SHIFT + 1>(d_data, p, blocks, stream);
    kernel<T, SHIFT, UNROLL_GROUPS, HINTS, EXCHANGE>
        <<<blocks, BLOCK_THREADS, 0, stream>>>(d_data, p);
    return cudaGetLastError();
  }
  return cudaErrorInvalidValue;  // no shift past VEC - 1
}

// The precondition: n >= 0, and for n > 1 (where something moves) an element-aligned array.
template <class T>
cudaError_t check_arguments(const T* d_data, std::int64_t n) {
  if (n < 0) return cudaErrorInvalidValue;
  return n < 2 || reverse_fast::element_aligned(d_data) ? cudaSuccess : cudaErrorInvalidValue;
}

// The 16-byte kernel (the sweep's variants at every n): d_data at any element offset from a 16-byte
// boundary; any n up to 2^40.
template <class T, int UNROLL_GROUPS = UNROLL, int HINTS = STREAMING_STORES,
          int EXCHANGE = BLOCK_SHARED>
cudaError_t launch_variant(T* d_data, std::int64_t n, cudaStream_t stream = 0) {
  CUDA_TRY(check_arguments(d_data, n));
  if (n < 2) return cudaSuccess;  // nothing moves
  const plan p = make_plan(d_data, n);
  // One thread per front group, plus the one that swaps the head and the middle rest.
  const std::int64_t per_block = std::int64_t(UNROLL_GROUPS) * BLOCK_THREADS;
  const std::int64_t blocks = (p.groups + 1 + per_block - 1) / per_block;
  return launch_shift<T, UNROLL_GROUPS, HINTS, EXCHANGE>(d_data, p, unsigned(blocks), stream);
}

// The step: the small kernel up to SMALL_N, the 16-byte kernel past it.
template <class T>
cudaError_t launch(T* d_data, std::int64_t n, cudaStream_t stream = 0) {
  if (n < 2 || n > SMALL_N) return launch_variant<T>(d_data, n, stream);
  CUDA_TRY(check_arguments(d_data, n));
  small_kernel<<<1, BLOCK_THREADS, 0, stream>>>(d_data, int(n));
  return cudaGetLastError();
}
//! [launch]

// The programs' and the tests' form of a launch function: on stream 0, and a CUDA error ends the
// process (CUDA_CHECK), as the common program's variants expect.
template <class T, cudaError_t (*LAUNCH)(T*, std::int64_t, cudaStream_t)>
void checked(T* d_data, std::int64_t n) {
  CUDA_CHECK(LAUNCH(d_data, n, 0));
}

}  // namespace reverse_in_place
