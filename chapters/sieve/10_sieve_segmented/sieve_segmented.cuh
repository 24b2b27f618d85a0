// sieve_segmented: counts the primes of [lo, hi] up to 2^48; short ranges in little more than a
//   launch (the final step).
// The one idea: for a short range a count is its fixed costs, not its strikes, so they are taken
//   away: a range of few numbers with a small root is counted on the host (count_on_host, the
//   same plan on a byte per odd number); on the GPU, the count's last block writes the total into
//   mapped host memory (no memset before the launches, no copy after them: finish_count,
//   mapped_total), a block that sieves one segment reads the wheel where it is instead of copying
//   it, the sieving primes below a small root are found once per counter instead of once per
//   count, and segments are longer than the root where that fits (no round of large primes).
// Two variants, the same plan: byte_stores (default), sieve_buckets' segment, and bit_atomics,
//   sieve_wheel's (one bit per number, shared-memory atomics) with the same buckets.
// Changes from the previous step (sieve_buckets): finish_count and mapped_total; the byte kernel's
//   wheel in place for a block with one segment; count_on_host; byte_segment_numbers past the
//   root; the small sieving primes once per counter; the bit_atomics variant. The count's
//   reusable form (counter::count_on) takes a stream and returns a cudaError_t.
// What limits it: the strikes of the primes 37 .. sqrt(hi), about 1.2 per odd number at 10^10.
//   bit_atomics: its shared atomics, executed a few lanes at a time; byte_stores leaves issue
//   slots free, its limit not yet measured; at 10^12, the large primes' rounds. For short ranges
//   on the GPU, a launch waited for.
// Run: build/bin/sieve_segmented [--n 1e10] [--lo 1e12 --hi 1e12+1000 --list]
// Source: segmented sieves (Bays and Hudson 1977), wheels, Oliveira e Silva's buckets; on GPUs
//   e.g. CUDASieve (Curtis Seizert).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chapters/sieve/09_sieve_buckets/sieve_buckets.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/per_device.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_segmented {

// The steps before this one, by the names this step uses.
using sieve_buckets::bits_as_bytes16;
using sieve_buckets::HOST_SIEVING_PRIMES_MAX;
using sieve_buckets::PRIMES_BLOCK_THREADS;
using sieve_buckets::PRIMES_CHUNK;
using sieve_buckets::ROUND_BITS;
using sieve_buckets::sieving_primes_chunks;
using sieve_buckets::sieving_primes_on_gpu;
using sieve_bytes::BYTE_WHEEL_WORDS;
using sieve_bytes::byte_wheel_words;
using sieve_bytes::MAX_SEGMENT_BYTES;
using sieve_bytes::MAX_WARP_PRIMES;
using sieve_bytes::or_words;
using sieve_bytes::outside_bytes;
using sieve_bytes::wheel_bytes16;
using sieve_segments::first_offset;
using sieve_segments::MAX_HI;
using sieve_segments::no_odd_number_in;
using sieve_segments::outside_bits;
using sieve_wheel::BIT_WHEEL_WORDS;
using sieve_wheel::bit_wheel_words;
using sieve_wheel::LARGEST_WHEEL_PRIME;
using sieve_wheel::primes_past_the_wheel;
using sieve_wheel::residues_of;
using sieve_wheel::WHEEL_PERIOD_A;
using sieve_wheel::WHEEL_PRIME_COUNT;
using sieve_wheel::WHEEL_PRIMES;
using sieve_wheel::wheel_primes_in;
using sieve_wheel::wheel_residues;
using sieve_wheel::wheel_word;

constexpr int BYTE_BLOCK_THREADS = sieve_bytes::BLOCK_THREADS;
constexpr int BIT_BLOCK_THREADS = sieve_segments::BLOCK_THREADS;
constexpr int BIT_SEGMENT_WORDS = sieve_segments::SEGMENT_WORDS;  // 32 KiB
constexpr std::uint32_t BIT_SEGMENT_NUMBERS = sieve_segments::SEGMENT_NUMBERS;

