// sieve_bytes: one byte per number, so that a strike is a plain store.
// The one idea: a strike into a word of bits must be an atomic (two threads that set two bits of
//   one word would each write the word back, and one bit would be lost), and a warp's atomics into
//   shared memory are executed a few lanes at a time. With one byte per odd number a strike is
//   `sieve[k] = 1`: threads that strike the same byte store the same value, and a store to one
//   byte leaves its neighbours alone, so no strike needs an atomic. A byte is eight times a bit,
//   so a segment takes nearly all of an SM's shared memory: one block of 1024 threads per SM,
//   segments as long as fit, evened out so that every block gets the same number of them.
// Changes from the previous step (sieve_wheel): segments of bytes, up to 192 KiB (dynamic shared
//   memory, the limit set per device); the wheel's byte patterns, copied into shared memory and
//   read 16 bytes (four words) at a time; the warps' first offsets computed once per segment, one
//   thread each, and the warps take their primes from a shared counter; the count is 4 - popc per
//   word of four 0/1 bytes.
// What limits it: every segment still computes a first multiple for every sieving prime, however
//   rarely it strikes (at 10^12 most of the primes up to 10^6 strike a segment at most once); the
//   sieving primes are found on the host for every count, which far from 0 is most of the time;
//   a short range costs a launch, a memset and a copy.
// Run: build/bin/sieve_bytes [--n 1e9] [--lo 1e12 --hi 1e12+1000 --list]
// Source: byte sieves on GPUs, e.g. CUDASieve (Curtis Seizert).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chapters/sieve/07_sieve_wheel/sieve_wheel.cuh"
#include "common/check.cuh"
#include "common/per_device.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_bytes {

using sieve_wheel::funnel;
using sieve_wheel::MAX_HI;
using sieve_wheel::segment_params;
using sieve_wheel::WHEEL_PERIOD_A;
using sieve_wheel::WHEEL_PERIOD_B;
using sieve_wheel::WHEEL_PERIOD_C;
using sieve_wheel::wheel_residues;

//! [byte_helpers]
// One byte per number, four to a word: byte b of a word (bits 8b .. 8b + 7) is its number b. The
// kernel handles 16 numbers at a time, four words (a uint4).
__host__ __device__ inline uint4 or_words(uint4 a, uint4 b) {
  return make_uint4(a.x | b.x, a.y | b.y, a.z | b.z, a.w | b.w);
}

// 0x01 in every byte of the word of four numbers starting at word_k that lies outside [k_lo, k_hi].
__host__ __device__ inline std::uint32_t outside_bytes(std::uint64_t word_k, std::uint64_t k_lo,
                                                       std::uint64_t k_hi) {
  std::uint32_t mask = 0;
  for (int b = 0; b < 4; ++b)
    if (word_k + b < k_lo || word_k + b > k_hi) mask |= 1u << (8 * b);
  return mask;
}
__host__ __device__ inline uint4 outside_bytes16(std::uint64_t k, std::uint64_t k_lo,
                                                 std::uint64_t k_hi) {
  return make_uint4(outside_bytes(k, k_lo, k_hi), outside_bytes(k + 4, k_lo, k_hi),
                    outside_bytes(k + 8, k_lo, k_hi), outside_bytes(k + 12, k_lo, k_hi));
}

// Sixteen bytes of a pattern starting at byte r: four funnel shifts of five words.
__host__ __device__ inline uint4 pattern_bytes16(const std::uint32_t* pattern, std::uint32_t r) {
  const std::uint32_t* w = pattern + r / 4;
  const std::uint32_t shift = 8 * (r % 4);
  return make_uint4(funnel(w[0], w[1], shift), funnel(w[1], w[2], shift), funnel(w[2], w[3], shift),
                    funnel(w[3], w[4], shift));
}

// The byte patterns, each stored with 20 bytes more than its period so that 16 bytes starting
// anywhere in the period lie in five consecutive words.
constexpr std::uint32_t byte_wheel_words(std::uint32_t period) { return (period + 20 + 3) / 4; }
constexpr std::uint32_t BYTE_WHEEL_OFFSET_A = 0,
                        BYTE_WHEEL_OFFSET_B = byte_wheel_words(WHEEL_PERIOD_A),
                        BYTE_WHEEL_OFFSET_C =
                            BYTE_WHEEL_OFFSET_B + byte_wheel_words(WHEEL_PERIOD_B);
