// Exercise 08, twin_primes: count the twin prime pairs (p, p + 2) with p + 2 <= n, for 64-bit n,
// with a segmented sieve of the odd numbers on the GPU.
// Practises Part IV: segments sieved in shared memory, and what a segment must know of its
// neighbour (a pair whose p is a segment's last odd number ends in the next segment).
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace twin_primes {

// >>> YOUR CODE: kernels
// One kernel; each block loops over segments of SEGMENT_BITS odd numbers (bit k of a segment
// starting at odd index k0 stands for 2 (k0 + k) + 1; set = composite) held in shared memory,
// plus one bit more: the first odd number of the next segment, the partner of a pair that
// straddles the boundary. Per segment:
//   - every word starts as the OR of the patterns of 3 .. 31 (a wheel; no atomics: a word's bits
//     for p are every p-th from an offset that a remainder gives); 1 and the primes 3 .. 31 are
//     then set right in the first segment;
//   - the primes 37 .. WARP_PRIME_LIMIT strike many bits: a warp per prime, its lanes striking
//     consecutive multiples (more than 32 bits apart, so never the same word at once);
//   - the larger primes strike a few bits each: a thread per prime;
//   - the pairs are the clear bits whose next bit (in the word, or the next word's bit 0) is clear.
constexpr int BLOCK_THREADS = 256;
constexpr int WARPS = BLOCK_THREADS / 32;
constexpr int SEGMENT_WORDS = 8192;               // 32 KiB of shared memory
constexpr int SEGMENT_BITS = 32 * SEGMENT_WORDS;  // odd numbers per segment
constexpr int SIEVED_BITS = SEGMENT_BITS + 1;     // and the next segment's first
constexpr std::uint32_t FIRST_STRUCK_PRIME = 37;  // 3 .. 31 are the wheel's
// The bits of the wheel's primes themselves in the first word: indices (p - 1) / 2.
constexpr std::uint32_t WHEEL_PRIME_BITS = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 5 | 1u << 6 |
                                           1u << 8 | 1u << 9 | 1u << 11 | 1u << 14 | 1u << 15;
constexpr std::uint32_t WARP_PRIME_LIMIT = SEGMENT_BITS / 32;  // >= 32 strikes per segment
constexpr int BLOCKS_PER_SM = 4;                               // 4 x 32 KiB of shared memory
constexpr unsigned FULL_MASK = 0xFFFFFFFFu;

// The index of the first of primes[0, count) that is >= value (count if none).
__device__ std::int64_t first_at_least(const std::uint32_t* primes, std::int64_t count,
                                       std::uint32_t value) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (primes[mid] < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The bits of word w of the segment at k0 that are odd multiples of P: bit b is index
// k = k0 + 32 w + b, and 2 k + 1 is a multiple of P when k = (P - 1) / 2 (mod P). P is a
// compile-time constant, so the remainders are multiplications, and the word is a constant
// pattern (bits 0, P, 2 P, ...) shifted to the first such bit.
__host__ __device__ constexpr std::uint32_t every_pth_bit(std::uint32_t p) {
  std::uint32_t word = 0;
  for (std::uint32_t b = 0; b < 32; b += p) word |= 1u << b;
  return word;
}
template <std::uint32_t P>
__device__ std::uint32_t wheel_bits(std::uint64_t k0, std::uint32_t w) {
  constexpr std::uint32_t PATTERN = every_pth_bit(P);
  const std::uint32_t k_mod_p = std::uint32_t((k0 % P + (32u * w) % P) % P);
  return PATTERN << (((P - 1) / 2 + P - k_mod_p) % P);
}
__device__ std::uint32_t wheel_word(std::uint64_t k0, std::uint32_t w) {
  return wheel_bits<3>(k0, w) | wheel_bits<5>(k0, w) | wheel_bits<7>(k0, w) |
         wheel_bits<11>(k0, w) | wheel_bits<13>(k0, w) | wheel_bits<17>(k0, w) |
         wheel_bits<19>(k0, w) | wheel_bits<23>(k0, w) | wheel_bits<29>(k0, w) |
         wheel_bits<31>(k0, w);
}

// The bit of the first odd multiple of p that is >= max(p * p, 2 k0 + 1), counted from k0; may be
// past the segment.
__device__ std::uint64_t first_strike(std::uint32_t p, std::uint64_t k0) {
  const std::uint64_t lowest = 2 * k0 + 1;
  std::uint64_t m = std::uint64_t(p) * p;
  if (m < lowest) {
    const std::uint64_t r = lowest % p;
    m = r == 0 ? lowest : lowest + (p - r);
  }
  if (m % 2 == 0) m += p;  // the odd multiple
  return (m - 1) / 2 - k0;
}

__global__ void __launch_bounds__(BLOCK_THREADS)
    count_twins(std::uint64_t last_index, const std::uint32_t* primes, std::int64_t prime_count,
                unsigned long long* count) {
  __shared__ std::uint32_t bits[SEGMENT_WORDS + 1];
  __shared__ std::int64_t split[2];  // first prime >= FIRST_STRUCK_PRIME, >= WARP_PRIME_LIMIT
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) split[0] = first_at_least(primes, prime_count, FIRST_STRUCK_PRIME);
  if (threadIdx.x == 1) split[1] = first_at_least(primes, prime_count, WARP_PRIME_LIMIT);
  const std::uint64_t segments = last_index / SEGMENT_BITS + 1;
  unsigned long long pairs = 0;
  for (std::uint64_t segment = blockIdx.x; segment < segments; segment += gridDim.x) {
    const std::uint64_t k0 = segment * SEGMENT_BITS;
    for (int w = threadIdx.x; w <= SEGMENT_WORDS; w += BLOCK_THREADS)
      bits[w] = wheel_word(k0, std::uint32_t(w));
    __syncthreads();
    // 1 is not a prime; 3 .. 31 are. No strike reaches word 0 (37 * 37 is index 684).
    if (k0 == 0 && threadIdx.x == 0) bits[0] = (bits[0] | 1u) & ~WHEEL_PRIME_BITS;
    // Warps take the medium primes; lane l strikes multiple l, l + 32, ...
    for (std::int64_t i = split[0] + warp; i < split[1]; i += WARPS) {
      const std::uint32_t p = primes[i];
      const std::uint64_t first = first_strike(p, k0);
      if (first >= SIEVED_BITS) continue;  // the same for the whole warp
      for (std::uint32_t k = std::uint32_t(first) + lane * p; k < SIEVED_BITS; k += 32 * p)
        atomicOr(&bits[k / 32], 1u << (k % 32));
    }
    // Threads take the large primes.
    for (std::int64_t i = split[1] + threadIdx.x; i < prime_count; i += BLOCK_THREADS) {
      const std::uint32_t p = primes[i];
      const std::uint64_t first = first_strike(p, k0);
      if (first >= SIEVED_BITS) continue;
      for (std::uint32_t k = std::uint32_t(first); k < SIEVED_BITS; k += p)
        atomicOr(&bits[k / 32], 1u << (k % 32));
    }
    __syncthreads();
    // The pairs whose smaller member is in this segment and whose larger one is <= n.
    for (int w = threadIdx.x; w < SEGMENT_WORDS; w += BLOCK_THREADS) {
      const std::uint64_t k_first = k0 + 32u * std::uint32_t(w);
      if (k_first >= last_index) break;  // the smaller member's index must be <= last_index - 1
      const std::uint32_t prime = ~bits[w], next = ~bits[w + 1];
      std::uint32_t pair = prime & ((prime >> 1) | (next << 31));
      const std::uint64_t valid = last_index - 1 - k_first;  // the last valid bit
      if (valid < 31) pair &= (2u << valid) - 1u;
      pairs += __popc(pair);
    }
    __syncthreads();  // the next segment's wheel overwrites the bits
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) pairs += __shfl_down_sync(FULL_MASK, pairs, d);
  if (lane == 0 && pairs != 0) atomicAdd(count, pairs);
}
// <<< YOUR CODE

// d_primes holds the prime_count odd primes p with p * p <= n, ascending (3, 5, 7, ...; none for
// n < 9). Writes the number of twin prime pairs (p, p + 2) with p + 2 <= n to *d_count, which
// holds garbage on entry. n is in [0, 2^40].
inline void launch(std::uint64_t n, const std::uint32_t* d_primes, std::int64_t prime_count,
                   unsigned long long* d_count) {
  // >>> YOUR CODE: launch
  CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(*d_count)));
  if (n < 5) return;                             // (3, 5) is the first pair
  const std::uint64_t last_index = (n - 1) / 2;  // the largest odd number <= n is 2 last + 1
  const std::uint64_t segments = last_index / SEGMENT_BITS + 1;
  static const int sm_count = [] {
    int device = 0, count = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const std::uint64_t most = std::uint64_t(sm_count) * BLOCKS_PER_SM;  // one wave, blocks loop
  const std::uint64_t blocks = segments < most ? segments : most;
  count_twins<<<unsigned(blocks), BLOCK_THREADS>>>(last_index, d_primes, prime_count, d_count);
  CUDA_CHECK_LAUNCH();
  // <<< YOUR CODE
}

}  // namespace twin_primes