// sieve_buckets' parameters, and the total's.
struct segment_params : sieve_buckets::segment_params {
  // The count's last launch: where its total goes (host memory the GPU writes to) with its number
  // `sequence`. Null in the other launches.
  unsigned long long* result;
  unsigned long long sequence;
};

//! [finish_count]
// A count's running total on the device is one 64-bit word: the clear numbers so far in its low
// 48 bits (at most 2^47 odd numbers below 2^48), and in its top 16 the blocks of the count's last
// launch that have added theirs. The host's copy (mapped) is the total with the count's number
// (modulo 2^16) in the top 16 bits.
constexpr int TICKET_SHIFT = 48;
constexpr unsigned long long TOTAL_MASK = (1ull << TICKET_SHIFT) - 1;

// The end of a launch, with each thread's clear numbers: one add per block. In the count's last
// launch the add also takes a ticket, and the block whose ticket is the launch's last writes the
// total with the count's number into the host's memory in one 8-byte store and clears the word
// for the next count. So a count needs no memset before its launches, no copy after them and no
// fences: the host waits for its number to appear (mapped_total::wait).
__device__ __forceinline__ void finish_count(const segment_params& s, unsigned long long clear) {
  clear = sieve_segments::block_total(clear);
  if (threadIdx.x != 0) return;
  const bool last_launch = s.result != nullptr;
  if (!last_launch) {
    if (clear != 0) atomicAdd(s.count, clear);
    return;
  }
  const unsigned long long add = clear + (1ull << TICKET_SHIFT);
  const unsigned long long before = atomicAdd(s.count, add);
  if ((before >> TICKET_SHIFT) == gridDim.x - 1) {  // every other block has added its share
    *s.count = 0;
    *reinterpret_cast<volatile unsigned long long*>(s.result) =
        (s.sequence << TICKET_SHIFT) | ((before + add) & TOTAL_MASK);
  }
}
//! [finish_count]

// ---------------------------------------------------------------------------------------------
// byte_stores: one byte per number, plain stores (sieve_bytes)

constexpr std::size_t byte_kernel_shared_bytes(std::uint32_t segment_numbers,
                                               bool wheel_in_shared = true) {
  return wheel_in_shared ? sieve_bytes::shared_bytes(segment_numbers) : segment_numbers;
}

//! [byte_kernel]
// sieve_buckets' kernel, with its total in finish_count. WHEEL_IN_SHARED: the wheel is copied into
// shared memory first (23 KB), for blocks that sieve several segments; a block that sieves one
// reads the few words it needs where they are.
template <bool WHEEL_IN_SHARED>
__global__ void __launch_bounds__(BYTE_BLOCK_THREADS, 1) byte_segment_kernel(segment_params s) {
  extern __shared__ uint4 shared[];  // the segment, then (WHEEL_IN_SHARED) the wheel
  auto* wheel_copy =
      reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint8_t*>(shared) + s.segment_numbers);
  const std::uint32_t* wheel = WHEEL_IN_SHARED ? wheel_copy : s.wheel;
  __shared__ std::uint32_t next_warp_prime;  // the warps take small primes from this counter
  __shared__ std::uint32_t warp_first[MAX_WARP_PRIMES];  // their first offsets in the segment
  unsigned long long clear = 0;                          // this thread's share of the count
  if (WHEEL_IN_SHARED) sieve_bytes::copy_wheel(wheel_copy, s.wheel);
  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x)
    clear += sieve_buckets::sieve_byte_segment(s, seg, wheel, shared, warp_first, next_warp_prime);
  finish_count(s, clear);
}
//! [byte_kernel]

// ---------------------------------------------------------------------------------------------
// bit_atomics: one bit per number, shared-memory atomics (sieve_wheel)

