// sieve_grid: the same strikes spread over the whole GPU, and only primes strike.
// The one idea: the host finds the primes up to sqrt(n) (a sieve of sqrt(n) numbers, microseconds)
//   and the grid deals out the work: block row y strikes with the y-th prime p, and the threads of
//   that row take the multiples p^2, p^2 + p, ... in turn, so every SM has work and the prime 2's
//   n/2 strikes are shared by thousands of threads instead of one.
// Changes from the previous step: a grid of (GRID_COLUMNS, primes) blocks instead of one block;
//   factors are primes only, each from p^2; 64-bit indices, so n may pass 2^31 - 1 ... up to the
//   int array's limit.
// What limits it: every strike is a 4-byte write to DRAM (L2 at best): the p-strided writes of a
//   warp touch 32 different sectors, and the array is 4 bytes per number.
// Run: build/bin/sieve_grid [--n 10^8]
// Source: the slides' Exercise 2 (source 001), taken past its single block.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/sieve/program.cuh"

namespace sieve_grid {

constexpr int BLOCK_THREADS = 256;
// Blocks per prime: enough that the prime 2's strikes keep every SM busy.
constexpr int GRID_COLUMNS = 128;
// An int per number, indexed by int64: 2^31 numbers take 8 GiB.
constexpr std::int64_t MAX_N = (std::int64_t(1) << 31) - 1;

//! [kernel]
// sieve[i] for i in [0, n]: 1 = struck. Block row blockIdx.y strikes with primes[blockIdx.y].
__global__ void kernel(std::int32_t* sieve, std::int64_t n, const std::uint32_t* primes) {
  const std::int64_t p = primes[blockIdx.y];
  const std::int64_t thread = blockIdx.x * std::int64_t(BLOCK_THREADS) + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * BLOCK_THREADS;
  for (std::int64_t i = p * p + thread * p; i <= n; i += threads * p) sieve[i] = 1;
}
//! [kernel]

//! [launch]
inline void launch(std::int64_t n, const common::sieve::sieve_buffers& buffers) {
  auto* sieve = static_cast<std::int32_t*>(buffers.d_out);
  CUDA_CHECK(cudaMemsetAsync(sieve, 0, std::size_t(n + 1) * sizeof(std::int32_t)));
  const std::uint32_t primes = common::sieve::upload_sieving_primes(n, 2, buffers);
  if (primes == 0) return;  // n < 4: nothing to strike
  kernel<<<dim3(GRID_COLUMNS, primes), BLOCK_THREADS>>>(sieve, n, buffers.d_primes);
  CUDA_CHECK_LAUNCH();
}
//! [launch]

inline std::vector<common::sieve::array_variant> variants() {
  return {{"grid", common::sieve::layout::int32_per_number, launch}};
}

}  // namespace sieve_grid