constexpr std::uint32_t BYTE_WHEEL_WORDS = BYTE_WHEEL_OFFSET_C + byte_wheel_words(WHEEL_PERIOD_C);

// The wheel's 16 bytes d numbers (a multiple of 16, below 2^20) past a number k whose residues
// are r: 32-bit arithmetic only.
__host__ __device__ inline uint4 wheel_bytes16(const std::uint32_t* wheel, wheel_residues r,
                                               std::uint32_t d) {
  return or_words(
      or_words(pattern_bytes16(wheel + BYTE_WHEEL_OFFSET_A, (r.a + d) % WHEEL_PERIOD_A),
               pattern_bytes16(wheel + BYTE_WHEEL_OFFSET_B, (r.b + d) % WHEEL_PERIOD_B)),
      pattern_bytes16(wheel + BYTE_WHEEL_OFFSET_C, (r.c + d) % WHEEL_PERIOD_C));
}
//! [byte_helpers]

constexpr int BLOCK_THREADS = 1024;
constexpr std::uint32_t MAX_SEGMENT_BYTES = 192 * 1024;  // with the wheel: 215 of 227 KiB
// The most primes below MAX_SEGMENT_BYTES / 64 (a warp each): pi(3072) - 11 = 425.
constexpr std::uint32_t MAX_WARP_PRIMES = 448;
// Dynamic shared memory of a block: the segment, then the wheel.
constexpr std::size_t shared_bytes(std::uint32_t segment_numbers) {
  return segment_numbers + BYTE_WHEEL_WORDS * 4;
}

//! [phases]
// The wheel copied into shared memory by the block, before its first segment.
__device__ __forceinline__ void copy_wheel(std::uint32_t* to, const std::uint32_t* from) {
  for (std::uint32_t w = threadIdx.x; w < BYTE_WHEEL_WORDS; w += blockDim.x) to[w] = from[w];
  __syncthreads();  // the wheel is in place
}

// The small primes' first offsets in the segment, one thread each (a warp would compute each in
// all lanes), and the warps' counter reset.
__device__ __forceinline__ void find_warp_firsts(const segment_params& s, std::uint64_t seg_k,
                                                 std::uint32_t* warp_first,
                                                 std::uint32_t& next_warp_prime) {
  const std::uint32_t length = s.segment_numbers;
  for (std::uint32_t i = threadIdx.x; i < s.warp_primes; i += blockDim.x) {
    const std::uint64_t first = sieve_wheel::first_offset(s.primes[i], seg_k);
    warp_first[i] = first < length ? std::uint32_t(first) : length;  // length: no strike
  }
  if (threadIdx.x == 0) next_warp_prime = 0;
}

// Every strike of a segment, a plain store each.
__device__ __forceinline__ void strike_bytes(const segment_params& s, std::uint8_t* sieve,
                                             std::uint64_t seg_k, const std::uint32_t* warp_first,
                                             std::uint32_t& next_warp_prime) {
  const std::uint32_t length = s.segment_numbers;
  const int lane = threadIdx.x % 32;
  // Small primes: a warp per prime, lane j striking multiples j, j + 32, ... (p numbers apart).
  // The primes come in ascending order, most strikes first, to whichever warp is free.
  for (;;) {
    std::uint32_t i = 0;
    if (lane == 0) i = atomicAdd(&next_warp_prime, 1u);
    i = __shfl_sync(~0u, i, 0);
    if (i >= s.warp_primes) break;
    const std::uint32_t p = s.primes[i];
    for (std::uint32_t k = warp_first[i] + lane * p; k < length; k += 32 * p) sieve[k] = 1;
  }
  // Medium primes: a thread per prime, a few strikes each.
  for (std::uint32_t i = s.warp_primes + threadIdx.x; i < s.segment_primes; i += blockDim.x) {
    const std::uint32_t p = s.primes[i];
    const std::uint64_t first = sieve_wheel::first_offset(p, seg_k);
    if (first >= length) continue;
    for (std::uint32_t k = std::uint32_t(first); k < length; k += p) sieve[k] = 1;
  }
}