//! [segment_kernel]
// sieve_wheel's segment with the round's bucket bits: its first `words` words (the numbers up to
// the range's end: past it nothing is counted, so nothing is sieved); every bucket word of the
// segment is cleared for the next round all the same. Returns this thread's clear numbers.
__device__ __forceinline__ unsigned long long sieve_bit_segment(const segment_params& s,
                                                                std::uint64_t seg, int words,
                                                                std::uint32_t* sieve) {
  const std::uint64_t seg_k = s.first_k + seg * BIT_SEGMENT_NUMBERS;  // the segment's first bit
  const wheel_residues residues = residues_of(seg_k);
  // The wheel and the large primes' bucket bits, word by word (coalesced).
  for (int w = threadIdx.x; w < (s.buckets ? BIT_SEGMENT_WORDS : words); w += BIT_BLOCK_THREADS) {
    std::uint32_t bits = w < words ? wheel_word(s.wheel, residues, 32 * w) : 0;
    if (s.buckets) {
      std::uint32_t* bucket = s.buckets + (seg - s.segment_begin) * BIT_SEGMENT_WORDS + w;
      bits |= *bucket;
      *bucket = 0;  // clear for the next round
    }
    sieve[w] = bits;
  }
  return sieve_wheel::strike_and_count(s, sieve, seg_k, words);
}

__global__ void __launch_bounds__(BIT_BLOCK_THREADS) bit_segment_kernel(segment_params s) {
  __shared__ std::uint32_t sieve[BIT_SEGMENT_WORDS];
  finish_count(s, sieve_segments::sieve_bit_segments(s, [&](std::uint64_t seg, int words) {
                 return sieve_bit_segment(s, seg, words, sieve);
               }));
}
//! [segment_kernel]

// ---------------------------------------------------------------------------------------------
// Host side

// The wheel's patterns in one of the two layouts: element j of a pattern (bit j, or byte j set to
// 1) stands for the odd number 2j + 1 modulo the period.
inline std::vector<std::uint32_t> wheel_patterns(bool bytes) {
  return bytes ? sieve_wheel::wheel_patterns(4, byte_wheel_words)
               : sieve_wheel::wheel_patterns(32, bit_wheel_words);
}

// Numbers per segment of byte_stores for a range of `numbers` odd numbers sieved by `blocks`
// resident blocks: sieve_bytes' evened-out length (as many as fit in as few waves as possible).
// And longer than `root` = sqrt(hi) where that fits, even if fewer blocks then share the range:
// every sieving prime is then below a segment's length, and a short range needs no round of large
// primes (no launch of bucket_kernel before the segments). Where it does not fit, the evened-out
// length (a short range far from 0 is then sieved by many blocks, its large primes by the buckets).
inline std::uint32_t byte_segment_numbers(std::uint64_t numbers, std::uint64_t blocks,
                                          std::uint64_t root,
                                          std::uint32_t max_segment = MAX_SEGMENT_BYTES) {
  const std::uint64_t length = sieve_bytes::segment_numbers_for(numbers, blocks, max_segment);
  const std::uint64_t past_root = (root + 1 + 31) / 32 * 32;
  return std::uint32_t(past_root <= max_segment ? std::max(length, past_root) : length);
}

// Host memory that the GPU writes to (mapped): where a count's last launch leaves its total, with
// the count's number in the top bits. The host spins on it instead of waiting for the stream: on
// the H100 a launch waited for that way takes less (the probe's last lines; the page, Short
// ranges).
class mapped_total {
 public:
  mapped_total() {
    CUDA_CHECK(cudaHostAlloc(&host_, sizeof *host_, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0));
    *host_ = 0;
  }
  ~mapped_total() { cudaFreeHost(host_); }
  mapped_total(const mapped_total&) = delete;
  mapped_total& operator=(const mapped_total&) = delete;
  unsigned long long* device() { return device_; }
  // The total of the count numbered `sequence`, once it is there. Every 1024 spins the count's
  // stream is asked how it is: an error in a launch or a kernel is returned, and a stream that
  // finished without the number is a bug, not a wait forever.
  cudaError_t wait(unsigned long long sequence, cudaStream_t stream,
                   unsigned long long& total) const {
    const unsigned long long number = sequence & ((1ull << (64 - TICKET_SHIFT)) - 1);
    const volatile unsigned long long* word = host_;
    unsigned long long seen = *word;
    for (unsigned spins = 1; seen >> TICKET_SHIFT != number; ++spins, seen = *word) {
      if (spins % 1024 != 0) continue;
      const cudaError_t state = cudaStreamQuery(stream);
      if (state == cudaErrorNotReady) continue;
      CUDA_TRY(state);
      seen = *word;
      if (seen >> TICKET_SHIFT != number)
        throw std::logic_error("sieve_segmented: the count's last launch wrote no total");
    }
    total = seen & TOTAL_MASK;
    return cudaSuccess;
  }

