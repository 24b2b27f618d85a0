// reverse_fast: a reversal at copy speed for any n, element types of 4 and 8 bytes, and pointers at
//   any element offset from a 16-byte boundary.
// The one idea: reverse_vectorized's shifted windows, generalized: the input's offset joins n % VEC
//   in the one shift of all windows, the output's offset becomes a head before its first 16-byte
//   boundary, 8-byte elements make 2-element groups; 64-bit indices; streaming stores.
// Changes from the previous step (reverse_vectorized): int32, float and int64 (moved as bits); any
//   element offset of either pointer; n up to 2^40; st.global.cs stores; UNROLL groups per thread
//   as a template parameter (the sweep measures 1, 2, 4, 8: one is best on our GPU); up to
//   ELEMENTS_MAX_N elements, a kernel that moves them one by one. The launch takes a stream and
//   returns a cudaError_t (overlapping arrays: cudaErrorInvalidValue); it never ends the process.
// What limits it: DRAM bandwidth, as cudaMemcpy (see its page for how close it gets).
// Run: build/bin/reverse_fast [--n 2^28] [--type int32|float|int64] [--in-offset 1] [--sweep]
// Source: none of the five; the store hints of transpose_fast.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/check.cuh"
#include "common/preconditions.hpp"

namespace reverse_fast {

constexpr int BLOCK_THREADS = 256;
constexpr int UNROLL = 1;  // groups (16 bytes each) per thread; the sweep: more do not pay

// The cache hints of the 16-byte accesses: the default and the --sweep's other choices.
constexpr int STREAMING_STORES = 0;  // ld.global, st.global.cs (evict first: not read again)
constexpr int PLAIN_STORES = 1;      // ld.global, st.global
constexpr int STREAMING_BOTH = 2;    // ld.global.cs, st.global.cs

template <class T>
constexpr int VEC = 16 / int(sizeof(T));  // elements per 16-byte group: 4 (int32, float), 2 (int64)
// The int32 output elements one block of the default writes (the tests' "block" edge sizes).
constexpr int BLOCK_ELEMENTS = VEC<std::int32_t> * UNROLL * BLOCK_THREADS;

//! [group]
// A 16-byte group of elements. Loads, stores and shuffles move it as 16 bytes (uint4); only the
// order of its elements matters, never their values.
template <class T>
struct alignas(16) group {
  T e[VEC<T>];
};
template <class T>
__device__ __forceinline__ group<T> from_bits(uint4 bits) {
  group<T> g;
  memcpy(&g, &bits, sizeof(g));
  return g;
}
template <class T>
__device__ __forceinline__ uint4 to_bits(const group<T>& g) {
  uint4 bits;
  memcpy(&bits, &g, sizeof(bits));
  return bits;
}
// The group that lane - delta (delta > 0) or lane + |delta| (delta < 0) holds. Every lane calls.
template <class T>
__device__ __forceinline__ group<T> shuffle(const group<T>& g, int delta) {
  uint4 b = to_bits(g);
  if (delta > 0) {
    b.x = __shfl_up_sync(0xffffffffu, b.x, delta);
    b.y = __shfl_up_sync(0xffffffffu, b.y, delta);
    b.z = __shfl_up_sync(0xffffffffu, b.z, delta);
    b.w = __shfl_up_sync(0xffffffffu, b.w, delta);
  } else {
    b.x = __shfl_down_sync(0xffffffffu, b.x, -delta);
    b.y = __shfl_down_sync(0xffffffffu, b.y, -delta);
    b.z = __shfl_down_sync(0xffffffffu, b.z, -delta);
    b.w = __shfl_down_sync(0xffffffffu, b.w, -delta);
  }
  return from_bits<T>(b);
}
// Elements SHIFT .. SHIFT + VEC - 1 of lo followed by hi, last first.
template <class T, int SHIFT>
__device__ __forceinline__ group<T> reversed_window(const group<T>& lo, const group<T>& hi) {
  group<T> r;
#pragma unroll
  for (int k = 0; k < VEC<T>; ++k) {
    const int x = SHIFT + VEC<T> - 1 - k;  // a constant once unrolled: no local memory
    r.e[k] = x < VEC<T> ? lo.e[x] : hi.e[x - VEC<T>];
  }
  return r;
}
//! [group]

//! [chunks]
// The array seen as aligned 16-byte chunks: chunk c holds elements [VEC * c - misalign, ... + VEC)
// of d. Only elements in [begin, end) may be read: a chunk wholly inside is one 16-byte load; the
// (at most two) chunks that reach past either end are read element by element, the rest left 0.
template <class T, int HINTS>
struct chunked_input {
  const T* d;
  std::int64_t begin, end;
  int misalign;  // elements between the 16-byte boundary below d and d

