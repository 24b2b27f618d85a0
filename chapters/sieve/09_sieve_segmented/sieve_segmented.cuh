// sieve_segmented: counts the primes of [lo, hi] up to 2^48, far from 0 and in short ranges alike
//   (the final step).
// The one idea: sieve_bytes' segments, with the costs that are not strikes taken away:
//   - the primes past a segment's length strike at most once per segment: instead of every
//     segment visiting them, they are sorted into buckets. Per round of ROUND_BITS numbers one
//     thread per large prime ORs its multiples into the round's bucket bits (in L2), which the
//     segments then OR into their wheel pattern;
//   - past a square root of HOST_SIEVING_PRIMES_MAX the sieving primes are found on the GPU (two
//     kernels), not by the host's simple sieve, which far from 0 was most of a count's time;
//   - short ranges: a range of few numbers with a small root is counted on the host
//     (count_on_host); on the GPU, the count's last block writes the total into mapped host
//     memory (no memset, no copy back), a block that sieves one segment reads the wheel where it
//     is, the sieving primes below that root are found once per counter, and segments are longer
//     than the root where that fits (no round of large primes).
// Two variants, the same plan: byte_stores (default), sieve_bytes' kernel, and bit_atomics,
//   sieve_wheel's (one bit per number, shared-memory atomics).
// Changes from the previous step (sieve_bytes): the rounds and bucket_kernel; the segment kernels
//   OR the round's bucket bits into the wheel and clear them; the sieving primes on the GPU
//   (sieving_primes_sieve, sieving_primes_list); finish_count and mapped_total; count_on_host;
//   byte_segment_numbers past the root. The count's reusable form (counter::count_on) takes a
//   stream and returns a cudaError_t.
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

#include "chapters/sieve/08_sieve_bytes/sieve_bytes.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/per_device.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_segmented {

// The steps before this one, by the names this step uses.
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

// Numbers per round of the large primes: 2^28 bits, a 32 MiB bucket array that stays in L2.
constexpr std::uint64_t ROUND_BITS = std::uint64_t(1) << 28;

//! [buckets_as_bytes]
// The four bits of a nibble as four 0/1 bytes: bit b moves to bit 8b (the four shifted copies
// never overlap, so nothing carries); 16 bits of a round's buckets as 16 bytes of a segment.
__host__ __device__ inline std::uint32_t nibble_bytes(std::uint32_t nibble) {
  return (nibble * 0x00204081u) & 0x01010101u;
}
__host__ __device__ inline uint4 bits_as_bytes16(std::uint32_t bits) {
  return make_uint4(nibble_bytes(bits & 0xFu), nibble_bytes((bits >> 4) & 0xFu),
                    nibble_bytes((bits >> 8) & 0xFu), nibble_bytes((bits >> 12) & 0xFu));
}
//! [buckets_as_bytes]

