// Exercise 03, mean_variance: the mean and the population variance of a float array in one pass.
// Practises Part I: a reduction whose partial results are structs (count, mean, M2), combined
// with Chan's formula. The tolerance and its derivation are in mean_variance_problem.hpp.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/check.cuh"
#include "common/exercise.hpp"
#include "exercises/03_mean_variance/mean_variance_problem.hpp"

namespace mean_variance {

using result = mean_variance_problem::result;

// >>> YOUR CODE: device code
constexpr int BLOCK_THREADS = 256;
constexpr int WARP_THREADS = 32;
constexpr int BLOCKS_PER_SM = 4;
constexpr int VECTORS_IN_FLIGHT = 4;  // float4 loads each thread issues before it updates
constexpr int FINAL_THREADS = 512;    // the second pass: one block
constexpr double QUIET_NAN = std::numeric_limits<double>::quiet_NaN();

// The partial result: how many elements, their mean, and M2 = sum of (x - mean)^2. The count is a
// double (exact up to 2^53) because it only ever enters the formulas as one.
struct moments {
  double count;
  double mean;
  double m2;
};

// Chan, Golub and LeVeque's combine of two partial results. Exact for an empty side (count 0
// gives weight 0); both sides empty stay empty.
__device__ __forceinline__ moments combine(const moments& a, const moments& b) {
  const double count = a.count + b.count;
  if (count == 0) return a;
  const double delta = b.mean - a.mean;
  const double b_share = b.count / count;
  return {count, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * a.count * b_share};
}

__device__ __forceinline__ moments warp_combine(moments m) {
  for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2) {
    const moments other{__shfl_down_sync(0xFFFFFFFFu, m.count, offset),
                        __shfl_down_sync(0xFFFFFFFFu, m.mean, offset),
                        __shfl_down_sync(0xFFFFFFFFu, m.m2, offset)};
    m = combine(m, other);
  }
  return m;  // lane 0 holds the warp's moments
}

// The block's moments in thread 0.
template <int THREADS>
__device__ __forceinline__ moments block_combine(moments m) {
  constexpr int WARPS = THREADS / WARP_THREADS;
  __shared__ moments warp_results[WARPS];
  const int lane = threadIdx.x % WARP_THREADS, warp = threadIdx.x / WARP_THREADS;
  m = warp_combine(m);
  if (lane == 0) warp_results[warp] = m;
  __syncthreads();
  if (warp == 0) m = warp_combine(lane < WARPS ? warp_results[lane] : moments{0, 0, 0});
  return m;
}

// Welford's update of one float lane: count is the lane's new count, inverse its reciprocal.
__device__ __forceinline__ void welford(float x, float inverse, float& mean, float& m2) {
  const float delta = x - mean;
  mean = fmaf(delta, inverse, mean);
  m2 = fmaf(delta, x - mean, m2);
}

// One float4 into the four lanes' states, whose shared count is now `count`.
__device__ __forceinline__ void update(float4 q, int count, float4& mean, float4& m2) {
  const float inverse = __frcp_rn(float(count));
  welford(q.x, inverse, mean.x, m2.x);
  welford(q.y, inverse, mean.y, m2.y);
  welford(q.z, inverse, mean.z, m2.z);
  welford(q.w, inverse, mean.w, m2.w);
}

// Pass 1: each thread reads float4s with a grid stride and keeps four float Welford states, one
// per lane of the float4, which share one count and one reciprocal per float4. The states become
// double moments and are combined (lanes, then up to three scalar elements before the first
// 16-byte boundary and three after the last, then warp, then block) with Chan's formula.
__global__ void __launch_bounds__(BLOCK_THREADS, BLOCKS_PER_SM)
    moments_per_block(const float* __restrict__ in, std::int64_t n, moments* partials) {
  const std::int64_t thread = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * BLOCK_THREADS;
  const std::int64_t misalignment = (reinterpret_cast<std::uintptr_t>(in) / sizeof(float)) % 4;
  const std::int64_t head = misalignment == 0 ? 0 : (n < 4 - misalignment ? n : 4 - misalignment);
  const std::int64_t vectors = (n - head) / 4;
  const std::int64_t tail_begin = head + 4 * vectors;

  const float4* body = reinterpret_cast<const float4*>(in + head);
  float4 mean = make_float4(0, 0, 0, 0), m2 = make_float4(0, 0, 0, 0);
  int count = 0;  // vectors this thread has read: at most 2^40 / 4 / threads
  std::int64_t v = thread;
  // Whole trips: VECTORS_IN_FLIGHT loads issued back to back, then the dependent updates.
  for (; v + (VECTORS_IN_FLIGHT - 1) * threads < vectors; v += VECTORS_IN_FLIGHT * threads) {
    float4 loaded[VECTORS_IN_FLIGHT];
#pragma unroll
    for (int k = 0; k < VECTORS_IN_FLIGHT; ++k) loaded[k] = body[v + k * threads];
#pragma unroll
    for (int k = 0; k < VECTORS_IN_FLIGHT; ++k) update(loaded[k], ++count, mean, m2);
  }
  for (; v < vectors; v += threads) update(body[v], ++count, mean, m2);
  const double c = count;
  moments m = combine(combine(moments{c, mean.x, m2.x}, moments{c, mean.y, m2.y}),
                      combine(moments{c, mean.z, m2.z}, moments{c, mean.w, m2.w}));
  if (thread < head) m = combine(m, moments{1, in[thread], 0});
  if (thread < n - tail_begin) m = combine(m, moments{1, in[tail_begin + thread], 0});

  m = block_combine<BLOCK_THREADS>(m);
  if (threadIdx.x == 0) partials[blockIdx.x] = m;
}

// Pass 2: one block combines the partials and writes mean and M2 / n (NaN for no element).
__global__ void __launch_bounds__(FINAL_THREADS)
    finish(const moments* partials, int count, result* out) {
  moments m{0, 0, 0};
  for (int i = threadIdx.x; i < count; i += FINAL_THREADS) m = combine(m, partials[i]);
  m = block_combine<FINAL_THREADS>(m);
  if (threadIdx.x == 0)
    *out = m.count == 0 ? result{QUIET_NAN, QUIET_NAN} : result{m.mean, m.m2 / m.count};
}

// Enough blocks to keep every SM's loads in flight, never more than one trip's worth of vectors.
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
  return std::size_t(blocks_for(n)) * sizeof(moments);  // one partial per block of pass 1
  // <<< YOUR CODE
}

// Writes the mean and the population variance of d_in[0, n) to *d_result (device memory), every
// kernel on stream 0. n is in [0, 2^40]; d_in need not be 16-byte aligned; d_workspace holds
// workspace_bytes(n).
inline void launch(const float* d_in, std::int64_t n, void* d_workspace, result* d_result) {
  // >>> YOUR CODE: launch
  moments* partials = static_cast<moments*>(d_workspace);
  const int blocks = blocks_for(n);
  if (blocks > 0) {  // n == 0: no first pass; the second writes NaN
    moments_per_block<<<blocks, BLOCK_THREADS>>>(d_in, n, partials);
    CUDA_CHECK_LAUNCH();
  }
  finish<<<1, FINAL_THREADS>>>(partials, blocks, d_result);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace mean_variance
