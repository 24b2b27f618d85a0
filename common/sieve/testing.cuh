// doctest helpers of Part IV: an array step's launch against the CPU reference at the test sizes,
// and a count step's counts and lists against primesieve on the part's test ranges.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/sieve/peer_primesieve.hpp"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"
#include "common/testing.hpp"

namespace common::testing {

// The issue's sizes up to max_n: 0..4, 10, 100, 1000, 2^16, squares of primes and their
// neighbours, the step's tile edges (tile_numbers: the numbers one block sieves; 0 if none),
// random sizes, 10^6, 2^20 - 1, 2^31 - 1, 2^32, 10^9.
inline std::vector<std::int64_t> sieve_test_sizes(std::int64_t max_n, std::int64_t tile_numbers) {
  std::vector<std::int64_t> sizes = {0,     1,      2,      3,      4,       5,      8,
                                     9,     10,     100,    120,    121,     122,    1000,
                                     65536, 994008, 994009, 994010, 1000000, 1048575};
  if (tile_numbers > 0)
    for (std::int64_t t : {tile_numbers, 2 * tile_numbers, 7 * tile_numbers})
      for (std::int64_t d : {-1, 0, 1}) sizes.push_back(t + d);
  for (std::uint64_t s = 0; s < 3; ++s)
    sizes.push_back(
        std::int64_t(mix64(31, s) % std::uint64_t(std::min<std::int64_t>(max_n, 1 << 26))));
  for (std::int64_t big : {std::int64_t(1) << 24, std::int64_t(2147483647), std::int64_t(1) << 32,
                           std::int64_t(1000000000)})
    sizes.push_back(big);
  std::vector<std::int64_t> kept;
  for (const std::int64_t n : sizes)
    if (n >= 0 && n <= max_n) kept.push_back(n);
  return kept;
}

// One launch at n: poisoned output, every flag or bit against the reference, pi(n) against
// primesieve. Returns whether it matched.
inline bool check_sieve_launch(const sieve::array_variant& v, std::int64_t n) {
  const std::vector<std::uint32_t> reference = sieve::odd_composite_bits(std::uint64_t(n));
  device_buffer<unsigned char> d_out(sieve::output_bytes(v.out, n));
  device_buffer<std::uint32_t> d_primes(sieve::sieving_primes_capacity(n));
  d_out.poison();
  v.launch(n, {d_out.data(), d_primes.data(), d_primes.size()});
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned char> got = d_out.download();
  const check_result r = sieve::check_output(v.out, got.data(), n, reference);
  const std::uint64_t pi = sieve::count_primes_in_output(v.out, got.data(), n);
  const std::uint64_t want = sieve::primesieve_count(0, std::uint64_t(n));
  INFO(v.name, " n=", n, " ", describe(r), " pi=", pi, " want ", want);
  CHECK(r.ok());
  CHECK(pi == want);
  return r.ok() && pi == want;
}

inline void check_sieve_sizes(const sieve::array_variant& v,
                              const std::vector<std::int64_t>& sizes) {
  for (const std::int64_t n : sizes) check_sieve_launch(v, n);
}

// 16 numbers a byte each, as four words: byte b % 4 of word b / 4 is 1 where struck(b), b < 16.
template <class Struck>
std::array<std::uint32_t, 4> bytes16_where(Struck struck) {
  std::array<std::uint32_t, 4> words = {0, 0, 0, 0};
  for (int b = 0; b < 16; ++b)
    if (struck(b)) words[b / 4] |= 1u << (8 * (b % 4));
  return words;
}
inline std::array<std::uint32_t, 4> words_of(uint4 v) { return {v.x, v.y, v.z, v.w}; }

// check(most, blocks, numbers) for the shapes that segment lengths are tested at: the longest
// segment `longest` (the H100's and the H200's) and shorter ones of GPUs with less shared memory;
// resident blocks; range lengths in odd numbers, whole waves of segments among them.
template <class Check>
void for_segment_shapes(std::uint64_t longest, Check check) {
  for (const std::uint64_t most : {longest, std::uint64_t(72 * 1024), std::uint64_t(39 * 1024)})
    for (std::uint64_t blocks : {1ull, 132ull, 114ull})
      for (std::uint64_t numbers : std::vector<std::uint64_t>{
               1, 31, 32, 50002, 5000000000, 500000000000, blocks * most, blocks * most + 1}) {
        CAPTURE(most);
        CAPTURE(blocks);
        CAPTURE(numbers);
        check(most, blocks, numbers);
      }
}

// A count step's test ranges: [lo, hi] pairs.
using ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// Ranges around x: from x - 1, x and x + 1, `width` numbers long, and the `width` numbers up to x.
inline ranges ranges_near(std::uint64_t x, std::uint64_t width) {
  ranges r;
  for (std::int64_t d : {-1, 0, 1}) r.push_back({x + d, x + d + width});
  r.push_back({x > width ? x - width : 0, x});
  return r;
}

// The part's test ranges for a count step whose segments hold segment_numbers odd numbers, with hi
// up to `top` (a step that is slow far out is tested nearer 0): [0, n] at the test sizes (segment
// edges +- 1 among them, and ranges many times the L2), ranges whose ends are primes or squares of
// primes, ranges at segment edges +- 1 away from 0, and random ranges far from 0.
inline ranges count_test_ranges(std::uint64_t segment_numbers, std::uint64_t top) {
  ranges r;
  for (const std::int64_t n :
       sieve_test_sizes(std::int64_t(std::min<std::uint64_t>(top, 1ull << 40)),
                        std::int64_t(2 * segment_numbers)))
    r.push_back({0, std::uint64_t(n)});
  for (std::uint64_t x : std::vector<std::uint64_t>{
           1000000007, 1018081 /* 1009^2 */, 999966000289 /* 999983^2 */, 14 * segment_numbers,
           18 * segment_numbers, 6000 * segment_numbers, 1000000000000, (1ull << 40) + 12345})
    for (const auto& near : ranges_near(x, 3000000))
      if (near.second <= top) r.push_back(near);
  for (std::uint64_t s = 0; s < 6; ++s) {
    const std::uint64_t lo = mix64(41, s) % std::min<std::uint64_t>(top - 1000000, 1ull << 40);
    r.push_back({lo, lo + mix64(42, s) % 1000000});
  }
  return r;
}

// Ranges whose sqrt(hi) lies either side of `root` (where a step moves the finding of its sieving
// primes from the host to the GPU): from 0, a thousand numbers wide, and a single number.
inline ranges ranges_around_root(std::uint64_t root) {
  ranges r;
  const std::uint64_t edge = root * root, next = (root + 1) * (root + 1);
  for (const std::uint64_t hi : {edge - 1, edge, edge + 1, next - 1, next, next + 1})
    for (const std::uint64_t lo : {std::uint64_t(0), hi - 1000, hi}) r.push_back({lo, hi});
  return r;
}

// Each range counted by `counter` against primesieve.
inline void check_counts(sieve::range_counter& counter, const ranges& to_count) {
  for (const auto& range : to_count) {
    const std::uint64_t lo = range.first, hi = range.second;
    CAPTURE(lo);
    CAPTURE(hi);
    CHECK(counter.count(lo, hi) == sieve::primesieve_count(lo, hi));
  }
}

// The known values of pi(n) up to `top`.
inline void check_known_pi(sieve::range_counter& counter, std::uint64_t top) {
  for (const sieve::known_pi& k : sieve::known_pi_values()) {
    if (k.n > top) continue;
    CAPTURE(k.n);
    CHECK(counter.count(0, k.n) == k.pi);
  }
}

// --list: the primes of short ranges (near 0, around the wheel's primes, far out) as primesieve's.
inline void check_lists(sieve::range_counter& counter) {
  for (const auto& range : ranges{{0, 0},
                                  {0, 100},
                                  {2, 2},
                                  {3, 31},
                                  {30, 40},
                                  {1000000000000ull, 1000000001000ull},
                                  {(1ull << 40) - 1000000, 1ull << 40}}) {
    const std::uint64_t lo = range.first, hi = range.second;
    CAPTURE(lo);
    CAPTURE(hi);
    CHECK(counter.primes(lo, hi) == sieve::primesieve_primes(lo, hi));
  }
}

// A count step of one variant, whose segments hold segment_numbers odd numbers (the longest, where
// they vary): the known values of pi(n) up to 10^10, the part's test ranges up to 2^41 and [0, n]
// at the step's own edges `more_n`, and --list.
inline void check_count_step(sieve::range_counter& counter, std::uint64_t segment_numbers,
                             const std::vector<std::uint64_t>& more_n = {}) {
  check_known_pi(counter, 10000000000ull);
  ranges to_count = count_test_ranges(segment_numbers, 1ull << 41);
  for (const std::uint64_t n : more_n) to_count.push_back({0, n});
  check_counts(counter, to_count);
  check_lists(counter);
}

}  // namespace common::testing