// sieve_wheel's parameters (segment_primes: the primes below a segment's length, the medium
// ones; the large ones past them go through the buckets), and the rounds' and the total's.
struct segment_params : sieve_wheel::segment_params {
  std::uint32_t* buckets;  // the round's large-prime bits (one per number), or null
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
// sieve_bytes' kernel with the round's bucket bits. WHEEL_IN_SHARED: the wheel is copied into
// shared memory first (23 KB), for blocks that sieve several segments; a block that sieves one
// reads the few words it needs where they are.
template <bool WHEEL_IN_SHARED>
__global__ void __launch_bounds__(BYTE_BLOCK_THREADS, 1) byte_segment_kernel(segment_params s) {
  extern __shared__ uint4 shared[];
  uint4* quads = shared;  // the segment, 16 numbers per uint4
  auto* sieve = reinterpret_cast<std::uint8_t*>(shared);
  std::uint32_t* wheel_copy = reinterpret_cast<std::uint32_t*>(sieve + s.segment_numbers);
  const std::uint32_t* wheel = WHEEL_IN_SHARED ? wheel_copy : s.wheel;
  __shared__ std::uint32_t next_warp_prime;  // the warps take small primes from this counter
  __shared__ std::uint32_t warp_first[MAX_WARP_PRIMES];  // their first offsets in the segment
  const std::uint32_t length = s.segment_numbers, segment_quads = length / 16;
  unsigned long long clear = 0;  // this thread's share of the count
  if (WHEEL_IN_SHARED) sieve_bytes::copy_wheel(wheel_copy, s.wheel);

  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x) {
    const std::uint64_t seg_k = s.first_k + seg * length;  // the segment's first number
    const std::uint64_t round_offset = (seg - s.segment_begin) * length;  // in the round's bits
    const wheel_residues residues = residues_of(seg_k);
    // The wheel and the large primes' bucket bits, 16 numbers at a time (coalesced).
    for (std::uint32_t q = threadIdx.x; q < segment_quads; q += blockDim.x) {
      uint4 bytes = wheel_bytes16(wheel, residues, 16 * q);
      if (s.buckets) {
        const std::uint64_t bit = round_offset + 16 * q;
        bytes = or_words(bytes, bits_as_bytes16(s.buckets[bit / 32] >> (bit % 32)));
      }
      quads[q] = bytes;
    }
    sieve_bytes::find_warp_firsts(s, seg_k, warp_first, next_warp_prime);
    __syncthreads();  // the wheel is in place before any strike, the buckets are read
    if (s.buckets)    // clear the round's bucket words of this segment for the next round
      for (std::uint32_t w = threadIdx.x; w < length / 32; w += blockDim.x)
        s.buckets[round_offset / 32 + w] = 0;
    sieve_bytes::strike_bytes(s, sieve, seg_k, warp_first, next_warp_prime);
    __syncthreads();  // every strike is in before counting
    clear += sieve_bytes::count_clear_bytes(s, quads, seg_k);
    __syncthreads();  // counted before the next segment's wheel overwrites the words
  }
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

//! [bucket_kernel]
// One thread per large prime: its multiples in the round's numbers [round_k, round_k +
// round_numbers), ORed into the round's bucket bits (global memory, L2-resident; several primes
// may share a word).
__global__ void bucket_kernel(const std::uint32_t* primes, std::uint32_t first_prime,
                              std::uint32_t prime_count, std::uint64_t round_k,
                              std::uint64_t round_numbers, std::uint32_t* buckets) {
  const std::uint64_t i = first_prime + blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  if (i >= prime_count) return;
  const std::uint32_t p = primes[i];
  for (std::uint64_t k = first_offset(p, round_k); k < round_numbers; k += p)
    atomicOr(&buckets[k / 32], 1u << (k % 32));
}
//! [bucket_kernel]

// ---------------------------------------------------------------------------------------------
// The sieving primes on the GPU

//! [sieving_primes]
// Every odd prime in (31, limit] (limit = sqrt(hi), at most 2^24), ascending, found by two
// kernels instead of the host's simple sieve, which far from 0 was most of a count's time (see the
// page). Each block sieves PRIMES_CHUNK odd numbers 2k + 1 in shared memory, one byte each, with
// the odd primes up to 4096 (sqrt(2^24)), which it finds itself by trial division; it stores its
// primes as bits and their count. Then each block adds up the counts of the blocks before it and
// writes its primes from there, in order: a block-wide scan of the words' popcounts.
constexpr std::uint32_t PRIMES_CHUNK = 32768;  // odd numbers per block, 32 KiB of bytes
constexpr int PRIMES_BLOCK_THREADS = 1024;     // one 32-bit word of the chunk's bits each
constexpr std::uint32_t PRIMES_BASE_LIMIT = 4096;
static_assert(PRIMES_CHUNK == 32 * PRIMES_BLOCK_THREADS, "a word per thread");

__global__ void __launch_bounds__(PRIMES_BLOCK_THREADS)
    sieving_primes_sieve(std::uint32_t limit, std::uint32_t* bits, std::uint32_t* chunk_counts) {
  __shared__ std::uint8_t composite[PRIMES_CHUNK];
  __shared__ std::uint32_t base[PRIMES_BASE_LIMIT / 2];  // the odd primes below 4096
  __shared__ std::uint32_t base_count, chunk_count;
  const std::uint32_t t = threadIdx.x;
  const std::uint64_t k0 = std::uint64_t(blockIdx.x) * PRIMES_CHUNK;  // 2 k0 + 1: first number
  if (t == 0) base_count = chunk_count = 0;
  for (std::uint32_t i = t; i < PRIMES_CHUNK; i += blockDim.x) composite[i] = 0;
  __syncthreads();
  for (std::uint32_t q = 3 + 2 * t; q < PRIMES_BASE_LIMIT; q += 2 * blockDim.x) {
    bool prime = true;
    for (std::uint32_t d = 3; d * d <= q && prime; d += 2) prime = q % d != 0;
    if (prime && std::uint64_t(q) * q <= limit) base[atomicAdd(&base_count, 1u)] = q;
  }
  __syncthreads();
  // A warp per base prime, its lanes on consecutive odd multiples (order does not matter).
  const std::uint32_t warp = t / 32, lane = t % 32, warps = blockDim.x / 32;
  for (std::uint32_t b = warp; b < base_count; b += warps) {
    const std::uint32_t p = base[b];
    for (std::uint64_t j = first_offset(p, k0) + std::uint64_t(lane) * p; j < PRIMES_CHUNK;
         j += 32ull * p)
      composite[j] = 1;
  }
  __syncthreads();
  // Word t: numbers 2 (k0 + 32 t + e) + 1, e = 0 .. 31; prime if not struck and in (31, limit].
  std::uint32_t word = 0;
  for (std::uint32_t e = 0; e < 32; ++e) {
    const std::uint64_t number = 2 * (k0 + 32 * t + e) + 1;
    if (!composite[32 * t + e] && number > LARGEST_WHEEL_PRIME && number <= limit) word |= 1u << e;
  }
  bits[blockIdx.x * std::uint64_t(PRIMES_BLOCK_THREADS) + t] = word;
  if (word != 0) atomicAdd(&chunk_count, std::uint32_t(__popc(word)));
  __syncthreads();
  if (t == 0) chunk_counts[blockIdx.x] = chunk_count;
}

// The inclusive sum of x over the lanes up to this one.
__device__ __forceinline__ std::uint32_t inclusive_warp_sum(std::uint32_t x) {
  const std::uint32_t lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const std::uint32_t other = __shfl_up_sync(~0u, x, d);
    if (lane >= std::uint32_t(d)) x += other;
  }
  return x;
}

