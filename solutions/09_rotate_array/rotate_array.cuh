// Exercise 09, rotate_array: rotate an int32 array by k places, out of place:
// out[(i + k) mod n] = in[i] for any n and any 64-bit k, negative or larger than n.
// Practises Part V: the reversal's index mapping, here with an offset that wraps around, and
// 16-byte accesses where the offset lets input and output groups line up (and where it does not).
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace rotate_array {

// >>> YOUR CODE: kernels
// out[j] = in[j - s] for j >= s and in[j - s + n] for j < s, with s = k mod n: two shifted copies.
// Each thread writes aligned 16-byte groups of the output. A group whose four sources lie in one
// copy reads them as one 16-byte load when they line up (s = 0 mod 4 in that copy), else as the
// two aligned 16-byte loads that cover them, picking four of the eight (the second load is the
// next thread's first: L1 serves it, so DRAM still sees each byte once). Groups at the seam j = s,
// at the end, or of arrays that are not 16-byte aligned go element by element.
constexpr int BLOCK_THREADS = 256;
constexpr int GROUPS = 1;  // 16-byte output groups per thread (Part V measured 1 fastest)

__device__ std::int64_t source(std::int64_t j, std::int64_t n, std::int64_t s) {
  return j >= s ? j - s : j - s + n;
}

__global__ void __launch_bounds__(BLOCK_THREADS)
    rotate_groups(const std::int32_t* __restrict__ in, std::int64_t n, std::int64_t s,
                  std::int32_t* __restrict__ out) {
  const std::int64_t first = std::int64_t(blockIdx.x) * (BLOCK_THREADS * GROUPS) + threadIdx.x;
#pragma unroll
  for (int u = 0; u < GROUPS; ++u) {
    const std::int64_t j = 4 * (first + u * BLOCK_THREADS);  // the group's first element
    if (j >= n) break;
    if (j + 3 < n && (j >= s || j + 3 < s)) {  // four sources in a row: m .. m + 3
      const std::int64_t m = source(j, n, s);
      const int4* in4 = reinterpret_cast<const int4*>(in) + (m >> 2);
      int4 v;
      switch (m & 3) {
        case 0:
          v = in4[0];
          break;
        default:
          if ((m | 3) + 4 < n) {  // both aligned groups inside the array
            const int4 lo = in4[0], hi = in4[1];
            const int r = int(m & 3);
            v = r == 1   ? make_int4(lo.y, lo.z, lo.w, hi.x)
                : r == 2 ? make_int4(lo.z, lo.w, hi.x, hi.y)
                         : make_int4(lo.w, hi.x, hi.y, hi.z);
          } else {
            v = make_int4(in[m], in[m + 1], in[m + 2], in[m + 3]);
          }
      }
      reinterpret_cast<int4*>(out)[j >> 2] = v;
    } else {
      for (int e = 0; e < 4 && j + e < n; ++e) out[j + e] = in[source(j + e, n, s)];
    }
  }
}

// Arrays that are not both 16-byte aligned: one element per thread (still coalesced).
__global__ void __launch_bounds__(BLOCK_THREADS)
    rotate_elements(const std::int32_t* __restrict__ in, std::int64_t n, std::int64_t s,
                    std::int32_t* __restrict__ out) {
  const std::int64_t j = std::int64_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (j < n) out[j] = in[source(j, n, s)];
}
// <<< YOUR CODE

// d_in and d_out hold n ints each (distinct arrays, each at any 4-byte aligned address); writes
// d_out[(i + k) mod n] = d_in[i] for every i in [0, n), the modulo taken so that it is in [0, n)
// even for negative k. n may be 0 (nothing to do, whatever k is).
inline void launch(const std::int32_t* d_in, std::int64_t n, std::int64_t k, std::int32_t* d_out) {
  // >>> YOUR CODE: launch
  if (n == 0) return;            // nothing to rotate, and k % 0 is undefined
  const std::int64_t r = k % n;  // in (-n, n), with the sign of k
  const std::int64_t s = r < 0 ? r + n : r;
  if ((reinterpret_cast<std::uintptr_t>(d_in) | reinterpret_cast<std::uintptr_t>(d_out)) % 16 ==
      0) {
    const std::int64_t groups = (n + 3) / 4;
    const std::int64_t blocks = (groups + BLOCK_THREADS * GROUPS - 1) / (BLOCK_THREADS * GROUPS);
    rotate_groups<<<unsigned(blocks), BLOCK_THREADS>>>(d_in, n, s, d_out);
  } else {
    const std::int64_t blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
    rotate_elements<<<unsigned(blocks), BLOCK_THREADS>>>(d_in, n, s, d_out);
  }
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace rotate_array
