// sieve_wheel: the smallest primes as a repeating pattern, and a warp per small prime.
// The one idea: the primes that strike most are the ones a thread per prime serves worst. The
//   primes 3 .. 31 are a pattern that repeats: each word of a segment starts as the OR of three
//   precomputed wheel patterns (3*5*7*11*13, 17*19*23 and 29*31 numbers long), not struck one by
//   one; the primes below a segment's length / 64 strike many times per segment, so a whole warp
//   takes each of them, its 32 lanes striking 32 consecutive multiples at once; the rest keep a
//   thread each.
// Changes from the previous step (sieve_segments): a segment starts as the wheel's words instead of
//   zeros; the sieving primes start at 37; warps strike the small primes, threads the others; the
//   host adds back the wheel's own primes.
// What limits it: every strike is a shared-memory atomicOr on one bit, and a warp's 32 strikes
//   into one word are executed a few lanes at a time; every segment still computes a first
//   multiple for every sieving prime, however rarely it strikes.
// Run: build/bin/sieve_wheel [--n 1e9] [--lo 1e12 --hi 1e12+1000 --list]
// Source: wheel factorization (e.g. Pritchard 1982; primesieve's pre-sieving).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chapters/sieve/06_sieve_segments/sieve_segments.cuh"
#include "common/check.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_wheel {

using sieve_segments::BLOCK_THREADS;
using sieve_segments::first_offset;
using sieve_segments::MAX_HI;
using sieve_segments::SEGMENT_NUMBERS;
using sieve_segments::SEGMENT_WORDS;

//! [wheel]
// The wheel: three patterns of the odd numbers 2k + 1 divisible by one of their primes,
// 3 * 5 * 7 * 11 * 13, 17 * 19 * 23 and 29 * 31 numbers long (scalars: device code cannot index a
// constexpr host array).
constexpr std::uint32_t WHEEL_PERIOD_A = 3 * 5 * 7 * 11 * 13, WHEEL_PERIOD_B = 17 * 19 * 23,
                        WHEEL_PERIOD_C = 29 * 31;
constexpr int WHEEL_PRIME_COUNT = 10;
constexpr std::uint32_t WHEEL_PRIMES[WHEEL_PRIME_COUNT] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
constexpr std::uint32_t LARGEST_WHEEL_PRIME = 31;

// k mod each period: the 64-bit part of the wheel's arithmetic, done once per segment.
struct wheel_residues {
  std::uint32_t a, b, c;
};
__host__ __device__ inline wheel_residues residues_of(std::uint64_t k) {
  return {std::uint32_t(k % WHEEL_PERIOD_A), std::uint32_t(k % WHEEL_PERIOD_B),
          std::uint32_t(k % WHEEL_PERIOD_C)};
}

// The 32 bits of the 64-bit hi:lo starting at bit shift (< 32).
__host__ __device__ inline std::uint32_t funnel(std::uint32_t lo, std::uint32_t hi,
                                                std::uint32_t shift) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, shift);
#else
  return std::uint32_t(((std::uint64_t(hi) << 32) | lo) >> shift);
#endif
}

// 32 bits of a pattern starting at bit r (r < its period): a funnel shift of two words.
__host__ __device__ inline std::uint32_t pattern_bits(const std::uint32_t* pattern,
                                                      std::uint32_t r) {
  return funnel(pattern[r / 32], pattern[r / 32 + 1], r % 32);
}

// The bit patterns, each stored with 64 bits more than its period.
constexpr std::uint32_t bit_wheel_words(std::uint32_t period) { return (period + 64 + 31) / 32; }
constexpr std::uint32_t BIT_WHEEL_OFFSET_A = 0,
                        BIT_WHEEL_OFFSET_B = bit_wheel_words(WHEEL_PERIOD_A),
                        BIT_WHEEL_OFFSET_C = BIT_WHEEL_OFFSET_B + bit_wheel_words(WHEEL_PERIOD_B);
constexpr std::uint32_t BIT_WHEEL_WORDS = BIT_WHEEL_OFFSET_C + bit_wheel_words(WHEEL_PERIOD_C);

