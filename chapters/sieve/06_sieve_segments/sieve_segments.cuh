// sieve_segments: counts the primes of [lo, hi] in segments of shared memory, without storing the
//   sieve.
// The one idea: only the count is wanted, so a block sieves one segment of odd numbers in shared
//   memory, counts what is left (a population count per word) and moves on to its next segment;
//   nothing but one number per block leaves the chip. The grid is as many blocks as the GPU runs
//   at once, each looping over segments, so the range can be far larger than any array.
// Changes from the previous step (sieve_bits): a count, not an array; 64-bit ranges [lo, hi]
//   (hi up to 2^48); blocks loop over segments; the numbers outside [lo, hi] masked in the words
//   at the range's ends; a last segment sieved only up to the range's end; one atomic add per
//   block. The strikes are sieve_bits' (a thread per prime, one atomicOr per strike).
// What limits it: one thread strikes for each prime, so the thread with 3 strikes a third of the
//   segment while most of the block waits; every segment computes a first multiple for every
//   sieving prime, with a 64-bit division, however rarely that prime strikes.
// Run: build/bin/sieve_segments [--n 1e9] [--lo 1e12 --hi 1e12+1000 --list]
// Source: segmented sieves (Bays and Hudson 1977).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chapters/sieve/05_sieve_bits/sieve_bits.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/per_device.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_segments {

constexpr std::uint64_t MAX_HI = std::uint64_t(1) << 48;
constexpr int BLOCK_THREADS = sieve_bits::BLOCK_THREADS;
constexpr int SEGMENT_WORDS = sieve_bits::TILE_WORDS;  // 32 KiB
constexpr std::uint32_t SEGMENT_NUMBERS = SEGMENT_WORDS * 32;

// Offset, from number k = segment_k, of the first odd multiple of the odd prime p not below p^2:
// sieve_bits' first_offset, for a segment instead of a tile. May lie past the segment.
using sieve_bits::first_offset;

//! [helpers]
// The bits of the word of 32 numbers starting at word_k that lie outside [k_lo, k_hi].
__host__ __device__ inline std::uint32_t outside_bits(std::uint64_t word_k, std::uint64_t k_lo,
                                                      std::uint64_t k_hi) {
  std::uint32_t mask = 0;
  if (word_k < k_lo) mask |= k_lo - word_k >= 32 ? ~0u : (1u << (k_lo - word_k)) - 1;
  if (word_k > k_hi) return ~0u;
  if (k_hi - word_k < 31) mask |= ~0u << (k_hi - word_k + 1);
  return mask;
}
//! [helpers]

// What one launch of a segment kernel sieves. Bit (or element) k of a segment starting at seg_k
// stands for the odd number 2 (seg_k + k) + 1.
struct segment_params {
  std::uint64_t first_k;     // a multiple of 32, at most k_lo: segments start at first_k
  std::uint64_t k_lo, k_hi;  // the counted numbers: odd numbers 2k + 1 in [lo, hi]
  std::uint64_t segment_begin, segment_end;  // the segments of this launch
  std::uint32_t segment_numbers;             // numbers per segment, a multiple of 32
  const std::uint32_t* primes;               // the sieving primes, ascending
  std::uint32_t segment_primes;              // primes[0, segment_primes): struck in every segment
  unsigned long long* count;                 // the running total of clear numbers
  std::uint32_t* words_out;  // --list: the finished words, from first_k on (or null)
};

//! [segment]
// One thread per prime from primes[begin, end), striking its multiples in the segment's first
// `bits_used` bits: sieve_bits' loop.
__device__ __forceinline__ void strike_per_thread(std::uint32_t* sieve, const std::uint32_t* primes,
                                                  std::uint32_t begin, std::uint32_t end,
                                                  std::uint64_t seg_k, std::uint32_t bits_used) {
  for (std::uint32_t i = begin + threadIdx.x; i < end; i += BLOCK_THREADS) {
    const std::uint32_t p = primes[i];
    const std::uint64_t first = first_offset(p, seg_k);
    if (first >= bits_used) continue;
    for (std::uint32_t k = std::uint32_t(first); k < bits_used; k += p)
      atomicOr(&sieve[k / 32], 1u << (k % 32));  // other primes strike bits of the same word
  }
}

// This thread's clear numbers of the segment's first `words` words, the numbers outside [lo, hi]
// set first; the words go to words_out for --list.
__device__ __forceinline__ unsigned long long count_clear_bits(const segment_params& s,
                                                               const std::uint32_t* sieve,
                                                               std::uint64_t seg_k, int words) {
  unsigned long long clear = 0;
  for (int w = threadIdx.x; w < words; w += BLOCK_THREADS) {
    const std::uint64_t word_k = seg_k + 32 * std::uint64_t(w);
    const std::uint32_t bits = sieve[w] | outside_bits(word_k, s.k_lo, s.k_hi);
    clear += 32 - __popc(bits);
    if (s.words_out && word_k <= s.k_hi) s.words_out[(word_k - s.first_k) / 32] = bits;
  }
  return clear;
}