// This thread's clear numbers of the segment. Each byte is 0 or 1, so a word's population count
// is its struck numbers. Only a segment at an end of the range needs the numbers outside it set.
__device__ __forceinline__ unsigned long long count_clear_bytes(const segment_params& s,
                                                                const uint4* quads,
                                                                std::uint64_t seg_k) {
  const std::uint32_t length = s.segment_numbers;
  const bool inside = seg_k >= s.k_lo && seg_k + length - 1 <= s.k_hi;
  std::uint32_t seen = 0, struck = 0;
  for (std::uint32_t q = threadIdx.x; q < length / 16; q += blockDim.x) {
    const std::uint64_t quad_k = seg_k + 16 * q;
    uint4 bytes = quads[q];
    if (!inside) bytes = or_words(bytes, outside_bytes16(quad_k, s.k_lo, s.k_hi));
    seen += 16;
    struck += __popc(bytes.x) + __popc(bytes.y) + __popc(bytes.z) + __popc(bytes.w);
    if (s.words_out) {
      const std::uint32_t four[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
      for (int i = 0; i < 4; ++i)
        if (quad_k + 4 * i <= s.k_hi) s.words_out[(quad_k + 4 * i - s.first_k) / 4] = four[i];
    }
  }
  return seen - struck;
}
//! [phases]

//! [kernel]
__global__ void __launch_bounds__(BLOCK_THREADS, 1) kernel(segment_params s) {
  extern __shared__ uint4 shared[];
  uint4* quads = shared;  // the segment, 16 numbers per uint4
  auto* sieve = reinterpret_cast<std::uint8_t*>(shared);
  std::uint32_t* wheel = reinterpret_cast<std::uint32_t*>(sieve + s.segment_numbers);
  __shared__ std::uint32_t next_warp_prime;  // the warps take small primes from this counter
  __shared__ std::uint32_t warp_first[MAX_WARP_PRIMES];  // their first offsets in the segment
  unsigned long long clear = 0;                          // this thread's share of the count
  copy_wheel(wheel, s.wheel);
  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x) {
    const std::uint64_t seg_k = s.first_k + seg * s.segment_numbers;  // the segment's first number
    const wheel_residues residues = sieve_wheel::residues_of(seg_k);
    for (std::uint32_t q = threadIdx.x; q < s.segment_numbers / 16; q += blockDim.x)  // coalesced
      quads[q] = wheel_bytes16(wheel, residues, 16 * q);
    find_warp_firsts(s, seg_k, warp_first, next_warp_prime);
    __syncthreads();  // the wheel is in place before any strike
    strike_bytes(s, sieve, seg_k, warp_first, next_warp_prime);
    __syncthreads();  // every strike is in before counting
    clear += count_clear_bytes(s, quads, seg_k);
    __syncthreads();  // counted before the next segment's wheel overwrites the words
  }
  const unsigned long long total = sieve_segments::block_total(clear);
  if (threadIdx.x == 0 && total != 0) atomicAdd(s.count, total);
}
//! [kernel]

// ---------------------------------------------------------------------------------------------
// Host side

//! [segments]
// Numbers per segment for a range of `numbers` odd numbers sieved by `blocks` resident blocks: as
// many as fit (max_segment: MAX_SEGMENT_BYTES, or less on a GPU with less shared memory, see
// gpu_facts) in as few waves as possible, then evened out so that every block gets the same
// number of segments; a multiple of 32.
inline std::uint32_t segment_numbers_for(std::uint64_t numbers, std::uint64_t blocks,
                                         std::uint32_t max_segment = MAX_SEGMENT_BYTES) {
  const std::uint64_t per_wave = blocks * max_segment;
  const std::uint64_t waves = (numbers + per_wave - 1) / per_wave;
  const std::uint64_t even = (numbers + blocks * waves - 1) / (blocks * waves);
  return std::uint32_t(std::min<std::uint64_t>((even + 31) / 32 * 32, max_segment));
}

// What a count needs to know of the current GPU, kept per device and context: how many blocks of
// the segment kernel run at once, and the longest segment: MAX_SEGMENT_BYTES where the shared
// memory holds it with the wheel (the H100's and the H200's 227 KiB), else as many KiB as fit (an
// RTX 30xx or 40xx has 99 KiB, a T4 64 KiB). Sets the byte kernels' shared-memory limit on the
// context, which a device reset forgets (hence per context).
struct gpu_facts {
  int resident_blocks = 0;
  std::uint32_t max_segment = 0;
};