  __device__ __forceinline__ group<T> load(std::int64_t c) const {
    const std::int64_t first = VEC<T> * c - misalign;
    if (first >= begin && first + VEC<T> <= end) {
      const uint4* from = reinterpret_cast<const uint4*>(d + first);
      if constexpr (HINTS == STREAMING_BOTH)
        return from_bits<T>(__ldcs(from));
      else
        return from_bits<T>(*from);
    }
    group<T> g{};
#pragma unroll
    for (int k = 0; k < VEC<T>; ++k)
      if (first + k >= begin && first + k < end) g.e[k] = d[first + k];
    return g;
  }
};

template <int HINTS, class T>
__device__ __forceinline__ void store(T* to, const group<T>& g) {  // to: 16-byte aligned
  if constexpr (HINTS == PLAIN_STORES)
    *reinterpret_cast<uint4*>(to) = to_bits(g);
  else
    __stcs(reinterpret_cast<uint4*>(to), to_bits(g));
}
//! [chunks]

//! [plan]
// Where the 16-byte boundaries fall, computed once on the host. The output is split into a head
// (before its first boundary), whole groups, and a tail; the groups' input windows are shifted
// from the input's chunks by the same amount for every group.
struct plan {
  std::int64_t n = 0;
  std::int64_t head = 0;         // output elements before d_out's first 16-byte boundary
  std::int64_t groups = 0;       // whole 16-byte output groups after the head
  std::int64_t first_chunk = 0;  // the input chunk that output group 0's window starts in
  int misalign = 0;              // d_in's elements past its 16-byte boundary
  int shift = 0;                 // where in that chunk the window starts (same for every group)
};

template <class T>
plan make_plan(const T* d_in, const T* d_out, std::int64_t n) {
  constexpr int V = VEC<T>;
  plan p;
  p.n = n;
  const int out_misalign = int(reinterpret_cast<std::uintptr_t>(d_out) % 16 / sizeof(T));
  p.head = std::min<std::int64_t>(out_misalign == 0 ? 0 : V - out_misalign, n);
  const std::int64_t rest = n - p.head;  // out[head + i] = in[rest - 1 - i], i in [0, rest)
  p.groups = rest / V;
  p.misalign = int(reinterpret_cast<std::uintptr_t>(d_in) % 16 / sizeof(T));
  // Group j's window starts at input element rest - V - V * j, i.e. at chunk position
  // rest - V + misalign - V * j.
  p.first_chunk = p.groups > 0 ? (rest - V + p.misalign) / V : 0;
  p.shift = int((rest + p.misalign) % V);
  return p;
}
//! [plan]

//! [kernel]
template <class T, int SHIFT, int UNROLL_GROUPS, int HINTS>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ d_in, T* __restrict__ d_out, plan p) {
  constexpr int V = VEC<T>;
  const chunked_input<T, HINTS> in{d_in, 0, p.n, p.misalign};
  T* const out = d_out + p.head;  // 16-byte aligned
  const int lane = threadIdx.x % 32;
  // Output groups first, first + 256, ...: a warp's lanes hold consecutive groups in each round.
  const std::int64_t first = std::int64_t(blockIdx.x) * UNROLL_GROUPS * BLOCK_THREADS + threadIdx.x;

  group<T> lo[UNROLL_GROUPS], hi[UNROLL_GROUPS];
#pragma unroll
  for (int u = 0; u < UNROLL_GROUPS; ++u) {  // every load in flight before the first store
    const std::int64_t j = first + std::int64_t(u) * BLOCK_THREADS;
    lo[u] = j < p.groups ? in.load(p.first_chunk - j) : group<T>{};
    // The window's upper part is in the next chunk: the previous lane's lo, except for lane 0.
    if (SHIFT != 0 && lane == 0 && j < p.groups) hi[u] = in.load(p.first_chunk - j + 1);
  }
#pragma unroll
  for (int u = 0; u < UNROLL_GROUPS; ++u) {
    const std::int64_t j = first + std::int64_t(u) * BLOCK_THREADS;
    if constexpr (SHIFT != 0) {
      const group<T> from_previous_lane = shuffle(lo[u], 1);  // every lane takes part
      if (lane != 0) hi[u] = from_previous_lane;
    }
    if (j < p.groups) store<HINTS>(out + V * j, reversed_window<T, SHIFT>(lo[u], hi[u]));
  }
  // The thread of group index `groups` (one past the last) moves the head and the tail: fewer
  // than 2 * V elements.
  if ((p.groups - first) % BLOCK_THREADS == 0 && p.groups >= first &&
      p.groups < first + std::int64_t(UNROLL_GROUPS) * BLOCK_THREADS) {
    for (std::int64_t k = 0; k < p.head; ++k) d_out[k] = d_in[p.n - 1 - k];
    const std::int64_t rest = p.n - p.head;
    for (std::int64_t i = V * p.groups; i < rest; ++i) out[i] = d_in[rest - 1 - i];
  }
}
//! [kernel]