// Segment `seg` of a launch in `sieve`, its first `words` words (the numbers up to the range's end:
// past it nothing is counted, so nothing is sieved). Returns this thread's clear numbers.
__device__ __forceinline__ unsigned long long sieve_segment(const segment_params& s,
                                                            std::uint64_t seg, int words,
                                                            std::uint32_t* sieve) {
  const std::uint64_t seg_k = s.first_k + seg * SEGMENT_NUMBERS;  // the segment's first bit
  const std::uint32_t bits_used = 32 * std::uint32_t(words);
  for (int w = threadIdx.x; w < words; w += BLOCK_THREADS) sieve[w] = 0;
  __syncthreads();  // the segment is clear before anyone strikes
  strike_per_thread(sieve, s.primes, 0, s.segment_primes, seg_k, bits_used);
  __syncthreads();  // every strike is in before counting
  const unsigned long long clear = count_clear_bits(s, sieve, seg_k, words);
  __syncthreads();  // counted before the next segment overwrites the words
  return clear;
}

// The block's segments of a launch of fixed-length segments of bits: sieve_one(seg, words) for
// each, a whole segment with the constant length (the compiler's loops as for a fixed size), a
// last segment that ends earlier only up to the range's end. Returns this thread's clear numbers.
template <class SieveOne>
__device__ __forceinline__ unsigned long long sieve_bit_segments(const segment_params& s,
                                                                 SieveOne sieve_one) {
  unsigned long long clear = 0;
  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x) {
    const std::uint64_t words_to_end = (s.k_hi - (s.first_k + seg * SEGMENT_NUMBERS)) / 32 + 1;
    clear += words_to_end >= SEGMENT_WORDS ? sieve_one(seg, SEGMENT_WORDS)
                                           : sieve_one(seg, int(words_to_end));
  }
  return clear;
}
//! [segment]

//! [count]
// The block's total of every thread's `clear`, in thread 0: warp shuffles, then the warps' sums.
__device__ __forceinline__ unsigned long long block_total(unsigned long long clear) {
  __shared__ unsigned long long warp_clear[32];
  for (int offset = 16; offset > 0; offset /= 2) clear += __shfl_down_sync(~0u, clear, offset);
  if (threadIdx.x % 32 == 0) warp_clear[threadIdx.x / 32] = clear;
  __syncthreads();
  if (threadIdx.x == 0)
    for (unsigned w = 1; w < blockDim.x / 32; ++w) clear += warp_clear[w];
  return clear;
}

__global__ void __launch_bounds__(BLOCK_THREADS) kernel(segment_params s) {
  __shared__ std::uint32_t sieve[SEGMENT_WORDS];
  const unsigned long long clear = sieve_bit_segments(
      s, [&](std::uint64_t seg, int words) { return sieve_segment(s, seg, words, sieve); });
  const unsigned long long total = block_total(clear);
  if (threadIdx.x == 0 && total != 0) atomicAdd(s.count, total);  // one atomic per block
}
//! [count]

// ---------------------------------------------------------------------------------------------
// Host side

// The prime 2 in [lo, hi]: the sieve holds odd numbers only, so the host counts it.
inline std::uint64_t two_in(std::uint64_t lo, std::uint64_t hi) { return lo <= 2 && 2 <= hi; }
// Whether [lo, hi] holds no odd number (then there is nothing to sieve).
inline bool no_odd_number_in(std::uint64_t lo, std::uint64_t hi) {
  return hi == 0 || lo / 2 > (hi - 1) / 2;
}

// A launch's parameters for the odd numbers of [lo, hi] (at least one) in segments of `length`
// numbers: every segment, no primes yet.
inline segment_params range_params(std::uint64_t lo, std::uint64_t hi, std::uint32_t length) {
  segment_params s{};
  s.k_lo = lo / 2;
  s.k_hi = (hi - 1) / 2;
  s.first_k = s.k_lo / 32 * 32;
  s.segment_numbers = length;
  s.segment_end = (s.k_hi - s.first_k + 1 + length - 1) / length;
  return s;
}

// How many blocks of `kernel` (threads each, `shared` bytes of dynamic shared memory) the current
// GPU runs at once.
template <class Kernel>
cudaError_t blocks_at_once(Kernel kernel, int threads, std::size_t shared, int& blocks) {
  int device = 0, sms = 0, per_sm = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  blocks = std::max(1, per_sm) * sms;
  return cudaSuccess;
}

//! [launch]
// A count's launch on stream 0: the total cleared, one block per resident block (at most one per
// segment), the total copied back. Returns the clear numbers.
template <class Params>
std::uint64_t launch_count(void (*segment_kernel)(Params), const Params& s, int threads,
                           std::size_t shared, int resident_blocks) {
  CUDA_CHECK(cudaMemset(s.count, 0, sizeof *s.count));
  const std::uint64_t segments = s.segment_end - s.segment_begin;
  segment_kernel<<<unsigned(std::min<std::uint64_t>(segments, resident_blocks)), threads, shared>>>(
      s);
  CUDA_CHECK_LAUNCH();
  unsigned long long clear = 0;
  CUDA_CHECK(cudaMemcpy(&clear, s.count, sizeof clear, cudaMemcpyDeviceToHost));
  return clear;
}