 private:
  unsigned long long* host_ = nullptr;
  unsigned long long* device_ = nullptr;
};

// What a count needs to know of the current GPU (sieve_bytes::gpu_facts), kept per device and
// context: how many blocks of the segment kernel run at once, and byte_stores' longest segment.
using sieve_bytes::gpu_facts;

inline cudaError_t bit_atomics_facts(gpu_facts& f) {
  return sieve_segments::blocks_at_once(bit_segment_kernel, BIT_BLOCK_THREADS, 0,
                                        f.resident_blocks);
}

// The facts of the current GPU for byte_stores (bytes: both byte kernels get the shared-memory
// limit) or bit_atomics.
inline cudaError_t facts_here(bool bytes, gpu_facts& facts) {
  static common::PerDevice<gpu_facts> bit_atomics;
  return bytes
             ? sieve_bytes::facts_here<byte_segment_kernel<true>, byte_segment_kernel<false>>(facts)
             : bit_atomics.get_current(facts, bit_atomics_facts);
}

// The device side of the count: every buffer allocated once, for ranges with hi <= max_hi, on the
// device current when it is made (where its counts must run). Making one ends the process if an
// allocation fails, as device_buffer does; a count returns its errors (count_on).
class counter final : public common::sieve::range_counter {
 public:
  counter(bool bytes, std::uint64_t max_hi);
  // The count's reusable form: found = the primes in [lo, hi], the GPU's work on `stream`, which
  // it waits for (no device-wide synchronization). Returns the first CUDA error, never ends the
  // process; cudaErrorInvalidValue for lo > hi or hi > max_hi. One count at a time per counter
  // (its buffers are the count's): counters on different streams count at once.
  cudaError_t count_on(std::uint64_t lo, std::uint64_t hi, std::uint64_t& found,
                       cudaStream_t stream = 0);
  // The program's form: stream 0, a CUDA error ends the process.
  std::uint64_t count(std::uint64_t lo, std::uint64_t hi) override;
  std::vector<std::uint64_t> primes(std::uint64_t lo, std::uint64_t hi) override;
  // Short ranges are counted on the host (count_on_host) unless this is off: the tests turn it off
  // to check the GPU's kernels at the same ranges.
  void count_short_ranges_on_host(bool on) { short_on_host_ = on; }
  std::string how(std::uint64_t lo, std::uint64_t hi) const override;

 private:
  cudaError_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out, cudaStream_t stream,
                  std::uint64_t& found);
  bool counts_on_host(std::uint64_t lo, std::uint64_t hi) const;
  bool bytes_;  // byte_stores, else bit_atomics
  std::uint64_t max_hi_;
  bool short_on_host_ = true;
  common::device_buffer<std::uint32_t> d_wheel_, d_primes_;
  common::device_buffer<unsigned long long> d_count_;
  sieve_buckets::far_buffers far_;  // the buckets, the buffers of the sieving primes on the GPU
  mapped_total result_;
  unsigned long long counts_ = 0;  // the counts run on the GPU so far: each one's number
  // The odd primes in (31, min(sqrt(max_hi), HOST_SIEVING_PRIMES_MAX)], found once and uploaded
  // once to the front of d_primes_: every count whose sieving primes the host would find uses
  // the first of them. (The GPU's sieving primes, past that root, begin with the same primes.)
  std::vector<std::uint32_t> host_primes_;
  // The odd primes in (31, MAX_SEGMENT_BYTES]: a fixed table, found once, for the numbers of
  // sieving primes below a segment's length (the warp and the medium primes) when the sieving
  // primes themselves are found on the GPU.
  std::vector<std::uint32_t> segment_table_;
  // count_on_host's first wheel pattern and its buffer.
  std::vector<std::uint8_t> host_pattern_, host_bytes_;
};

