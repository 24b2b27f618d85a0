// scan_conflict_free: the work-efficient scan with its shared-memory tree padded against bank
//   conflicts.
// The one idea: one unused word after every 32 (and one more after every 1024) shifts each
//   address i to i + i/32 + i/1024, so addresses 2^d apart no longer share a bank.
// Changes from the previous step (scan_work_efficient): every tree index goes through
//   padded_index(); loads and stores take elements k and k + 1024 (consecutive across a warp)
//   instead of 2k and 2k + 1. The widely copied CONFLICT_FREE_OFFSET macro gets this wrong by
//   operator precedence: the variant "miscopied" computes what it computes (no padding at all).
// What limits it: one block (n <= 2048), and a single block's launch is all its time.
// Run: build/bin/scan_conflict_free [--n 2048] [--sweep | --variant padding=none]
// Source: the slides name "the work-efficient, bank-conflict-free scan" they measure (source 001,
//   part 4, "Parallel scan: performance"); the padding is GPU Gems 3, chapter 39, section 39.2.3.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/check.cuh"

namespace scan_conflict_free {

constexpr int BLOCK_THREADS = 1024;
constexpr int TILE_ELEMENTS = 2 * BLOCK_THREADS;
constexpr std::int64_t MAX_N = TILE_ELEMENTS;
constexpr int NUM_BANKS = 32;  // 4-byte banks of shared memory, since Fermi (the G80 had 16)
constexpr int LOG_NUM_BANKS = 5;

enum class padding { none, miscopied, correct };

//! [padding]
// The padding as intended: one word after every NUM_BANKS words, and one more after every
// NUM_BANKS^2 (the strides of 1024 and more, which the first term alone leaves 2-way conflicted).
__host__ __device__ constexpr int conflict_free_offset(int i) {
  return (i >> LOG_NUM_BANKS) + (i >> (2 * LOG_NUM_BANKS));
}
// The widely copied macro,
//   #define CONFLICT_FREE_OFFSET(n) ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))
// names NUM_BANKS where it means LOG_NUM_BANKS, and + binds tighter than >>, so it parses as
//   ((n) >> (NUM_BANKS + (n))) >> (2 * LOG_NUM_BANKS).
// A shift by NUM_BANKS + n >= 32 bits is undefined in C++; the GPU's shift clamps the count to the
// register width, which gives 0; and i >> s is 0 whenever i < 2^s anyway. Written here without
// the undefined shift, it is what the macro computes: 0 for every index.
__host__ __device__ constexpr int miscopied_offset(int i) {
  const int shift = NUM_BANKS + i;
  return (shift >= 32 ? 0 : i >> shift) >> (2 * LOG_NUM_BANKS);
}

template <padding P>
__host__ __device__ constexpr int padded_index(int i) {
  if constexpr (P == padding::correct)
    return i + conflict_free_offset(i);
  else if constexpr (P == padding::miscopied)
    return i + miscopied_offset(i);
  else
    return i;
}
// Words of shared memory the padded tree needs.
template <padding P>
__host__ __device__ constexpr int tree_words() {
  return padded_index<P>(TILE_ELEMENTS - 1) + 1;
}
//! [padding]

//! [kernel]
template <class T, padding P>
__global__ void __launch_bounds__(BLOCK_THREADS) kernel(const T* in, int n, T* out) {
  __shared__ T tree[tree_words<P>()];
  const int k = threadIdx.x;  // [0, BLOCK_THREADS); owns elements k and k + BLOCK_THREADS
  const int a = k, b = k + BLOCK_THREADS;
  tree[padded_index<P>(a)] = a < n ? in[a] : T(0);
  tree[padded_index<P>(b)] = b < n ? in[b] : T(0);
  int stride = 1;
  for (int active = TILE_ELEMENTS / 2; active > 0; active /= 2) {  // up-sweep
    __syncthreads();                                               // the level below is complete
    if (k < active) {
      const int left = stride * (2 * k + 1) - 1, right = stride * (2 * k + 2) - 1;
      tree[padded_index<P>(right)] += tree[padded_index<P>(left)];
    }
    stride *= 2;
  }
  if (k == 0) tree[padded_index<P>(TILE_ELEMENTS - 1)] = T(0);
  for (int active = 1; active < TILE_ELEMENTS; active *= 2) {  // down-sweep
    stride /= 2;
    __syncthreads();  // the level above is complete
    if (k < active) {
      const int left = padded_index<P>(stride * (2 * k + 1) - 1);
      const int right = padded_index<P>(stride * (2 * k + 2) - 1);
      const T left_value = tree[left];
      tree[left] = tree[right];
      tree[right] += left_value;
    }
  }
  __syncthreads();  // the scan is complete
  if (a < n) out[a] = tree[padded_index<P>(a)];
  if (b < n) out[b] = tree[padded_index<P>(b)];
}
//! [kernel]

//! [launch]
// n <= MAX_N (the program refuses larger n); n = 0 launches nothing.
template <class T, padding P = padding::correct>
void launch(const T* d_in, std::int64_t n, T* d_out) {
  if (n == 0) return;
  kernel<T, P><<<1, BLOCK_THREADS>>>(d_in, int(n), d_out);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

}  // namespace scan_conflict_free
