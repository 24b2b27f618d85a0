// sieve_segmented: counts the primes of [lo, hi] without storing the sieve (the final step).
// The one idea: only the count is wanted, so each block sieves one segment of odd numbers in shared
//   memory, counts what is left with population counts and moves on; nothing but the count leaves
//   the chip. Three ways to strike less, by the size of the prime:
//   - the primes 3 .. 31 are a pattern that repeats: each word is ORed from three precomputed
//     wheel patterns (3*5*7*11*13, 17*19*23 and 29*31 bits long), not struck bit by bit;
//   - the primes below SEGMENT_BITS / 64 strike many bits per segment: a whole warp takes one
//     prime, its 32 lanes striking 32 consecutive multiples at once;
//   - the other primes up to SEGMENT_BITS strike a few bits per segment: one thread each;
//   - the primes past SEGMENT_BITS strike at most once per segment: instead of every segment
//     visiting them, they are sorted into buckets. Per round of ROUND_SEGMENTS segments one thread
//     per large prime ORs its multiples into the round's bucket bits (in L2), which the segments
//     then OR into their wheel pattern.
// Changes from the previous step: count, not array; 64-bit ranges [lo, hi] (hi up to 2^48); the
//   wheel; warp-striking of small primes; the large-prime rounds; blocks loop over segments.
// What limits it: the shared-memory atomics of the primes 37 .. sqrt(hi), about 1.2 strikes per
//   odd number at 10^10; and at 10^12, the large primes' global atomics.
// Run: build/bin/sieve_segmented [--n 1e10] [--lo 1e12 --hi 1e12+1000 --list]
// Source: segmented sieves (Bays and Hudson 1977), wheels, Oliveira e Silva's buckets; on GPUs
//   e.g. CUDASieve (Curtis Seizert).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_segmented {

constexpr int BLOCK_THREADS = 256;
constexpr int WARPS = BLOCK_THREADS / 32;
constexpr std::uint64_t MAX_HI = std::uint64_t(1) << 48;
// Segments per round of the large primes: 2^28 bits, a 32 MiB bucket array that stays in L2.
constexpr std::uint64_t ROUND_BITS = std::uint64_t(1) << 28;

// The wheel: three patterns of the bits k (odd number 2k + 1) divisible by one of their primes,
// 3 * 5 * 7 * 11 * 13, 17 * 19 * 23 and 29 * 31 bits long (scalars: device code cannot index a
// constexpr host array).
constexpr std::uint32_t WHEEL_PERIOD_A = 3 * 5 * 7 * 11 * 13, WHEEL_PERIOD_B = 17 * 19 * 23,
                        WHEEL_PERIOD_C = 29 * 31;
constexpr std::uint32_t WHEEL_PRIMES[10] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
constexpr std::uint32_t LARGEST_WHEEL_PRIME = 31;
// Each pattern is stored with 64 bits more than its period, so that 32 bits starting anywhere in
// the period lie in two consecutive words.
constexpr std::uint32_t wheel_words(std::uint32_t period) { return (period + 64 + 31) / 32; }
constexpr std::uint32_t WHEEL_OFFSET_A = 0, WHEEL_OFFSET_B = wheel_words(WHEEL_PERIOD_A),
                        WHEEL_OFFSET_C = WHEEL_OFFSET_B + wheel_words(WHEEL_PERIOD_B);
constexpr std::uint32_t WHEEL_TOTAL_WORDS = WHEEL_OFFSET_C + wheel_words(WHEEL_PERIOD_C);

// k mod each period: the 64-bit part of the wheel's arithmetic, done once per segment.
struct wheel_residues {
  std::uint32_t a, b, c;
};
__host__ __device__ inline wheel_residues residues_of(std::uint64_t k) {
  return {std::uint32_t(k % WHEEL_PERIOD_A), std::uint32_t(k % WHEEL_PERIOD_B),
          std::uint32_t(k % WHEEL_PERIOD_C)};
}

//! [helpers]
// 32 bits of a pattern starting at bit r (r < its period): a funnel shift of two words.
__host__ __device__ inline std::uint32_t pattern_bits(const std::uint32_t* pattern,
                                                      std::uint32_t r) {
  const std::uint32_t lo = pattern[r / 32], hi = pattern[r / 32 + 1];
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, r % 32);
#else
  return std::uint32_t(((std::uint64_t(hi) << 32) | lo) >> (r % 32));
#endif
}

// The wheel's bits of the word d bits (a multiple of 32, below 2^20) past a bit k whose residues
// are r: 32-bit arithmetic only.
__host__ __device__ inline std::uint32_t wheel_word(const std::uint32_t* wheel, wheel_residues r,
                                                    std::uint32_t d) {
  return pattern_bits(wheel + WHEEL_OFFSET_A, (r.a + d) % WHEEL_PERIOD_A) |
         pattern_bits(wheel + WHEEL_OFFSET_B, (r.b + d) % WHEEL_PERIOD_B) |
         pattern_bits(wheel + WHEEL_OFFSET_C, (r.c + d) % WHEEL_PERIOD_C);
}