// How many blocks of `segment_kernel` (threads each, no dynamic shared memory) run at once on the
// current GPU, asked once per device and context.
template <auto segment_kernel>
int resident_blocks(int threads) {
  static common::PerDevice<int> blocks;
  int here = 0;
  CUDA_CHECK(blocks.get_current(
      here, [threads](int& b) { return blocks_at_once(segment_kernel, threads, 0, b); }));
  return here;
}
//! [launch]

// The primes of [lo, hi] listed from a count's words: count_into(d_words) runs the count with
// words_out = d_words; element k - first_k of the words (bits_per_number bits each) is 0 where
// 2k + 1 is left clear. The sieve strikes the `struck` primes itself (a wheel), and leaves 1 clear.
template <class CountInto>
std::vector<std::uint64_t> list_primes(std::uint64_t lo, std::uint64_t hi, int bits_per_number,
                                       const std::vector<std::uint32_t>& struck,
                                       CountInto count_into) {
  std::vector<std::uint64_t> found;
  if (two_in(lo, hi)) found.push_back(2);
  if (no_odd_number_in(lo, hi)) return found;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2, first_k = k_lo / 32 * 32;
  const std::uint64_t per_word = 32 / bits_per_number;
  common::device_buffer<std::uint32_t> d_words((k_hi - first_k) / per_word + 1);
  count_into(d_words.data());
  const std::vector<std::uint32_t> words = d_words.download();
  for (std::uint64_t k = k_lo; k <= k_hi; ++k) {
    const std::uint64_t number = 2 * k + 1, i = k - first_k;
    const std::uint32_t shift = std::uint32_t(bits_per_number * (i % per_word));
    const bool clear = !((words[i / per_word] >> shift) & 1u);
    const bool struck_prime = std::count(struck.begin(), struck.end(), number) > 0;
    if (struck_prime || (clear && number != 1)) found.push_back(number);
  }
  return found;
}

// A count step's counter: the device buffers its counts share, made once for ranges with
// hi <= max_hi; count() and primes() from one run(lo, hi, words_out), which each step writes.
class counter_base : public common::sieve::range_counter {
 public:
  counter_base(std::uint64_t max_hi, int bits_per_number, std::vector<std::uint32_t> struck = {})
      : d_primes_(common::sieve::sieving_primes_capacity(std::int64_t(max_hi))),
        d_count_(1),
        max_hi_(max_hi),
        bits_per_number_(bits_per_number),
        struck_(std::move(struck)) {}
  // lo <= hi <= max_hi, else std::invalid_argument (the buffers are sized for max_hi).
  std::uint64_t count(std::uint64_t lo, std::uint64_t hi) override {
    check_range(lo, hi);
    return run(lo, hi, nullptr);
  }
  std::vector<std::uint64_t> primes(std::uint64_t lo, std::uint64_t hi) override {
    check_range(lo, hi);
    return list_primes(lo, hi, bits_per_number_, struck_,
                       [&](std::uint32_t* d_words) { run(lo, hi, d_words); });
  }

 protected:
  virtual std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) = 0;
  // The odd primes p with smallest <= p <= sqrt(hi), found on the host and uploaded (part of the
  // count, as in every step before); returns how many.
  std::uint32_t upload_primes(std::uint64_t hi, std::uint32_t smallest) {
    return common::sieve::upload_sieving_primes(std::int64_t(hi), smallest,
                                                {nullptr, d_primes_.data(), d_primes_.size()});
  }
  common::device_buffer<std::uint32_t> d_primes_;
  common::device_buffer<unsigned long long> d_count_;

 private:
  void check_range(std::uint64_t lo, std::uint64_t hi) const {
    if (lo > hi || hi > max_hi_)
      throw std::invalid_argument("count: the range must have lo <= hi <= " +
                                  std::to_string(max_hi_));
  }
  std::uint64_t max_hi_;
  int bits_per_number_;
  std::vector<std::uint32_t> struck_;
};

class counter final : public counter_base {
 public:
  explicit counter(std::uint64_t max_hi) : counter_base(max_hi, 1) {}

 private:
  std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) override {
    const std::uint64_t found = two_in(lo, hi);
    if (no_odd_number_in(lo, hi)) return found;
    segment_params s = range_params(lo, hi, SEGMENT_NUMBERS);
    s.primes = d_primes_.data();
    s.segment_primes = upload_primes(hi, 3);  // every odd prime up to sqrt(hi)
    s.count = d_count_.data();
    s.words_out = words_out;
    const std::uint64_t clear =
        launch_count(kernel, s, BLOCK_THREADS, 0, resident_blocks<kernel>(BLOCK_THREADS));
    return found + clear - (s.k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  }
};

// The program's counter of a step of one variant (this one's, and the next steps' until the last).
template <class Counter>
std::unique_ptr<common::sieve::range_counter> make_counter(const std::string&,
                                                           std::uint64_t max_hi) {
  return std::make_unique<Counter>(max_hi);
}

}  // namespace sieve_segments