__global__ void __launch_bounds__(PRIMES_BLOCK_THREADS)
    sieving_primes_list(const std::uint32_t* bits, const std::uint32_t* chunk_counts,
                        std::uint32_t* primes, std::uint32_t* total) {
  __shared__ std::uint32_t warp_sums[PRIMES_BLOCK_THREADS / 32];
  __shared__ std::uint32_t before;  // the primes of the chunks before this one
  const std::uint32_t t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (t == 0) before = 0;
  __syncthreads();
  std::uint32_t earlier = 0;
  for (std::uint32_t c = t; c < blockIdx.x; c += blockDim.x) earlier += chunk_counts[c];
  if (earlier != 0) atomicAdd(&before, earlier);
  const std::uint32_t word = bits[blockIdx.x * std::uint64_t(PRIMES_BLOCK_THREADS) + t];
  // Exclusive scan of the words' popcounts across the block: in each warp, then of the warps.
  const std::uint32_t count = __popc(word);
  const std::uint32_t inclusive = inclusive_warp_sum(count);
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  if (warp == 0) warp_sums[lane] = inclusive_warp_sum(warp_sums[lane]);  // over the 32 warps
  __syncthreads();
  std::uint32_t at = before + (warp > 0 ? warp_sums[warp - 1] : 0) + inclusive - count;
  const std::uint64_t k = std::uint64_t(blockIdx.x) * PRIMES_CHUNK + 32 * t;
  for (std::uint32_t w = word; w != 0; w &= w - 1)
    primes[at++] = std::uint32_t(2 * (k + std::uint32_t(__ffs(w) - 1)) + 1);
  if (blockIdx.x == gridDim.x - 1 && t == blockDim.x - 1) *total = at;
}
//! [sieving_primes]

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

inline cudaError_t byte_stores_facts(gpu_facts& f) {
  return sieve_bytes::facts_for(f, byte_segment_kernel<true>, byte_segment_kernel<false>);
}

inline cudaError_t bit_atomics_facts(gpu_facts& f) {
  return sieve_segments::blocks_at_once(bit_segment_kernel, BIT_BLOCK_THREADS, 0,
                                        f.resident_blocks);
}

