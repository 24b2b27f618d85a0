// Exercise 10, histogram: a 256-bin histogram of bytes with 64-bit counts, on skewed inputs.
// Practises the reduction part's idea with another operator: each block reduces its share of the
// input into a private histogram in shared memory, and the blocks' histograms are then merged;
// atomics, contention and privatisation.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace histogram {

// >>> YOUR CODE: kernels
// One kernel, one wave of blocks looping over the input in 16-byte loads (four in flight per
// thread). Each block privatises the histogram in shared memory, and privatises it once more per
// lane: 32 copies of the 256 bins, bin b of lane l at word b * 32 + l, which is always in bank l.
// So the 32 atomic adds of a warp go to 32 different words in 32 different banks whatever the
// bytes are: a skewed input (even all bytes equal) costs no more than a uniform one, and the only
// collisions left are between warps, which the atomics order. At the end each thread owns a bin,
// adds its 32 lane copies (rotated by the bin, so a warp reads 32 banks) and does one 64-bit
// atomic add to the total.
constexpr int BINS = 256;
constexpr int LANES = 32;
constexpr int BLOCK_THREADS = 256;  // one thread per bin in the merge
constexpr int UNROLL = 4;           // 16-byte loads in flight per thread
static_assert(BLOCK_THREADS == BINS, "the merge gives each thread one bin");
// A lane copy's counter sees at most 8 / 256 of its block's bytes; blocks of at most 2^36 bytes
// keep it below 2^31.
constexpr int LOG2_MAX_BLOCK_BYTES = 36;

__device__ void count_byte(unsigned* lane_bins, unsigned byte) {
  atomicAdd(&lane_bins[byte * LANES], 1u);
}
__device__ void count_word(unsigned* lane_bins, unsigned word) {
  count_byte(lane_bins, word & 0xFFu);
  count_byte(lane_bins, (word >> 8) & 0xFFu);
  count_byte(lane_bins, (word >> 16) & 0xFFu);
  count_byte(lane_bins, word >> 24);
}

// bytes[0, head) are before the first 16-byte boundary, then `vectors` aligned 16-byte groups,
// then a tail of fewer than 16 bytes up to n; block 0 counts the head and the tail one by one.
__global__ void __launch_bounds__(BLOCK_THREADS)
    histogram_bytes(const std::uint8_t* bytes, std::int64_t n, std::int64_t head,
                    std::int64_t vectors, unsigned long long* counts) {
  __shared__ unsigned sub[BINS * LANES];  // 32 KiB
  for (int i = threadIdx.x; i < BINS * LANES; i += BLOCK_THREADS) sub[i] = 0;
  __syncthreads();
  unsigned* lane_bins = sub + (threadIdx.x & 31);
  if (blockIdx.x == 0) {
    const std::int64_t tail = head + 16 * vectors + threadIdx.x;
    if (threadIdx.x < head) count_byte(lane_bins, bytes[threadIdx.x]);
    if (tail < n) count_byte(lane_bins, bytes[tail]);
  }
  const uint4* groups = reinterpret_cast<const uint4*>(bytes + head);
  const std::int64_t stride = std::int64_t(gridDim.x) * BLOCK_THREADS;
  for (std::int64_t v = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x; v < vectors;
       v += UNROLL * stride) {
    uint4 group[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (v + u * stride < vectors) group[u] = groups[v + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (v + u * stride < vectors) {
        count_word(lane_bins, group[u].x);
        count_word(lane_bins, group[u].y);
        count_word(lane_bins, group[u].z);
        count_word(lane_bins, group[u].w);
      }
    }
  }
  __syncthreads();
  const int bin = threadIdx.x;
  unsigned long long total = 0;
  for (int c = 0; c < LANES; ++c) total += sub[bin * LANES + ((c + bin) & (LANES - 1))];
  if (total != 0) atomicAdd(&counts[bin], total);
}
// <<< YOUR CODE

// d_bytes holds n bytes at any address; writes the 256 counts d_counts[b] = the number of bytes
// equal to b. d_counts holds garbage on entry. n may be 0 or pass 2^32 (a count may too).
inline void launch(const std::uint8_t* d_bytes, std::int64_t n, unsigned long long* d_counts) {
  // >>> YOUR CODE: launch
  CUDA_CHECK(cudaMemsetAsync(d_counts, 0, BINS * sizeof(unsigned long long)));
  if (n == 0) return;
  const auto misalign = std::int64_t(reinterpret_cast<std::uintptr_t>(d_bytes) % 16);
  const std::int64_t to_boundary = misalign == 0 ? 0 : 16 - misalign;
  const std::int64_t head = to_boundary < n ? to_boundary : n;
  const std::int64_t vectors = (n - head) / 16;
  static const std::int64_t resident = [] {  // blocks that fit on the device at once
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_bytes, BLOCK_THREADS, 0));
    return std::int64_t(sms) * per_sm;
  }();
  std::int64_t blocks = (vectors + BLOCK_THREADS - 1) / BLOCK_THREADS;
  if (blocks > resident) blocks = resident;
  const std::int64_t fewest = (n >> LOG2_MAX_BLOCK_BYTES) + 1;  // also: at least one block
  if (blocks < fewest) blocks = fewest;
  histogram_bytes<<<unsigned(blocks), BLOCK_THREADS>>>(d_bytes, n, head, vectors, d_counts);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace histogram