//! [host]
// Short ranges on the host. A count on the GPU costs at least a launch waited for, and on the H100
// primesieve counts [0, 10^4] in about as long (the probe), so a short range with
// few sieving primes is counted on the host, with the same plan on one byte per odd number: the
// first wheel pattern (3 .. 13) copied in, every other prime up to sqrt(hi) struck from its square,
// the clear bytes counted eight at a time (each byte is 0 or 1, so one multiplication adds up a
// word's eight: no popcount instruction is needed, which the host compiler is not told it has).
constexpr std::uint64_t HOST_MAX_NUMBERS = 1 << 15;  // odd numbers in [lo, hi]
constexpr std::uint32_t HOST_MAX_ROOT = 1 << 12;     // sqrt(hi): at most 563 primes to strike

// The first wheel pattern's primes: WHEEL_PRIMES[0, 5), 3 .. 13.
constexpr int PATTERN_A_PRIMES = 5;
static_assert(WHEEL_PERIOD_A == 3 * 5 * 7 * 11 * 13, "the first five wheel primes");

// The first wheel pattern's bytes (WHEEL_PERIOD_A of them, then 20 more) from the byte layout's
// words (wheel_patterns(true), which starts with it).
inline std::vector<std::uint8_t> first_pattern_bytes(const std::vector<std::uint32_t>& byte_wheel) {
  std::vector<std::uint8_t> bytes(WHEEL_PERIOD_A + 20);
  std::memcpy(bytes.data(), byte_wheel.data(), bytes.size());
  return bytes;
}

inline bool short_range(std::uint64_t lo, std::uint64_t hi) {
  return hi - lo < 2 * HOST_MAX_NUMBERS && common::sieve::isqrt(hi) <= HOST_MAX_ROOT;
}