// Bit offset, from bit segment_k, of the first odd multiple of the odd prime p not below p^2 (the
// odd multiples of p are the bits k = (p - 1) / 2 mod p). May lie past the segment.
__host__ __device__ inline std::uint64_t first_offset(std::uint32_t p, std::uint64_t segment_k) {
  const std::uint64_t square_k = (std::uint64_t(p) * p - 1) / 2;
  if (square_k >= segment_k) return square_k - segment_k;
  const std::uint32_t r = std::uint32_t(segment_k % p);
  const std::uint32_t half = (p - 1) / 2;
  return half >= r ? half - r : half + p - r;
}

// The bits of the word starting at bit word_k that lie outside [k_lo, k_hi].
__host__ __device__ inline std::uint32_t outside_bits(std::uint64_t word_k, std::uint64_t k_lo,
                                                      std::uint64_t k_hi) {
  std::uint32_t mask = 0;
  if (word_k < k_lo) mask |= k_lo - word_k >= 32 ? ~0u : (1u << (k_lo - word_k)) - 1;
  if (word_k > k_hi) return ~0u;
  if (k_hi - word_k < 31) mask |= ~0u << (k_hi - word_k + 1);
  return mask;
}
//! [helpers]

// What one launch of the segment kernel sieves.
struct segment_params {
  std::uint64_t first_word;  // word of bit k_lo: segments start at bit 32 * first_word
  std::uint64_t k_lo, k_hi;  // the counted bits: odd numbers 2k + 1 in [lo, hi]
  std::uint64_t segment_begin, segment_end;  // the segments of this launch
  const std::uint32_t* primes;               // odd primes in (31, sqrt(hi)], ascending
  std::uint32_t warp_primes;                 // primes[0, warp_primes): one warp each
  std::uint32_t medium_primes;               // primes[warp_primes, medium_primes): one thread each
  const std::uint32_t* wheel;
  std::uint32_t* buckets;     // the round's large-prime bits (one per bit), or null
  unsigned long long* count;  // += the bits left clear in [k_lo, k_hi]
  std::uint32_t* words_out;   // --list: the finished words, from first_word on (or null)
};

//! [segment_kernel]
template <int SEGMENT_WORDS>
__global__ void __launch_bounds__(BLOCK_THREADS) segment_kernel(segment_params s) {
  constexpr std::uint32_t SEGMENT_BITS = SEGMENT_WORDS * 32;
  __shared__ std::uint32_t sieve[SEGMENT_WORDS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned long long clear = 0;  // this thread's share of the count

  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x) {
    const std::uint64_t word0 = s.first_word + seg * SEGMENT_WORDS;
    const std::uint64_t seg_k = word0 * 32;  // the segment's first bit
    const wheel_residues residues = residues_of(seg_k);
    // The wheel and the large primes' bucket bits, word by word (coalesced).
    for (int w = threadIdx.x; w < SEGMENT_WORDS; w += BLOCK_THREADS) {
      std::uint32_t bits = wheel_word(s.wheel, residues, 32 * w);
      if (s.buckets) {
        std::uint32_t* bucket = s.buckets + (seg - s.segment_begin) * SEGMENT_WORDS + w;
        bits |= *bucket;
        *bucket = 0;  // clear for the next round
      }
      sieve[w] = bits;
    }
    __syncthreads();  // the wheel is in place before any strike

    // Small primes: a warp per prime, lane j striking multiples j, j + 32, ... (p bits apart).
    for (std::uint32_t i = warp; i < s.warp_primes; i += WARPS) {
      const std::uint32_t p = s.primes[i];
      const std::uint64_t first = first_offset(p, seg_k);
      if (first >= SEGMENT_BITS) continue;
      for (std::uint32_t k = std::uint32_t(first) + lane * p; k < SEGMENT_BITS; k += 32 * p)
        atomicOr(&sieve[k / 32], 1u << (k % 32));
    }
    // Medium primes: a thread per prime, a few strikes each.
    for (std::uint32_t i = s.warp_primes + threadIdx.x; i < s.medium_primes; i += BLOCK_THREADS) {
      const std::uint32_t p = s.primes[i];
      const std::uint64_t first = first_offset(p, seg_k);
      if (first >= SEGMENT_BITS) continue;
      for (std::uint32_t k = std::uint32_t(first); k < SEGMENT_BITS; k += p)
        atomicOr(&sieve[k / 32], 1u << (k % 32));
    }
    __syncthreads();  // every strike is in before counting

    for (int w = threadIdx.x; w < SEGMENT_WORDS; w += BLOCK_THREADS) {
      const std::uint64_t word_k = seg_k + 32 * std::uint64_t(w);
      const std::uint32_t bits = sieve[w] | outside_bits(word_k, s.k_lo, s.k_hi);
      clear += 32 - __popc(bits);
      if (s.words_out && word_k <= s.k_hi) s.words_out[word0 + w - s.first_word] = bits;
    }
    __syncthreads();  // counted before the next segment's wheel overwrites the words
  }
  for (int offset = 16; offset > 0; offset /= 2) clear += __shfl_down_sync(~0u, clear, offset);
  if (lane == 0 && clear != 0) atomicAdd(s.count, clear);
}
//! [segment_kernel]