// The facts for byte kernels: `sizing` (its static shared memory and its occupancy) and every
// other kernel that shares its launches' shared memory.
template <class Kernel, class... Others>
cudaError_t facts_for(gpu_facts& f, Kernel sizing, Others... others) {
  int device = 0, optin = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes fixed{};  // the kernel's static shared memory
  CUDA_TRY(cudaFuncGetAttributes(&fixed, sizing));
  const std::int64_t room =
      std::int64_t(optin) - std::int64_t(fixed.sharedSizeBytes) - std::int64_t(shared_bytes(0));
  f.max_segment = std::uint32_t(std::clamp<std::int64_t>(room / 1024 * 1024, 0, MAX_SEGMENT_BYTES));
  if (f.max_segment == 0) return cudaErrorNotSupported;
  const std::size_t shared = shared_bytes(f.max_segment);
  for (const auto kernel : {sizing, others...})
    CUDA_TRY(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  return sieve_segments::blocks_at_once(sizing, BLOCK_THREADS, shared, f.resident_blocks);
}
//! [segments]

// The facts for the byte kernels `byte_kernels` (the first sizes), asked once per device and
// context.
template <auto... byte_kernels>
cudaError_t facts_here(gpu_facts& facts) {
  static common::PerDevice<gpu_facts> cache;
  return cache.get_current(facts, [](gpu_facts& f) { return facts_for(f, byte_kernels...); });
}

// sieve_segments' counter with a byte per number: the wheel's byte patterns on the device, the
// wheel's primes listed although struck (this step's counter and the next one's).
class byte_counter_base : public sieve_segments::counter_base {
 public:
  explicit byte_counter_base(std::uint64_t max_hi)
      : counter_base(max_hi, 8,
                     {sieve_wheel::WHEEL_PRIMES,
                      sieve_wheel::WHEEL_PRIMES + sieve_wheel::WHEEL_PRIME_COUNT}),
        d_wheel_(BYTE_WHEEL_WORDS) {
    d_wheel_.upload(sieve_wheel::wheel_patterns(4, byte_wheel_words));
  }

 protected:
  common::device_buffer<std::uint32_t> d_wheel_;
};

//! [launch]
class counter final : public byte_counter_base {
 public:
  explicit counter(std::uint64_t max_hi)
      : byte_counter_base(max_hi),
        warp_table_(sieve_wheel::primes_past_the_wheel(MAX_SEGMENT_BYTES / 64)) {}

 private:
  std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) override {
    const std::uint64_t found = sieve_wheel::wheel_primes_in(lo, hi);
    if (sieve_segments::no_odd_number_in(lo, hi)) return found;
    gpu_facts gpu;
    CUDA_CHECK(facts_here<kernel>(gpu));
    const std::uint64_t numbers = (hi - 1) / 2 - lo / 2 / 32 * 32 + 1;  // from first_k to k_hi
    const std::uint32_t length =
        segment_numbers_for(numbers, std::uint64_t(gpu.resident_blocks), gpu.max_segment);
    segment_params s{sieve_segments::range_params(lo, hi, length)};
    s.primes = d_primes_.data();
    s.segment_primes = upload_primes(hi, sieve_wheel::LARGEST_WHEEL_PRIME + 1);
    s.warp_primes = std::min(s.segment_primes, sieve_wheel::primes_below(warp_table_, length / 64));
    if (s.warp_primes > MAX_WARP_PRIMES)
      throw std::logic_error("sieve_bytes: more warp primes than MAX_WARP_PRIMES");
    s.wheel = d_wheel_.data();
    s.count = d_count_.data();
    s.words_out = words_out;
    const std::uint64_t clear = sieve_segments::launch_count(
        kernel, s, BLOCK_THREADS, shared_bytes(length), gpu.resident_blocks);
    return found + clear - (s.k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  }
  std::vector<std::uint32_t> warp_table_;  // the odd primes in (31, MAX_SEGMENT_BYTES / 64)
};
//! [launch]

}  // namespace sieve_bytes