//! [small]
// Up to ELEMENTS_MAX_N elements the step reverses element by element, SMALL_BLOCK_ELEMENTS per
// block, every load of a thread issued before its first store. At such sizes a call is little
// more than a launch and one trip to memory, and the 16-byte kernel above, with its 64-bit plan and
// its head and tail moved one element after another, took a fraction of a microsecond longer:
// Thrust, which moves 4-byte elements, was a few percent faster there (see the page).
// reverse_in_place uses the same loads and stores in one block.
constexpr int SMALL_PER_THREAD = 4;
constexpr int SMALL_BLOCK_ELEMENTS = SMALL_PER_THREAD * BLOCK_THREADS;
constexpr int ELEMENTS_MAX_N = 1 << 17;

template <class T>
__device__ __forceinline__ void load_small(const T* d_in, int n, T (&v)[SMALL_PER_THREAD]) {
#pragma unroll
  for (int u = 0; u < SMALL_PER_THREAD; ++u) {
    const int i = int(blockIdx.x) * SMALL_BLOCK_ELEMENTS + int(threadIdx.x) + u * BLOCK_THREADS;
    if (i < n) v[u] = d_in[n - 1 - i];  // out[i] = in[n - 1 - i]
  }
}

template <class T>
__device__ __forceinline__ void store_small(T* d_out, int n, const T (&v)[SMALL_PER_THREAD]) {
#pragma unroll
  for (int u = 0; u < SMALL_PER_THREAD; ++u) {
    const int i = int(blockIdx.x) * SMALL_BLOCK_ELEMENTS + int(threadIdx.x) + u * BLOCK_THREADS;
    if (i < n) d_out[i] = v[u];
  }
}

template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    elements_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, int n) {
  T v[SMALL_PER_THREAD];
  load_small(d_in, n, v);
  store_small(d_out, n, v);
}
//! [small]

//! [launch]
// The launch functions (this step's and reverse_in_place's) return the first CUDA error as a
// cudaError_t and never end the process; they run on `stream`, with no synchronization inside.
// Arguments that break the preconditions (check_arguments) give cudaErrorInvalidValue, and nothing
// is written.

