// sieve_shared: the slides' shared-memory, multi-block kernel, with every bug of the listing fixed.
// The one idea: each block sieves one tile of TILE consecutive numbers in shared memory, striking
//   with every prime up to sqrt(n), and writes the finished tile to the array once, coalesced; the
//   scattered strikes hit shared memory instead of DRAM.
// Changes from the previous step: one block per tile instead of one block row per prime; the
//   threads of a block share out the primes; strikes are shared-memory atomics (several primes
//   strike the same number at once); the array is written once, so no cudaMemset.
// What limits it: an int per number (32 KiB of shared memory hold only 8192 numbers) and the
//   even numbers, half of all strikes; every tile computes a first multiple for every prime.
// Run: build/bin/sieve_shared [--n 10^8] [--variant atomic|plain_stores]
// Source: "Optimizing CUDA code" slides, Exercise 2 (3/4 and 4/4), "almost correct ... fix it".
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/sieve/program.cuh"

namespace sieve_shared {

constexpr int BLOCK_THREADS = 256;
constexpr int WARP_SIZE = 32;
// Numbers per block, a compile-time size: the listing's `__shared__ int A[b_w]` takes its size
// from a variable, which does not compile (dynamic shared memory would need extern and a launch
// argument).
constexpr int TILE = 8192;  // 32 KiB of ints
// An int per number, indexed by int64: 2^31 numbers take 8 GiB.
constexpr std::int64_t MAX_N = (std::int64_t(1) << 31) - 1;

// The listing's behaviours, each switchable alone so that a test can show what it does (NONE is
// the fixed kernel). The listing's compile errors (tid, knocker and knoecker never declared, the
// shared array sized by a variable) have no switch: the compile tests of this step show them.
enum listing_bug : unsigned {
  NONE = 0,
  OFFSET_FROM_BLOCK_SIZE = 1,  // offset = blockDim.x * blockDim.x: every block gets one tile
  FACTOR_FROM_THREAD_ROW = 2,  // knocker = t_y: factors 0 .. rows - 1 only (here the warp index)
  PRIME_STRIKES_ITSELF = 4,    // start at the first multiple >= offset: p itself is struck
  FACTOR_ONE = 8,              // 1 as a factor strikes everything (0 would divide by zero)
  PLAIN_STORES = 16,           // tile[j] = 1 from several threads at once: a race on one word
};

//! [offsets]
// The first number of a block's tile. The listing multiplies the block's size by itself, which is
// the same for every block: all blocks sieve one tile and the rest of the array is never written.
__host__ __device__ inline std::int64_t tile_offset(unsigned block, unsigned bugs) {
  if (bugs & OFFSET_FROM_BLOCK_SIZE) return std::int64_t(BLOCK_THREADS) * BLOCK_THREADS;
  return std::int64_t(block) * TILE;
}

// The first number factor must strike in [offset, ...): its first multiple there, but never below
// factor^2. Smaller multiples have a smaller factor too, and factor itself, if prime, must stay.
__host__ __device__ inline std::int64_t first_strike(std::int64_t factor, std::int64_t offset,
                                                     unsigned bugs) {
  const std::int64_t first_multiple = (offset + factor - 1) / factor * factor;
  if (bugs & PRIME_STRIKES_ITSELF) return first_multiple;
  return first_multiple > factor * factor ? first_multiple : factor * factor;
}
//! [offsets]

//! [kernel]
template <unsigned BUGS>
__device__ void strike(std::int32_t* tile, std::int64_t offset, std::int64_t factor,
                       std::int64_t n) {
  const std::int64_t end = offset + TILE <= n ? offset + TILE : n + 1;  // [offset, end)
  for (std::int64_t i = first_strike(factor, offset, BUGS); i < end; i += factor) {
    if (BUGS & PLAIN_STORES)
      tile[i - offset] = 1;
    else
      atomicOr(&tile[i - offset], 1);  // another prime may strike the same number now
  }
}

// sieve[i] for i in [0, n]: 1 = struck. Block b sieves [tile_offset(b), + TILE) with the primes.
template <unsigned BUGS>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(std::int32_t* sieve, std::int64_t n, const std::uint32_t* primes, int prime_count) {
  __shared__ std::int32_t tile[TILE];
  const std::int64_t offset = tile_offset(blockIdx.x, BUGS);
  for (int t = threadIdx.x; t < TILE; t += BLOCK_THREADS) tile[t] = 0;  // [0, TILE)
  __syncthreads();  // the tile is clear before anyone strikes

  if (BUGS & FACTOR_FROM_THREAD_ROW) {           // the listing's factor: the thread's row
    const int factor = threadIdx.x / WARP_SIZE;  // [0, BLOCK_THREADS / 32)
    if (factor >= 2 || (factor == 1 && (BUGS & FACTOR_ONE))) strike<BUGS>(tile, offset, factor, n);
  } else {  // every prime <= sqrt(n), dealt out to the threads
    for (int i = threadIdx.x; i < prime_count; i += BLOCK_THREADS)
      strike<BUGS>(tile, offset, primes[i], n);
    if ((BUGS & FACTOR_ONE) && threadIdx.x == 0) strike<BUGS>(tile, offset, 1, n);
  }
  __syncthreads();  // every strike is in the tile before it is written out

  for (int t = threadIdx.x; t < TILE; t += BLOCK_THREADS)
    if (offset + t <= n) sieve[offset + t] = tile[t];  // one writer per number, coalesced
}
//! [kernel]

//! [launch]
inline unsigned blocks_for(std::int64_t n) { return unsigned(n / TILE + 1); }  // [0, n]: n + 1

template <unsigned BUGS>
void launch(std::int64_t n, const common::sieve::sieve_buffers& buffers) {
  const std::uint32_t primes = common::sieve::upload_sieving_primes(n, 2, buffers);
  kernel<BUGS><<<blocks_for(n), BLOCK_THREADS>>>(static_cast<std::int32_t*>(buffers.d_out), n,
                                                 buffers.d_primes, int(primes));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

inline std::vector<common::sieve::array_variant> variants() {
  using common::sieve::layout;
  return {{"atomic", layout::int32_per_number, launch<NONE>},
          {"plain_stores", layout::int32_per_number, launch<PLAIN_STORES>, true}};
}

}  // namespace sieve_shared
