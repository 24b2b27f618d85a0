// sieve_segments: tests. Host: the edge masks and the launch's segments against brute force. GPU:
// the known values of pi(n) up to 10^10, the part's test ranges (segment edges +- 1, primes and
// squares of primes at the ends, random ranges far from 0) and --list against primesieve.
#include "common/sieve/testing.cuh"
#include "sieve_segments.cuh"

using namespace sieve_segments;

HOST_TEST_CASE("outside_bits keeps exactly the numbers from k_lo to k_hi") {
  for (std::uint64_t word_k : {0ull, 32ull, 64ull}) {
    for (std::uint64_t k_lo : {0ull, 1ull, 3ull, 31ull, 32ull, 33ull, 63ull, 64ull, 100ull}) {
      for (std::uint64_t k_hi : {k_lo, k_lo + 1, k_lo + 31, k_lo + 32, k_lo + 64}) {
        std::uint32_t want = 0;
        for (int b = 0; b < 32; ++b)
          if (word_k + b < k_lo || word_k + b > k_hi) want |= 1u << b;
        CAPTURE(word_k);
        CAPTURE(k_lo);
        CAPTURE(k_hi);
        CHECK(outside_bits(word_k, k_lo, k_hi) == want);
      }
    }
  }
}

HOST_TEST_CASE("range_params' segments cover the range's odd numbers and no segment more") {
  for (std::uint64_t lo : {0ull, 1ull, 2ull, 63ull, 64ull, 1000000007ull})
    for (std::uint64_t width : {0ull, 1ull, 2ull * SEGMENT_NUMBERS - 1, 2ull * SEGMENT_NUMBERS,
                                2ull * SEGMENT_NUMBERS + 1, 14ull * SEGMENT_NUMBERS + 3}) {
      const std::uint64_t hi = lo + width;
      if (no_odd_number_in(lo, hi)) continue;
      const segment_params s = range_params(lo, hi, SEGMENT_NUMBERS);
      CAPTURE(lo);
      CAPTURE(hi);
      CHECK(2 * s.k_lo + 1 >= lo);
      CHECK(2 * s.k_hi + 1 <= hi);
      CHECK(2 * s.k_lo + 1 <= lo + 1);  // the first odd number of the range
      CHECK(2 * s.k_hi + 1 >= hi - 1);  // and its last
      CHECK(s.first_k % 32 == 0);
      CHECK(s.first_k <= s.k_lo);
      CHECK(s.first_k + s.segment_end * SEGMENT_NUMBERS > s.k_hi);         // the last number is in
      CHECK(s.first_k + (s.segment_end - 1) * SEGMENT_NUMBERS <= s.k_hi);  // no empty segment
    }
  CHECK(no_odd_number_in(0, 0));
  CHECK(no_odd_number_in(2, 2));
  CHECK_FALSE(no_odd_number_in(0, 1));
  CHECK_FALSE(no_odd_number_in(3, 3));
}

GPU_TEST_CASE(
    "sieve_segments counts like primesieve: known pi(n) and the part's test ranges and --list") {
  counter c(MAX_HI);
  common::testing::check_count_step(c, SEGMENT_NUMBERS);
}