// The kernel for the plan's shift (0 .. VEC - 1; a template argument, so the window's element
// picks are constants).
template <class T, int UNROLL_GROUPS, int HINTS, int SHIFT = 0>
cudaError_t launch_shift(const T* d_in, T* d_out, const plan& p, unsigned blocks,
                         cudaStream_t stream) {
  if constexpr (SHIFT < VEC<T>) {
    if (p.shift != SHIFT)
      return launch_shift<T, UNROLL_GROUPS, HINTS, SHIFT + 1>(d_in, d_out, p, blocks, stream);
    kernel<T, SHIFT, UNROLL_GROUPS, HINTS><<<blocks, BLOCK_THREADS, 0, stream>>>(d_in, d_out, p);
    return cudaGetLastError();
  }
  return cudaErrorInvalidValue;  // no shift past VEC - 1
}

// A pointer aligned to its element, as every T* must be (any element offset from 16 bytes is
// fine: the plan takes it); null only where nothing is read or written.
template <class T>
bool element_aligned(const T* d) {
  return d != nullptr && reinterpret_cast<std::uintptr_t>(d) % sizeof(T) == 0;
}

// The preconditions: n >= 0; for n > 0 both pointers element-aligned, and the arrays apart (no
// shared byte: a reversal onto itself is reverse_in_place's, and a partial overlap would overwrite
// input not read yet).
template <class T>
cudaError_t check_arguments(const T* d_in, const T* d_out, std::int64_t n) {
  if (n < 0) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  if (!element_aligned(d_in) || !element_aligned(d_out)) return cudaErrorInvalidValue;
  const std::size_t bytes = std::size_t(n) * sizeof(T);
  return common::overlapping(d_in, bytes, d_out, bytes) ? cudaErrorInvalidValue : cudaSuccess;
}

// The 16-byte kernel (the sweep's variants at every n): element-aligned pointers at any offset from
// a 16-byte boundary; any n up to 2^40.
template <class T, int UNROLL_GROUPS = UNROLL, int HINTS = STREAMING_STORES>
cudaError_t launch_variant(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0) {
  CUDA_TRY(check_arguments(d_in, d_out, n));
  if (n == 0) return cudaSuccess;
  const plan p = make_plan(d_in, d_out, n);
  // One thread per output group, plus the one that moves the head and the tail.
  const std::int64_t per_block = std::int64_t(UNROLL_GROUPS) * BLOCK_THREADS;
  const std::int64_t blocks = (p.groups + 1 + per_block - 1) / per_block;
  return launch_shift<T, UNROLL_GROUPS, HINTS>(d_in, d_out, p, unsigned(blocks), stream);
}

// The step: the element kernel up to ELEMENTS_MAX_N, the 16-byte kernel past it.
template <class T>
cudaError_t launch(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0) {
  if (n > ELEMENTS_MAX_N) return launch_variant<T>(d_in, d_out, n, stream);
  CUDA_TRY(check_arguments(d_in, d_out, n));
  if (n == 0) return cudaSuccess;
  const unsigned blocks = unsigned((n + SMALL_BLOCK_ELEMENTS - 1) / SMALL_BLOCK_ELEMENTS);
  elements_kernel<<<blocks, BLOCK_THREADS, 0, stream>>>(d_in, d_out, int(n));
  return cudaGetLastError();
}
//! [launch]

// The programs' and the tests' form of a launch function: on stream 0, and a CUDA error ends the
// process (CUDA_CHECK), as the common program's variants expect.
template <class T, cudaError_t (*LAUNCH)(const T*, T*, std::int64_t, cudaStream_t)>
void checked(const T* d_in, T* d_out, std::int64_t n) {
  CUDA_CHECK(LAUNCH(d_in, d_out, n, 0));
}

}  // namespace reverse_fast