// The wheel's bits of the word d bits (a multiple of 32, below 2^20) past a bit k whose residues
// are r.
__host__ __device__ inline std::uint32_t wheel_word(const std::uint32_t* wheel, wheel_residues r,
                                                    std::uint32_t d) {
  return pattern_bits(wheel + BIT_WHEEL_OFFSET_A, (r.a + d) % WHEEL_PERIOD_A) |
         pattern_bits(wheel + BIT_WHEEL_OFFSET_B, (r.b + d) % WHEEL_PERIOD_B) |
         pattern_bits(wheel + BIT_WHEEL_OFFSET_C, (r.c + d) % WHEEL_PERIOD_C);
}
//! [wheel]

// The wheel's patterns, `per_word` numbers to a 32-bit word (32: a bit each, 4: a byte each),
// words_of(period) words each: element j of a pattern (its lowest bit set) stands for the odd
// number 2j + 1 modulo the period.
inline std::vector<std::uint32_t> wheel_patterns(std::uint32_t per_word,
                                                 std::uint32_t (*words_of)(std::uint32_t)) {
  const std::uint32_t periods[3] = {WHEEL_PERIOD_A, WHEEL_PERIOD_B, WHEEL_PERIOD_C};
  std::vector<std::uint32_t> words;
  for (const std::uint32_t period : periods) {
    for (std::uint32_t w = 0; w < words_of(period); ++w) {
      std::uint32_t word = 0;
      for (std::uint32_t e = 0; e < per_word; ++e) {
        const std::uint32_t j = w * per_word + e;
        for (const std::uint32_t q : WHEEL_PRIMES)
          if (period % q == 0 && j % q == (q - 1) / 2)  // 2j + 1 is divisible by q
            word |= 1u << (32 / per_word * e);
      }
      words.push_back(word);
    }
  }
  return words;
}

// The primes 2 .. 31 in [lo, hi] (or 2 and the first `wheel_primes` of WHEEL_PRIMES): the sieve
// leaves none of them clear (the wheel strikes its own primes; 2 is not odd), so the host counts
// them.
inline std::uint64_t wheel_primes_in(std::uint64_t lo, std::uint64_t hi,
                                     int wheel_primes = WHEEL_PRIME_COUNT) {
  std::uint64_t found = sieve_segments::two_in(lo, hi);
  for (int i = 0; i < wheel_primes; ++i) found += lo <= WHEEL_PRIMES[i] && WHEEL_PRIMES[i] <= hi;
  return found;
}

// sieve_segments' parameters, and the wheel's and the warps' share.
struct segment_params : sieve_segments::segment_params {
  const std::uint32_t* wheel;
  std::uint32_t warp_primes;  // primes[0, warp_primes): a warp each (below segment_numbers / 64)
};

//! [warp_strikes]
// Small primes: a warp per prime, lane j striking multiples j, j + 32, ... (p bits apart) in the
// segment's first bits_used bits.
__device__ __forceinline__ void strike_per_warp(std::uint32_t* sieve, const segment_params& s,
                                                std::uint64_t seg_k, std::uint32_t bits_used) {
  constexpr int WARPS = BLOCK_THREADS / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::uint32_t i = warp; i < s.warp_primes; i += WARPS) {
    const std::uint32_t p = s.primes[i];
    const std::uint64_t first = first_offset(p, seg_k);
    if (first >= bits_used) continue;
    for (std::uint32_t k = std::uint32_t(first) + lane * p; k < bits_used; k += 32 * p)
      atomicOr(&sieve[k / 32], 1u << (k % 32));
  }
}

// The strikes into a segment whose first `words` words hold the wheel (not yet synchronized):
// warps on the small primes and threads on the others; then the count. Returns this thread's
// clear numbers.
__device__ __forceinline__ unsigned long long strike_and_count(const segment_params& s,
                                                               std::uint32_t* sieve,
                                                               std::uint64_t seg_k, int words) {
  const std::uint32_t bits_used = 32 * std::uint32_t(words);
  __syncthreads();  // the wheel is in place before any strike
  strike_per_warp(sieve, s, seg_k, bits_used);
  sieve_segments::strike_per_thread(sieve, s.primes, s.warp_primes, s.segment_primes, seg_k,
                                    bits_used);
  __syncthreads();  // every strike is in before counting
  const unsigned long long clear = sieve_segments::count_clear_bits(s, sieve, seg_k, words);
  __syncthreads();  // counted before the next segment's wheel overwrites the words
  return clear;
}

