// sieve_buckets: ranges far from 0: the large primes in buckets, the sieving primes found on the
//   GPU.
// The one idea: far from 0 most of a count's work is not strikes. The primes past a segment's
//   length strike at most once per segment, so instead of every segment visiting them (a 64-bit
//   division each), they are sorted into buckets: per round of ROUND_BITS numbers one thread per
//   large prime ORs its multiples into the round's bucket bits (in L2), which the segments then OR
//   into their wheel pattern. And past a square root of HOST_SIEVING_PRIMES_MAX the sieving primes
//   are found on the GPU (two kernels), not by the host's simple sieve, which far from 0 was most
//   of a count's time.
// Changes from the previous step (sieve_bytes): the rounds and bucket_kernel; the segment ORs the
//   round's bucket bits into the wheel and clears them (sieve_byte_segment); the sieving primes on
//   the GPU (sieving_primes_sieve, sieving_primes_list); each segment strikes only the primes
//   below its length.
// What limits it: the strikes of the primes 37 .. sqrt(hi), about 1.2 per odd number at 10^10;
//   at 10^12, the large primes' rounds (a global atomic per strike in L2, two launches per round).
//   A short range costs a launch waited for, a memset of the total and a copy back.
// Run: build/bin/sieve_buckets [--n 1e12] [--lo 1e14 --hi 1e14+1e8]
// Source: Oliveira e Silva's buckets (the segmented sieve of his Goldbach verification).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "chapters/sieve/08_sieve_bytes/sieve_bytes.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace sieve_buckets {

using sieve_segments::first_offset;
using sieve_segments::MAX_HI;
using sieve_wheel::LARGEST_WHEEL_PRIME;
using sieve_wheel::wheel_residues;

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

// sieve_bytes' parameters, and the round's buckets.
struct segment_params : sieve_wheel::segment_params {
  std::uint32_t* buckets;  // the round's large-prime bits (one per number), or null
};

//! [byte_segment]
// Segment `seg` of a launch: sieve_bytes' segment, with the round's bucket bits ORed into the
// wheel and cleared for the next round. wheel: its words (in shared memory, or where they are);
// quads: the segment in shared memory. Returns this thread's clear numbers.
__device__ __forceinline__ unsigned long long sieve_byte_segment(
    const segment_params& s, std::uint64_t seg, const std::uint32_t* wheel, uint4* quads,
    std::uint32_t* warp_first, std::uint32_t& next_warp_prime) {
  const std::uint32_t length = s.segment_numbers, segment_quads = length / 16;
  const std::uint64_t seg_k = s.first_k + seg * length;  // the segment's first number
  const std::uint64_t round_offset = (seg - s.segment_begin) * length;  // in the round's bits
  const wheel_residues residues = sieve_wheel::residues_of(seg_k);
  // The wheel and the large primes' bucket bits, 16 numbers at a time (coalesced).
  for (std::uint32_t q = threadIdx.x; q < segment_quads; q += blockDim.x) {
    uint4 bytes = sieve_bytes::wheel_bytes16(wheel, residues, 16 * q);
    if (s.buckets) {
      const std::uint64_t bit = round_offset + 16 * q;
      bytes = sieve_bytes::or_words(bytes, bits_as_bytes16(s.buckets[bit / 32] >> (bit % 32)));
    }
    quads[q] = bytes;
  }
  sieve_bytes::find_warp_firsts(s, seg_k, warp_first, next_warp_prime);
  __syncthreads();  // the wheel is in place before any strike, the buckets are read
  if (s.buckets)    // clear the round's bucket words of this segment for the next round
    for (std::uint32_t w = threadIdx.x; w < length / 32; w += blockDim.x)
      s.buckets[round_offset / 32 + w] = 0;
  sieve_bytes::strike_bytes(s, reinterpret_cast<std::uint8_t*>(quads), seg_k, warp_first,
                            next_warp_prime);
  __syncthreads();  // every strike is in before counting
  const unsigned long long clear = sieve_bytes::count_clear_bytes(s, quads, seg_k);
  __syncthreads();  // counted before the next segment's wheel overwrites the words
  return clear;
}
//! [byte_segment]

