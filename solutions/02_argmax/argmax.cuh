// Exercise 02, argmax: the largest float of an array and the index of its first occurrence.
// Practises Part I: the reduction ladder with another operator, whose partial results are
// (value, index) pairs. The rules (NaN, ties, -inf, empty input) are in argmax_problem.hpp.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/check.cuh"
#include "common/exercise.hpp"
#include "exercises/02_argmax/argmax_problem.hpp"

namespace argmax {

using result = argmax_problem::result;
constexpr std::int64_t NO_INDEX = argmax_problem::NO_INDEX;

// >>> YOUR CODE: device code
// A candidate while the reduction runs: NONE (index past every real one) loses to any number,
// -inf included, so no special case is needed anywhere but at the very end.
constexpr std::int64_t NONE = INT64_MAX;
constexpr float NEG_INF = -std::numeric_limits<float>::infinity();
constexpr float QUIET_NAN = std::numeric_limits<float>::quiet_NaN();
constexpr int BLOCK_THREADS = 256;
constexpr int WARP_THREADS = 32;
constexpr int VECTORS_IN_FLIGHT = 4;  // float4 loads each thread issues before it compares
constexpr int BLOCKS_PER_SM = 4;      // 1024 threads per SM x 64 bytes in flight each
constexpr int FINAL_THREADS = 1024;   // the second pass: one block

struct candidate {
  float value;
  std::int64_t index;
};

// The operator: larger value, else smaller index. Associative and commutative, so any order of
// combining gives the sequential answer. A NaN value never wins (both comparisons are false).
__device__ __forceinline__ void keep_better(candidate& best, float value, std::int64_t index) {
  if (value > best.value || (value == best.value && index < best.index)) best = {value, index};
}

// The best of four consecutive elements (first, ..., first + 3), then one 64-bit comparison with
// best: in lane order a strict > keeps the earlier of equal values, and a NaN so far (value !=
// value) gives way to whatever comes next.
__device__ __forceinline__ void keep_better(candidate& best, float4 q, std::int64_t first) {
  float value = q.x;
  int lane = 0;
  if (q.y > value || value != value) {
    value = q.y;
    lane = 1;
  }
  if (q.z > value || value != value) {
    value = q.z;
    lane = 2;
  }
  if (q.w > value || value != value) {
    value = q.w;
    lane = 3;
  }
  keep_better(best, value, first + lane);
}

__device__ __forceinline__ candidate warp_best(candidate c) {
  for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2) {
    const float value = __shfl_down_sync(0xFFFFFFFFu, c.value, offset);
    const long long index = __shfl_down_sync(0xFFFFFFFFu, (long long)c.index, offset);
    keep_better(c, value, index);
  }
  return c;  // lane 0 holds the warp's best
}

// The block's best in thread 0: each warp's best through shared memory, then the first warp.
template <int THREADS>
__device__ __forceinline__ candidate block_best(candidate c) {
  constexpr int WARPS = THREADS / WARP_THREADS;
  __shared__ candidate warp_results[WARPS];
  const int lane = threadIdx.x % WARP_THREADS, warp = threadIdx.x / WARP_THREADS;
  c = warp_best(c);
  if (lane == 0) warp_results[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < WARPS ? warp_results[lane] : candidate{NEG_INF, NONE};
    c = warp_best(c);
  }
  return c;
}