// Segment `seg` in `sieve`, its first `words` words: the wheel, then the strikes and the count.
__device__ __forceinline__ unsigned long long sieve_segment(const segment_params& s,
                                                            std::uint64_t seg, int words,
                                                            std::uint32_t* sieve) {
  const std::uint64_t seg_k = s.first_k + seg * SEGMENT_NUMBERS;  // the segment's first bit
  const wheel_residues residues = residues_of(seg_k);
  for (int w = threadIdx.x; w < words; w += BLOCK_THREADS)  // coalesced
    sieve[w] = wheel_word(s.wheel, residues, 32 * w);
  return strike_and_count(s, sieve, seg_k, words);
}
//! [warp_strikes]

__global__ void __launch_bounds__(BLOCK_THREADS) kernel(segment_params s) {
  __shared__ std::uint32_t sieve[SEGMENT_WORDS];
  const unsigned long long clear = sieve_segments::sieve_bit_segments(
      s, [&](std::uint64_t seg, int words) { return sieve_segment(s, seg, words, sieve); });
  const unsigned long long total = sieve_segments::block_total(clear);
  if (threadIdx.x == 0 && total != 0) atomicAdd(s.count, total);
}

// ---------------------------------------------------------------------------------------------
// Host side

// The odd primes in (31, limit], found on the host (the wheel strikes those up to 31 itself).
inline std::vector<std::uint32_t> primes_past_the_wheel(std::uint64_t limit) {
  std::vector<std::uint32_t> primes = common::sieve::primes_up_to(limit);
  primes.erase(primes.begin(), std::upper_bound(primes.begin(), primes.end(), LARGEST_WHEEL_PRIME));
  return primes;
}

// How many of the ascending `primes` lie below `limit`.
inline std::uint32_t primes_below(const std::vector<std::uint32_t>& primes, std::uint32_t limit) {
  return std::uint32_t(std::lower_bound(primes.begin(), primes.end(), limit) - primes.begin());
}

//! [launch]
class counter final : public sieve_segments::counter_base {
 public:
  explicit counter(std::uint64_t max_hi)
      : counter_base(max_hi, 1, {WHEEL_PRIMES, WHEEL_PRIMES + WHEEL_PRIME_COUNT}),
        d_wheel_(BIT_WHEEL_WORDS),
        warp_table_(primes_past_the_wheel(SEGMENT_NUMBERS / 64)) {
    d_wheel_.upload(wheel_patterns(32, bit_wheel_words));
  }

 private:
  std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) override {
    const std::uint64_t found = wheel_primes_in(lo, hi);
    if (sieve_segments::no_odd_number_in(lo, hi)) return found;
    segment_params s{sieve_segments::range_params(lo, hi, SEGMENT_NUMBERS)};
    s.primes = d_primes_.data();
    s.segment_primes = upload_primes(hi, LARGEST_WHEEL_PRIME + 1);  // the primes in (31, sqrt(hi)]
    s.warp_primes = std::min(s.segment_primes, primes_below(warp_table_, SEGMENT_NUMBERS / 64));
    s.wheel = d_wheel_.data();
    s.count = d_count_.data();
    s.words_out = words_out;
    const std::uint64_t clear = sieve_segments::launch_count(
        kernel, s, BLOCK_THREADS, 0, sieve_segments::resident_blocks<kernel>(BLOCK_THREADS));
    return found + clear - (s.k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  }
  common::device_buffer<std::uint32_t> d_wheel_;
  std::vector<std::uint32_t> warp_table_;  // the odd primes in (31, SEGMENT_NUMBERS / 64)
};
//! [launch]

}  // namespace sieve_wheel