// pattern: the bytes of the first wheel pattern (WHEEL_PERIOD_A of them, then 20 more); primes:
// the odd primes in (31, sqrt(hi)] at least, ascending; bytes: HOST_MAX_NUMBERS + 8 of them.
inline std::uint64_t count_on_host(std::uint64_t lo, std::uint64_t hi, const std::uint8_t* pattern,
                                   const std::vector<std::uint32_t>& primes, std::uint8_t* bytes) {
  const std::uint64_t found = wheel_primes_in(lo, hi, PATTERN_A_PRIMES);
  if (no_odd_number_in(lo, hi)) return found;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2;
  const std::uint32_t length = std::uint32_t(k_hi - k_lo + 1),
                      root = std::uint32_t(common::sieve::isqrt(hi));
  // Byte i is the odd number 2 (k_lo + i) + 1; the pattern repeats every WHEEL_PERIOD_A bytes.
  for (std::uint32_t i = 0, r = std::uint32_t(k_lo % WHEEL_PERIOD_A); i < length; r = 0) {
    const std::uint32_t run = std::min(length - i, WHEEL_PERIOD_A - r);
    std::memcpy(bytes + i, pattern + r, run);
    i += run;
  }
  auto strike = [&](std::uint32_t p) {  // four strikes per step: independent stores
    const std::uint64_t first = first_offset(p, k_lo);
    if (first >= length) return;
    std::uint32_t k = std::uint32_t(first);
    for (; k + 3 * p < length; k += 4 * p)
      bytes[k] = bytes[k + p] = bytes[k + 2 * p] = bytes[k + 3 * p] = 1;
    for (; k < length; k += p) bytes[k] = 1;
  };
  for (int i = PATTERN_A_PRIMES; i < WHEEL_PRIME_COUNT && WHEEL_PRIMES[i] <= root; ++i)
    strike(WHEEL_PRIMES[i]);
  for (const std::uint32_t p : primes) {
    if (p > root) break;
    strike(p);
  }
  const std::uint32_t padded = (length + 7) / 8 * 8;
  std::memset(bytes + length, 1, padded - length);  // past the range: struck
  std::uint64_t struck = 0;
  for (std::uint32_t i = 0; i < padded; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    struck += (word * 0x0101010101010101ull) >> 56;  // the sum of its eight 0/1 bytes
  }
  return found + (padded - struck) - (k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
}
//! [host]

inline counter::counter(bool bytes, std::uint64_t max_hi)
    : bytes_(bytes),
      max_hi_(max_hi),
      d_wheel_(bytes ? BYTE_WHEEL_WORDS : BIT_WHEEL_WORDS),
      d_primes_(common::sieve::sieving_primes_capacity(std::int64_t(max_hi))),
      d_count_(1),
      far_(max_hi) {
  const std::uint64_t max_root = common::sieve::isqrt(max_hi);
  host_primes_ = primes_past_the_wheel(std::min<std::uint64_t>(max_root, HOST_SIEVING_PRIMES_MAX));
  if (!host_primes_.empty())
    CUDA_CHECK(cudaMemcpy(d_primes_.data(), host_primes_.data(), host_primes_.size() * 4,
                          cudaMemcpyHostToDevice));
  if (max_root > HOST_SIEVING_PRIMES_MAX) segment_table_ = primes_past_the_wheel(MAX_SEGMENT_BYTES);
  const std::vector<std::uint32_t> wheel = wheel_patterns(bytes);
  d_wheel_.upload(wheel);
  host_pattern_ = first_pattern_bytes(bytes ? wheel : wheel_patterns(true));
  host_bytes_.resize(HOST_MAX_NUMBERS + 8);
  CUDA_CHECK(cudaMemset(d_count_.data(), 0, d_count_.bytes()));
  // Cleared (here and the buckets in far_) before a count on any stream (a non-blocking one does
  // not wait for stream 0).
  CUDA_CHECK(cudaStreamSynchronize(0));
}

//! [launch]
inline cudaError_t counter::run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out,
                                cudaStream_t stream, std::uint64_t& found) {
  if (lo > hi || hi > max_hi_) return cudaErrorInvalidValue;
  found = wheel_primes_in(lo, hi);
  if (no_odd_number_in(lo, hi)) return cudaSuccess;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2;  // odd numbers 2k + 1
  gpu_facts gpu;
  CUDA_TRY(facts_here(bytes_, gpu));
  if (gpu.resident_blocks >= (1 << (64 - TICKET_SHIFT)))  // a launch's tickets fit the top 16 bits
    return cudaErrorNotSupported;

  // The sieving primes: the odd primes in (31, sqrt(hi)], found on the host and uploaded, or
  // found on the GPU past HOST_SIEVING_PRIMES_MAX. prime_count of them; primes_below(limit) is how
  // many are below limit (a segment's length at most).
  const std::uint32_t root = std::uint32_t(common::sieve::isqrt(hi));
  const bool on_host = root <= HOST_SIEVING_PRIMES_MAX;
  const std::vector<std::uint32_t>& known = on_host ? host_primes_ : segment_table_;
  std::uint32_t prime_count = 0;
  if (on_host)
    prime_count = std::uint32_t(std::upper_bound(known.begin(), known.end(), root) - known.begin());
  else
    CUDA_TRY(far_.find_primes(root, d_primes_.data(), stream, prime_count));

  segment_params s{};
  s.first_k = k_lo / 32 * 32;
  s.k_lo = k_lo;
  s.k_hi = k_hi;
  const std::uint64_t numbers = k_hi - s.first_k + 1;
  s.segment_numbers =
      bytes_ ? byte_segment_numbers(numbers, gpu.resident_blocks, root, gpu.max_segment)
             : BIT_SEGMENT_NUMBERS;
  const std::uint32_t length = s.segment_numbers;
  auto primes_below = [&](std::uint32_t limit) {  // limit <= MAX_SEGMENT_BYTES
    if (limit > root) return prime_count;
    return std::uint32_t(std::lower_bound(known.begin(), known.end(), limit) - known.begin());
  };
  s.primes = d_primes_.data();
  s.warp_primes = primes_below(length / 64);
  if (bytes_ && s.warp_primes > MAX_WARP_PRIMES)
    throw std::logic_error("sieve_segmented: more warp primes than MAX_WARP_PRIMES");
  s.segment_primes = primes_below(length);
  s.wheel = d_wheel_.data();
  s.count = d_count_.data();
  s.words_out = words_out;
  const std::uint64_t segments = (numbers + length - 1) / length;
  s.sequence = ++counts_;

  auto launch_segments = [&](std::uint64_t begin, std::uint64_t end) {
    s.segment_begin = begin;
    s.segment_end = end;
    s.result = end == segments ? result_.device() : nullptr;  // the count's last launch
    const unsigned blocks = unsigned(std::min<std::uint64_t>(end - begin, gpu.resident_blocks));
    const bool one_segment_each = end - begin <= blocks;
    if (bytes_ && one_segment_each)
      byte_segment_kernel<false>
          <<<blocks, BYTE_BLOCK_THREADS, byte_kernel_shared_bytes(length, false), stream>>>(s);
    else if (bytes_)
      byte_segment_kernel<true>
          <<<blocks, BYTE_BLOCK_THREADS, byte_kernel_shared_bytes(length), stream>>>(s);
    else
      bit_segment_kernel<<<blocks, BIT_BLOCK_THREADS, 0, stream>>>(s);
    return cudaGetLastError();
  };
  CUDA_TRY(sieve_buckets::sieve_in_rounds(s, d_primes_.data(), prime_count, segments,
                                          far_.buckets.data(), stream, launch_segments));
  unsigned long long clear = 0;
  CUDA_TRY(result_.wait(s.sequence, stream, clear));
  found += clear - (k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  return cudaSuccess;
}
//! [launch]

inline bool counter::counts_on_host(std::uint64_t lo, std::uint64_t hi) const {
  return short_on_host_ && lo <= hi && hi <= max_hi_ && short_range(lo, hi);
}

inline std::string counter::how(std::uint64_t lo, std::uint64_t hi) const {
  if (!counts_on_host(lo, hi)) return {};
  return "a short range (at most " + std::to_string(HOST_MAX_NUMBERS) +
         " odd numbers, sqrt(hi) <= " + std::to_string(HOST_MAX_ROOT) +
         "): counted on the host, no kernel launched (see its page, Short ranges)";
}

inline cudaError_t counter::count_on(std::uint64_t lo, std::uint64_t hi, std::uint64_t& found,
                                     cudaStream_t stream) {
  if (lo > hi || hi > max_hi_) return cudaErrorInvalidValue;
  if (counts_on_host(lo, hi)) {
    found = count_on_host(lo, hi, host_pattern_.data(), host_primes_, host_bytes_.data());
    return cudaSuccess;
  }
  return run(lo, hi, nullptr, stream, found);
}

inline std::uint64_t counter::count(std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t found = 0;
  CUDA_CHECK(count_on(lo, hi, found));
  return found;
}

inline std::vector<std::uint64_t> counter::primes(std::uint64_t lo, std::uint64_t hi) {
  return sieve_segments::list_primes(lo, hi, bytes_ ? 8 : 1,
                                     {WHEEL_PRIMES, WHEEL_PRIMES + WHEEL_PRIME_COUNT},
                                     [&](std::uint32_t* d_words) {
                                       std::uint64_t how_many = 0;
                                       CUDA_CHECK(run(lo, hi, d_words, 0, how_many));
                                     });
}

inline const std::vector<std::string>& variant_names() {
  static const std::vector<std::string> names = {"byte_stores", "bit_atomics"};
  return names;
}

inline std::unique_ptr<common::sieve::range_counter> make_counter(const std::string& variant,
                                                                  std::uint64_t max_hi) {
  return std::make_unique<counter>(variant != "bit_atomics", max_hi);
}

}  // namespace sieve_segmented
