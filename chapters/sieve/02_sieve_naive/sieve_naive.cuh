// sieve_naive: the slides' kernel, one block of sqrt(n) threads (source 001, Exercise 2 (1)).
// The one idea: thread i (i > 1) strikes every multiple of i from 2i, one int per number; every
//   number with a factor in [2, sqrt(n)] ends up struck, so the unstruck numbers >= 2 are primes.
// Changes from the previous step: the strikes of every factor run at once, one thread per factor,
//   in one thread block; the array is cleared by cudaMemset (the slides' launch leaves it as
//   cudaMalloc found it).
// What limits it: one block runs on one SM of the GPU's many; thread 2 strikes n/2 numbers while
//   thread 1000 strikes n/1000, so the block waits for its first warp; composite factors strike
//   too; 4 bytes per number; a warp's 32 writes land far apart. The variants measure each cause.
// Run: build/bin/sieve_naive [--n 2^20-1] [--variant
// course|bytes|from_square|skip_composites|all_sms] Source: "Optimizing CUDA code" slides, Exercise
// 2 (2/4), the kernel Sieve<<<1, sqrt(n)>>>.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_naive {

// One block holds at most 1024 threads, one per factor in [0, sqrt(n)]: so n < 1024^2.
constexpr int MAX_BLOCK_THREADS = 1024;
constexpr std::int64_t MAX_N = std::int64_t(MAX_BLOCK_THREADS) * MAX_BLOCK_THREADS - 1;

// What the variants change, each alone (the course's kernel changes nothing).
enum variant : unsigned {
  COURSE = 0,
  FROM_SQUARE = 1,      // strike from i * i: the multiples below were struck by smaller factors
  SKIP_COMPOSITES = 2,  // a factor already struck is composite: its multiples are struck anyway
  ALL_SMS = 4,          // the same strikes, multiples of each factor dealt out to many blocks
};

//! [kernel]
// sieve[i] for i in [0, n]: 1 = struck. Thread idx strikes with the factor idx; with ALL_SMS,
// block b takes the multipliers 2 + b, 2 + b + gridDim.x, ...
template <unsigned VARIANT, class Flag>
__global__ void kernel(Flag* sieve, int n) {
  const int idx = threadIdx.x;                                 // the factor: [0, sqrt(n)]
  if (idx <= 1) return;                                        // 0 and 1 divide nothing usefully
  if ((VARIANT & SKIP_COMPOSITES) && sieve[idx] != 0) return;  // struck already: composite
  const int first = (VARIANT & FROM_SQUARE) ? idx * idx : 2 * idx;
  const int first_block = (VARIANT & ALL_SMS) ? int(blockIdx.x) : 0;
  const int blocks = (VARIANT & ALL_SMS) ? int(gridDim.x) : 1;
  for (int i = first + first_block * idx; i <= n; i += blocks * idx) sieve[i] = 1;
}
//! [kernel]

//! [launch]
inline int threads_for(std::int64_t n) { return int(common::sieve::isqrt(std::uint64_t(n))) + 1; }

template <unsigned VARIANT, class Flag>
void launch(std::int64_t n, const common::sieve::sieve_buffers& buffers) {
  auto* sieve = static_cast<Flag*>(buffers.d_out);
  CUDA_CHECK(cudaMemsetAsync(sieve, 0, std::size_t(n + 1) * sizeof(Flag)));
  const int blocks = (VARIANT & ALL_SMS) ? 4 * common::sieve::sm_count() : 1;
  kernel<VARIANT, Flag><<<blocks, threads_for(n)>>>(sieve, int(n));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

inline std::vector<common::sieve::array_variant> variants() {
  using common::sieve::layout;
  return {{"course", layout::int32_per_number, launch<COURSE, std::int32_t>},
          {"bytes", layout::byte_per_number, launch<COURSE, std::uint8_t>},
          {"from_square", layout::int32_per_number, launch<FROM_SQUARE, std::int32_t>},
          {"skip_composites", layout::int32_per_number, launch<SKIP_COMPOSITES, std::int32_t>},
          {"all_sms", layout::int32_per_number, launch<ALL_SMS, std::int32_t>}};
}

}  // namespace sieve_naive