__global__ void __launch_bounds__(sieve_bytes::BLOCK_THREADS, 1) kernel(segment_params s) {
  extern __shared__ uint4 shared[];  // the segment, then the wheel
  auto* wheel =
      reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint8_t*>(shared) + s.segment_numbers);
  __shared__ std::uint32_t next_warp_prime;  // the warps take small primes from this counter
  __shared__ std::uint32_t warp_first[sieve_bytes::MAX_WARP_PRIMES];
  unsigned long long clear = 0;  // this thread's share of the count
  sieve_bytes::copy_wheel(wheel, s.wheel);
  for (std::uint64_t seg = s.segment_begin + blockIdx.x; seg < s.segment_end; seg += gridDim.x)
    clear += sieve_byte_segment(s, seg, wheel, shared, warp_first, next_warp_prime);
  const unsigned long long total = sieve_segments::block_total(clear);
  if (threadIdx.x == 0 && total != 0) atomicAdd(s.count, total);
}

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

// Up to this square root of hi the host finds the sieving primes; past it, the GPU
// (sieving_primes_sieve and sieving_primes_list: two launches and a copy back, some 20 us). On the
// H100 the GPU was slower at a root of 17320 (3e8) and faster at 31623 (1e9): between the two.
constexpr std::uint32_t HOST_SIEVING_PRIMES_MAX = 24576;

// Chunks of the GPU's sieve of the odd numbers up to `limit`.
constexpr std::uint32_t sieving_primes_chunks(std::uint64_t limit) {
  return std::uint32_t(((limit + 1) / 2 + PRIMES_CHUNK - 1) / PRIMES_CHUNK);
}
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

//! [rounds]
// The launches of a count's `segments` segments: all at once when every sieving prime strikes in
// each segment (s.segment_primes == prime_count); else in rounds of ROUND_BITS numbers, each
// round's buckets filled by bucket_kernel, one thread per large prime, before its segments.
// launch_segments(begin, end) launches the segment kernel on segments [begin, end) of the range.
template <class LaunchSegments>
cudaError_t sieve_in_rounds(segment_params& s, const std::uint32_t* d_primes,
                            std::uint32_t prime_count, std::uint64_t segments,
                            std::uint32_t* d_buckets, cudaStream_t stream,
                            LaunchSegments launch_segments) {
  const std::uint32_t length = s.segment_numbers;
  const std::uint32_t large_primes = prime_count - s.segment_primes;
  if (large_primes == 0) return launch_segments(0, segments);
  const std::uint64_t round_segments = ROUND_BITS / length;
  s.buckets = d_buckets;
  for (std::uint64_t begin = 0; begin < segments; begin += round_segments) {
    const std::uint64_t end = std::min(segments, begin + round_segments);
    const std::uint64_t round_k = s.first_k + begin * length;
    bucket_kernel<<<(large_primes + 255) / 256, 256, 0, stream>>>(
        d_primes, s.segment_primes, prime_count, round_k, (end - begin) * length, d_buckets);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(launch_segments(begin, end));
  }
  return cudaSuccess;
}
//! [rounds]

// The device buffers of the sieving primes found on the GPU up to sqrt(max_hi), and of the
// rounds' buckets (none where no prime can be large).
struct far_buffers {
  explicit far_buffers(std::uint64_t max_hi)
      : buckets(common::sieve::isqrt(max_hi) > LARGEST_WHEEL_PRIME ? ROUND_BITS / 32 : 0),
        prime_bits(std::size_t(sieving_primes_chunks(common::sieve::isqrt(max_hi))) *
                   PRIMES_BLOCK_THREADS),
        chunk_counts(sieving_primes_chunks(common::sieve::isqrt(max_hi))),
        primes_total(1) {
    if (buckets.size() > 0) CUDA_CHECK(cudaMemset(buckets.data(), 0, buckets.bytes()));
  }
  // The odd primes in (31, limit] into d_primes on the GPU (sieving_primes_on_gpu).
  cudaError_t find_primes(std::uint32_t limit, std::uint32_t* d_primes, cudaStream_t stream,
                          std::uint32_t& count) {
    return sieving_primes_on_gpu(limit, prime_bits.data(), chunk_counts.data(), d_primes,
                                 primes_total.data(), stream, count);
  }
  common::device_buffer<std::uint32_t> buckets;
  // The sieving primes on the GPU: the chunks' bits and counts, and how many there are.
  common::device_buffer<std::uint32_t> prime_bits, chunk_counts, primes_total;
};