//! [bucket_kernel]
// One thread per large prime: its multiples in the round's bits [round_k, round_k + round_bits),
// ORed into the round's bucket bits (global memory, L2-resident; several primes may share a word).
__global__ void bucket_kernel(const std::uint32_t* primes, std::uint32_t first_prime,
                              std::uint32_t prime_count, std::uint64_t round_k,
                              std::uint64_t round_bits, std::uint32_t* buckets) {
  const std::uint64_t i = first_prime + blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  if (i >= prime_count) return;
  const std::uint32_t p = primes[i];
  for (std::uint64_t k = first_offset(p, round_k); k < round_bits; k += p)
    atomicOr(&buckets[k / 32], 1u << (k % 32));
}
//! [bucket_kernel]

// The device side of the count: every buffer allocated once, for ranges with hi <= max_hi.
class counter final : public common::sieve::range_counter {
 public:
  counter(int segment_words, std::uint64_t max_hi);
  std::uint64_t count(std::uint64_t lo, std::uint64_t hi) override;
  std::vector<std::uint64_t> primes(std::uint64_t lo, std::uint64_t hi) override;

 private:
  std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out);
  int segment_words_;
  std::uint64_t max_hi_;
  int resident_blocks_ = 0;
  common::device_buffer<std::uint32_t> d_wheel_, d_primes_, d_buckets_;
  common::device_buffer<unsigned long long> d_count_;
};

// ---------------------------------------------------------------------------------------------
// Host side

inline std::vector<std::uint32_t> wheel_patterns() {
  const std::uint32_t offsets[3] = {WHEEL_OFFSET_A, WHEEL_OFFSET_B, WHEEL_OFFSET_C};
  const std::uint32_t periods[3] = {WHEEL_PERIOD_A, WHEEL_PERIOD_B, WHEEL_PERIOD_C};
  std::vector<std::uint32_t> words(WHEEL_TOTAL_WORDS, 0);
  for (int i = 0; i < 3; ++i)
    for (std::uint32_t j = 0; j < wheel_words(periods[i]) * 32; ++j)
      for (const std::uint32_t q : WHEEL_PRIMES)
        if (periods[i] % q == 0 && j % q == (q - 1) / 2)  // 2j + 1 is divisible by q
          words[offsets[i] + j / 32] |= 1u << (j % 32);
  return words;
}

inline bool needs_buckets(int segment_words, std::uint64_t hi) {
  return common::sieve::isqrt(hi) >= std::uint64_t(segment_words) * 32;
}

inline counter::counter(int segment_words, std::uint64_t max_hi)
    : segment_words_(segment_words),
      max_hi_(max_hi),
      d_wheel_(WHEEL_TOTAL_WORDS),
      d_primes_(common::sieve::sieving_primes_capacity(std::int64_t(max_hi))),
      d_buckets_(needs_buckets(segment_words, max_hi) ? ROUND_BITS / 32 : 0),
      d_count_(1) {
  d_wheel_.upload(wheel_patterns());
  if (d_buckets_.size() > 0) CUDA_CHECK(cudaMemset(d_buckets_.data(), 0, d_buckets_.bytes()));
  int per_sm = 0;
  if (segment_words == 4096)
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, segment_kernel<4096>,
                                                             BLOCK_THREADS, 0));
  else
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, segment_kernel<8192>,
                                                             BLOCK_THREADS, 0));
  resident_blocks_ = std::max(1, per_sm) * common::sieve::sm_count();
}

