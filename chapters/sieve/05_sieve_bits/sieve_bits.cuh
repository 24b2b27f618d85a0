// sieve_bits: odd numbers only, one bit each.
// The one idea: 2 is the only even prime, so the sieve keeps the odd numbers alone, one bit per
//   number: bit k of the array stands for 2k + 1. A tile of 32 KiB of shared memory now holds
//   262144 odd numbers (524288 numbers) instead of 8192, the array is 16x smaller, and the even
//   numbers' strikes (half of all) are gone. An odd multiple of p is 2p further on: p bits on.
// Changes from the previous step: tiles of words of bits; strikes are atomicOr of one bit; odd
//   primes only; the block marks 1 and the bits past n itself; n up to 2^36.
// What limits it: every prime, however small, strikes bit by bit (3 strikes a third of all bits);
//   every tile computes a first multiple for every prime, with a 64-bit division; the whole sieve
//   goes to DRAM when only its count is wanted.
// Run: build/bin/sieve_bits [--n 10^9]
// Source: the odd-only bit sieve of the CPU literature (e.g. primesieve's design notes).
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_bits {

constexpr int BLOCK_THREADS = 256;
constexpr int TILE_WORDS = 8192;            // 32 KiB of shared memory
constexpr int TILE_BITS = TILE_WORDS * 32;  // odd numbers per block
// 2^35 odd numbers: a 4 GiB array of bits.
constexpr std::int64_t MAX_N = std::int64_t(1) << 36;

//! [offsets]
// The bit of the first odd multiple of the odd prime p that a tile starting at bit tile_k must
// strike, counted from tile_k: never below p^2 (bit (p^2 - 1) / 2); the odd multiples of p are the
// bits k = (p - 1) / 2 (mod p). May lie past the tile.
__host__ __device__ inline std::uint64_t first_offset(std::uint32_t p, std::uint64_t tile_k) {
  const std::uint64_t square_k = (std::uint64_t(p) * p - 1) / 2;
  if (square_k >= tile_k) return square_k - tile_k;
  const std::uint32_t r = std::uint32_t(tile_k % p);
  const std::uint32_t half = (p - 1) / 2;
  return half >= r ? half - r : half + p - r;
}

// The bits of word `word` that stand for no odd prime candidate of [0, n]: the number 1 and every
// odd number past n.
__host__ __device__ inline std::uint32_t outside_bits(std::uint64_t word, std::uint64_t n) {
  const std::uint64_t odd_count = (n + 1) / 2;  // bits [0, odd_count) are the odd numbers <= n
  const std::uint64_t first = word * 32;
  std::uint32_t mask = first >= odd_count        ? ~0u
                       : odd_count - first >= 32 ? 0u
                                                 : ~0u << (odd_count - first);
  if (word == 0) mask |= 1u;  // the number 1
  return mask;
}
//! [offsets]

//! [kernel]
// bits of [0, n]: bit k set = 2k + 1 is not prime. Block b sieves bits [b * TILE_BITS, + TILE_BITS)
// with the odd primes <= sqrt(n).
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(std::uint32_t* bits, std::uint64_t n, std::uint64_t words, const std::uint32_t* primes,
           int prime_count) {
  __shared__ std::uint32_t tile[TILE_WORDS];
  const std::uint64_t tile_k = std::uint64_t(blockIdx.x) * TILE_BITS;
  for (int w = threadIdx.x; w < TILE_WORDS; w += BLOCK_THREADS) tile[w] = 0;  // [0, TILE_WORDS)
  __syncthreads();  // the tile is clear before anyone strikes

  for (int i = threadIdx.x; i < prime_count; i += BLOCK_THREADS) {
    const std::uint32_t p = primes[i];
    const std::uint64_t first = first_offset(p, tile_k);
    if (first >= TILE_BITS) continue;
    for (std::uint32_t k = std::uint32_t(first); k < TILE_BITS; k += p)
      atomicOr(&tile[k / 32], 1u << (k % 32));  // other primes strike bits of the same word
  }
  __syncthreads();  // every strike is in the tile before it is written out

  for (int w = threadIdx.x; w < TILE_WORDS; w += BLOCK_THREADS) {
    const std::uint64_t word = std::uint64_t(blockIdx.x) * TILE_WORDS + w;
    if (word < words) bits[word] = tile[w] | outside_bits(word, n);
  }
}
//! [kernel]

//! [launch]
inline std::uint64_t words_for(std::int64_t n) { return common::sieve::odd_bit_words(n); }
inline unsigned blocks_for(std::int64_t n) {
  return unsigned((words_for(n) + TILE_WORDS - 1) / TILE_WORDS);
}

inline void launch(std::int64_t n, const common::sieve::sieve_buffers& buffers) {
  if (words_for(n) == 0) return;  // n = 0: no odd number
  const std::uint32_t primes = common::sieve::upload_sieving_primes(n, 3, buffers);
  kernel<<<blocks_for(n), BLOCK_THREADS>>>(static_cast<std::uint32_t*>(buffers.d_out),
                                           std::uint64_t(n), words_for(n), buffers.d_primes,
                                           int(primes));
  CUDA_CHECK_LAUNCH();
}
//! [launch]

inline std::vector<common::sieve::array_variant> variants() {
  return {{"bits", common::sieve::layout::bit_per_odd, launch}};
}

}  // namespace sieve_bits