// The facts of the current GPU for byte_stores (bytes) or bit_atomics.
inline cudaError_t facts_here(bool bytes, gpu_facts& facts) {
  static common::PerDevice<gpu_facts> byte_stores, bit_atomics;
  return bytes ? byte_stores.get_current(facts, byte_stores_facts)
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
  cudaError_t sieving_primes_on_gpu(std::uint32_t limit, cudaStream_t stream, std::uint32_t& count);
  bool bytes_;  // byte_stores, else bit_atomics
  std::uint64_t max_hi_;
  bool short_on_host_ = true;
  common::device_buffer<std::uint32_t> d_wheel_, d_primes_, d_buckets_;
  common::device_buffer<unsigned long long> d_count_;
  // The sieving primes on the GPU: the chunks' bits and counts, and how many there are.
  common::device_buffer<std::uint32_t> d_prime_bits_, d_chunk_counts_, d_primes_total_;
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

// Up to this square root of hi the host finds the sieving primes; past it, the GPU
// (sieving_primes_sieve and sieving_primes_list: two launches and a copy back, some 20 us). On the
// H100 the GPU was slower at a root of 17320 (3e8) and faster at 31623 (1e9): between the two.
constexpr std::uint32_t HOST_SIEVING_PRIMES_MAX = 24576;

// Chunks of the GPU's sieve of the odd numbers up to `limit`.
constexpr std::uint32_t sieving_primes_chunks(std::uint64_t limit) {
  return std::uint32_t(((limit + 1) / 2 + PRIMES_CHUNK - 1) / PRIMES_CHUNK);
}

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
      d_buckets_(common::sieve::isqrt(max_hi) > LARGEST_WHEEL_PRIME ? ROUND_BITS / 32 : 0),
      d_count_(1),
      d_prime_bits_(std::size_t(sieving_primes_chunks(common::sieve::isqrt(max_hi))) *
                    PRIMES_BLOCK_THREADS),
      d_chunk_counts_(sieving_primes_chunks(common::sieve::isqrt(max_hi))),
      d_primes_total_(1) {
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
  if (d_buckets_.size() > 0) CUDA_CHECK(cudaMemset(d_buckets_.data(), 0, d_buckets_.bytes()));
  // Cleared before a count on any stream (a non-blocking one does not wait for stream 0).
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
    CUDA_TRY(sieving_primes_on_gpu(root, stream, prime_count));

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
  const std::uint32_t large_primes = prime_count - s.segment_primes;
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
  if (large_primes == 0) {
    CUDA_TRY(launch_segments(0, segments));
  } else {  // rounds: the large primes fill the round's buckets, then its segments are sieved
    const std::uint64_t round_segments = ROUND_BITS / length;
    s.buckets = d_buckets_.data();
    for (std::uint64_t begin = 0; begin < segments; begin += round_segments) {
      const std::uint64_t end = std::min(segments, begin + round_segments);
      const std::uint64_t round_k = s.first_k + begin * length;
      bucket_kernel<<<(large_primes + 255) / 256, 256, 0, stream>>>(
          d_primes_.data(), s.segment_primes, prime_count, round_k, (end - begin) * length,
          d_buckets_.data());
      CUDA_TRY(cudaGetLastError());
      CUDA_TRY(launch_segments(begin, end));
    }
  }
  unsigned long long clear = 0;
  CUDA_TRY(result_.wait(s.sequence, stream, clear));
  found += clear - (k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  return cudaSuccess;
}
//! [launch]

// The odd primes in (31, limit] (limit <= 2^24) into d_primes, ascending, on the GPU, on
// `stream`; `total` is how many (one copy back, waited for on the stream). d_bits:
// sieving_primes_chunks(limit) x PRIMES_BLOCK_THREADS words, d_chunk_counts:
// sieving_primes_chunks(limit), d_total: one.
inline cudaError_t sieving_primes_on_gpu(std::uint32_t limit, std::uint32_t* d_bits,
                                         std::uint32_t* d_chunk_counts, std::uint32_t* d_primes,
                                         std::uint32_t* d_total, cudaStream_t stream,
                                         std::uint32_t& total) {
  if (limit > (1u << 24)) return cudaErrorInvalidValue;
  const std::uint32_t chunks = sieving_primes_chunks(limit);
  sieving_primes_sieve<<<chunks, PRIMES_BLOCK_THREADS, 0, stream>>>(limit, d_bits, d_chunk_counts);
  CUDA_TRY(cudaGetLastError());
  sieving_primes_list<<<chunks, PRIMES_BLOCK_THREADS, 0, stream>>>(d_bits, d_chunk_counts, d_primes,
                                                                   d_total);
  CUDA_TRY(cudaGetLastError());
  CUDA_TRY(cudaMemcpyAsync(&total, d_total, sizeof total, cudaMemcpyDeviceToHost, stream));
  return cudaStreamSynchronize(stream);
}

inline cudaError_t counter::sieving_primes_on_gpu(std::uint32_t limit, cudaStream_t stream,
                                                  std::uint32_t& count) {
  return sieve_segmented::sieving_primes_on_gpu(limit, d_prime_bits_.data(), d_chunk_counts_.data(),
                                                d_primes_.data(), d_primes_total_.data(), stream,
                                                count);
}

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