// Pass 1: each block scans a grid-stride share of the array and writes its best to partials.
// The body is read as float4: `head` scalar elements up to the first 16-byte boundary, the
// vectors, then at most 3 scalar elements at the end.
__global__ void __launch_bounds__(BLOCK_THREADS, BLOCKS_PER_SM)
    best_per_block(const float* __restrict__ in, std::int64_t n, candidate* partials) {
  const std::int64_t thread = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * BLOCK_THREADS;
  candidate best{NEG_INF, NONE};

  const std::int64_t misalignment = (reinterpret_cast<std::uintptr_t>(in) / sizeof(float)) % 4;
  const std::int64_t head = misalignment == 0 ? 0 : (n < 4 - misalignment ? n : 4 - misalignment);
  const std::int64_t vectors = (n - head) / 4;
  const std::int64_t tail_begin = head + 4 * vectors;
  if (thread < head) keep_better(best, in[thread], thread);
  if (thread < n - tail_begin) keep_better(best, in[tail_begin + thread], tail_begin + thread);

  const float4* body = reinterpret_cast<const float4*>(in + head);
  std::int64_t v = thread;
  // Whole trips: VECTORS_IN_FLIGHT loads issued back to back, then compared. A thread's indices
  // only grow, but keep_better() does not rely on that.
  for (; v + (VECTORS_IN_FLIGHT - 1) * threads < vectors; v += VECTORS_IN_FLIGHT * threads) {
    float4 loaded[VECTORS_IN_FLIGHT];
#pragma unroll
    for (int k = 0; k < VECTORS_IN_FLIGHT; ++k) loaded[k] = body[v + k * threads];
#pragma unroll
    for (int k = 0; k < VECTORS_IN_FLIGHT; ++k)
      keep_better(best, loaded[k], head + 4 * (v + k * threads));
  }
  for (; v < vectors; v += threads) keep_better(best, body[v], head + 4 * v);

  best = block_best<BLOCK_THREADS>(best);
  if (threadIdx.x == 0) partials[blockIdx.x] = best;
}

// Pass 2: one block combines the partials and writes the answer in the problem's terms.
__global__ void __launch_bounds__(FINAL_THREADS)
    best_of_partials(const candidate* partials, int count, result* out) {
  candidate best{NEG_INF, NONE};
  for (int i = threadIdx.x; i < count; i += FINAL_THREADS)
    keep_better(best, partials[i].value, partials[i].index);
  best = block_best<FINAL_THREADS>(best);
  if (threadIdx.x == 0) {
    if (best.index == NONE)
      *out = result{QUIET_NAN, NO_INDEX};  // no number
    else
      *out = result{best.value, best.index};
  }
}

// Enough blocks to keep every SM's loads in flight, never more than there are vectors to load.
inline int blocks_for(std::int64_t n) {
  static const int max_blocks = [] {
    int device = 0, sm_count = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    return sm_count * BLOCKS_PER_SM;
  }();
  const std::int64_t per_block = std::int64_t(BLOCK_THREADS) * 4 * VECTORS_IN_FLIGHT;
  const std::int64_t wanted = (n + per_block - 1) / per_block;
  return int(wanted < max_blocks ? wanted : max_blocks);
}
// <<< YOUR CODE

// Bytes of device scratch that launch() may use for n elements (the program allocates them once,
// outside the timed region, and passes them as d_workspace; nullptr when 0).
inline std::size_t workspace_bytes(std::int64_t n) {
  // >>> YOUR CODE: workspace
  return std::size_t(blocks_for(n)) * sizeof(candidate);  // one partial per block of pass 1
  // <<< YOUR CODE
}

// Writes the argmax of d_in[0, n) to *d_result (device memory), every kernel on stream 0.
// n is in [0, 2^40]; d_in need not be 16-byte aligned; d_workspace holds workspace_bytes(n).
inline void launch(const float* d_in, std::int64_t n, void* d_workspace, result* d_result) {
  // >>> YOUR CODE: launch
  candidate* partials = static_cast<candidate*>(d_workspace);
  const int blocks = blocks_for(n);
  if (blocks > 0) {  // n == 0: no first pass; the second writes "no number"
    best_per_block<<<blocks, BLOCK_THREADS>>>(d_in, n, partials);
    CUDA_CHECK_LAUNCH();
  }
  best_of_partials<<<1, FINAL_THREADS>>>(partials, blocks, d_result);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace argmax