//! [launch]
inline std::uint64_t counter::run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) {
  if (hi > max_hi_) throw std::logic_error("sieve_segmented::counter: hi past its max_hi");
  // 2 and the wheel's primes are not left clear by the sieve: count them here.
  std::uint64_t primes_found = lo <= 2 && 2 <= hi;
  for (const std::uint32_t q : WHEEL_PRIMES) primes_found += lo <= q && q <= hi;
  if (hi == 0 || lo / 2 > (hi - 1) / 2) return primes_found;  // no odd number in [lo, hi]
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2;     // odd numbers 2k + 1

  // The sieving primes: the odd primes in (31, sqrt(hi)], found on the host and uploaded.
  std::vector<std::uint32_t> primes = common::sieve::primes_up_to(common::sieve::isqrt(hi));
  primes.erase(primes.begin(), std::upper_bound(primes.begin(), primes.end(), LARGEST_WHEEL_PRIME));
  if (!primes.empty())
    CUDA_CHECK(cudaMemcpyAsync(d_primes_.data(), primes.data(), primes.size() * 4,
                               cudaMemcpyHostToDevice));
  const std::uint32_t segment_bits = std::uint32_t(segment_words_) * 32;
  auto primes_below = [&](std::uint32_t limit) {
    return std::uint32_t(std::lower_bound(primes.begin(), primes.end(), limit) - primes.begin());
  };

  segment_params s{};
  s.first_word = k_lo / 32;
  s.k_lo = k_lo;
  s.k_hi = k_hi;
  s.primes = d_primes_.data();
  s.warp_primes = primes_below(segment_bits / 64);
  s.medium_primes = primes_below(segment_bits);
  s.wheel = d_wheel_.data();
  s.count = d_count_.data();
  s.words_out = words_out;
  const std::uint64_t segments = (k_hi / 32 - s.first_word) / segment_words_ + 1;
  const std::uint32_t large_primes = std::uint32_t(primes.size()) - s.medium_primes;
  CUDA_CHECK(cudaMemsetAsync(d_count_.data(), 0, sizeof(unsigned long long)));

  auto sieve_segments = [&](std::uint64_t begin, std::uint64_t end) {
    s.segment_begin = begin;
    s.segment_end = end;
    const unsigned blocks = unsigned(std::min<std::uint64_t>(end - begin, resident_blocks_));
    if (segment_words_ == 4096)
      segment_kernel<4096><<<blocks, BLOCK_THREADS>>>(s);
    else
      segment_kernel<8192><<<blocks, BLOCK_THREADS>>>(s);
    CUDA_CHECK_LAUNCH();
  };
  if (large_primes == 0) {
    sieve_segments(0, segments);
  } else {  // rounds: the large primes fill the round's buckets, then its segments are sieved
    const std::uint64_t round_segments = ROUND_BITS / segment_bits;
    s.buckets = d_buckets_.data();
    for (std::uint64_t begin = 0; begin < segments; begin += round_segments) {
      const std::uint64_t end = std::min(segments, begin + round_segments);
      const std::uint64_t round_k = (s.first_word + begin * segment_words_) * 32;
      bucket_kernel<<<(large_primes + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(
          d_primes_.data(), s.medium_primes, std::uint32_t(primes.size()), round_k,
          (end - begin) * segment_bits, d_buckets_.data());
      CUDA_CHECK_LAUNCH();
      sieve_segments(begin, end);
    }
  }
  unsigned long long clear = 0;
  CUDA_CHECK(cudaMemcpy(&clear, d_count_.data(), sizeof clear, cudaMemcpyDeviceToHost));
  return primes_found + clear - (k_lo == 0 ? 1 : 0);  // bit 0 is the number 1: clear, not prime
}
//! [launch]

inline std::uint64_t counter::count(std::uint64_t lo, std::uint64_t hi) {
  return run(lo, hi, nullptr);
}

inline std::vector<std::uint64_t> counter::primes(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> found;
  if (lo <= 2 && 2 <= hi) found.push_back(2);
  if (hi == 0 || lo / 2 > (hi - 1) / 2) return found;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2;
  common::device_buffer<std::uint32_t> d_words(k_hi / 32 - k_lo / 32 + 1);
  run(lo, hi, d_words.data());
  const std::vector<std::uint32_t> words = d_words.download();
  for (std::uint64_t k = k_lo; k <= k_hi; ++k) {
    const std::uint64_t number = 2 * k + 1;
    const bool wheel_prime =
        number <= LARGEST_WHEEL_PRIME && std::count(WHEEL_PRIMES, WHEEL_PRIMES + 10, number) > 0;
    const bool clear = !((words[k / 32 - k_lo / 32] >> (k % 32)) & 1u);
    if (wheel_prime || (clear && number != 1)) found.push_back(number);
  }
  return found;
}

inline const std::vector<std::string>& variant_names() {
  static const std::vector<std::string> names = {"segment_32k", "segment_16k"};
  return names;
}

inline std::unique_ptr<common::sieve::range_counter> make_counter(const std::string& variant,
                                                                  std::uint64_t max_hi) {
  return std::make_unique<counter>(variant == "segment_16k" ? 4096 : 8192, max_hi);
}

}  // namespace sieve_segmented