//! [launch]
class counter final : public sieve_bytes::byte_counter_base {
 public:
  explicit counter(std::uint64_t max_hi)
      : byte_counter_base(max_hi),
        far_(max_hi),
        segment_table_(sieve_wheel::primes_past_the_wheel(sieve_bytes::MAX_SEGMENT_BYTES)) {}

 private:
  std::uint64_t run(std::uint64_t lo, std::uint64_t hi, std::uint32_t* words_out) override {
    const std::uint64_t found = sieve_wheel::wheel_primes_in(lo, hi);
    if (sieve_segments::no_odd_number_in(lo, hi)) return found;
    sieve_bytes::gpu_facts gpu;
    CUDA_CHECK(sieve_bytes::facts_here<kernel>(gpu));
    // The sieving primes, the odd primes in (31, sqrt(hi)]: on the host up to
    // HOST_SIEVING_PRIMES_MAX, past it on the GPU.
    const std::uint32_t root = std::uint32_t(common::sieve::isqrt(hi));
    std::uint32_t prime_count = 0;
    if (root <= HOST_SIEVING_PRIMES_MAX)
      prime_count = upload_primes(hi, LARGEST_WHEEL_PRIME + 1);
    else
      CUDA_CHECK(far_.find_primes(root, d_primes_.data(), 0, prime_count));
    auto primes_below = [&](std::uint32_t limit) {  // limit <= MAX_SEGMENT_BYTES
      return limit > root ? prime_count : sieve_wheel::primes_below(segment_table_, limit);
    };

    const std::uint64_t numbers = (hi - 1) / 2 - lo / 2 / 32 * 32 + 1;  // from first_k to k_hi
    const std::uint32_t length = sieve_bytes::segment_numbers_for(
        numbers, std::uint64_t(gpu.resident_blocks), gpu.max_segment);
    segment_params s{};
    static_cast<sieve_segments::segment_params&>(s) = sieve_segments::range_params(lo, hi, length);
    const std::uint64_t segments = s.segment_end;
    s.primes = d_primes_.data();
    s.warp_primes = primes_below(length / 64);
    if (s.warp_primes > sieve_bytes::MAX_WARP_PRIMES)
      throw std::logic_error("sieve_buckets: more warp primes than MAX_WARP_PRIMES");
    s.segment_primes = primes_below(length);  // the larger ones go through the buckets
    s.wheel = d_wheel_.data();
    s.count = d_count_.data();
    s.words_out = words_out;
    CUDA_CHECK(cudaMemset(s.count, 0, sizeof *s.count));
    CUDA_CHECK(sieve_in_rounds(
        s, d_primes_.data(), prime_count, segments, far_.buckets.data(), 0,
        [&](std::uint64_t begin, std::uint64_t end) {
          s.segment_begin = begin;
          s.segment_end = end;
          const unsigned blocks =
              unsigned(std::min<std::uint64_t>(end - begin, gpu.resident_blocks));
          kernel<<<blocks, sieve_bytes::BLOCK_THREADS, sieve_bytes::shared_bytes(length)>>>(s);
          return cudaGetLastError();
        }));
    unsigned long long clear = 0;
    CUDA_CHECK(cudaMemcpy(&clear, s.count, sizeof clear, cudaMemcpyDeviceToHost));
    return found + clear - (s.k_lo == 0 ? 1 : 0);  // number 1 is left clear, not prime
  }
  far_buffers far_;
  // The odd primes in (31, MAX_SEGMENT_BYTES]: a fixed table, for the numbers of sieving primes
  // below a segment's length (the warps' and the segment's), wherever the primes were found.
  std::vector<std::uint32_t> segment_table_;
};
//! [launch]

}  // namespace sieve_buckets
