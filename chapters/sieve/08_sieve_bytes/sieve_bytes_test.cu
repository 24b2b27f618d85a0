// sieve_bytes: tests. Host: the wheel's byte patterns, the byte masks and the segment lengths
// against brute force. GPU: the known values of pi(n) up to 10^10, the part's test ranges (at
// full-length segments and at whole waves of them +- 1) and --list against primesieve.
#include "common/sieve/testing.cuh"
#include "sieve_bytes.cuh"

using namespace sieve_bytes;

HOST_TEST_CASE("the wheel's byte patterns mark exactly the odd multiples of 3 .. 31") {
  const std::vector<std::uint32_t> wheel = sieve_wheel::wheel_patterns(4, byte_wheel_words);
  REQUIRE(wheel.size() == BYTE_WHEEL_WORDS);
  auto struck_by_wheel = [](std::uint64_t k) {
    for (const std::uint32_t q : sieve_wheel::WHEEL_PRIMES)
      if ((2 * k + 1) % q == 0) return true;
    return false;
  };
  for (std::uint64_t k : {0ull, 32ull, 15008ull, 15040ull, 1234567872ull, (1ull << 46) + 64}) {
    const wheel_residues residues = sieve_wheel::residues_of(k);
    for (std::uint32_t d : {0u, 16u, 32u, 8192u * 32 - 32, MAX_SEGMENT_BYTES - 16}) {
      CAPTURE(k);
      CAPTURE(d);
      CHECK(common::testing::words_of(wheel_bytes16(wheel.data(), residues, d)) ==
            common::testing::bytes16_where([&](int b) { return struck_by_wheel(k + d + b); }));
    }
  }
}

HOST_TEST_CASE("outside_bytes keeps exactly the numbers from k_lo to k_hi") {
  for (std::uint64_t word_k : {0ull, 4ull, 32ull, 64ull}) {
    for (std::uint64_t k_lo : {0ull, 1ull, 3ull, 4ull, 31ull, 32ull, 33ull, 63ull, 64ull, 100ull}) {
      for (std::uint64_t k_hi : {k_lo, k_lo + 1, k_lo + 3, k_lo + 31, k_lo + 32, k_lo + 64}) {
        std::uint32_t want = 0;
        for (int b = 0; b < 4; ++b)
          if (word_k + b < k_lo || word_k + b > k_hi) want |= 1u << (8 * b);
        CAPTURE(word_k);
        CAPTURE(k_lo);
        CAPTURE(k_hi);
        CHECK(outside_bytes(word_k, k_lo, k_hi) == want);
      }
    }
  }
}

HOST_TEST_CASE("the warps' primes fit MAX_WARP_PRIMES") {
  CHECK(sieve_wheel::primes_past_the_wheel(MAX_SEGMENT_BYTES / 64 - 1).size() <= MAX_WARP_PRIMES);
}

HOST_TEST_CASE("segments are multiples of 32 that fit and even out the waves") {
  common::testing::for_segment_shapes(
      MAX_SEGMENT_BYTES, [](std::uint64_t most, std::uint64_t blocks, std::uint64_t numbers) {
        const std::uint32_t length = segment_numbers_for(numbers, blocks, std::uint32_t(most));
        const std::uint64_t segments = (numbers + length - 1) / length;
        const std::uint64_t waves = (numbers + blocks * most - 1) / (blocks * most);
        CHECK(length % 32 == 0);
        CHECK(length >= 32);
        CHECK(length <= most);
        CHECK(segments <= blocks * waves);  // no block sieves more segments than the fewest waves
      });
}

GPU_TEST_CASE(
    "sieve_bytes counts like primesieve: known pi(n) and the part's test ranges and --list") {
  // Its segments are as long as fit, up to MAX_SEGMENT_BYTES numbers: at whole waves of full
  // segments, and one number more or less, too.
  counter c(MAX_HI);
  const std::uint64_t wave = 2ull * MAX_SEGMENT_BYTES * std::uint64_t(common::sieve::sm_count());
  common::testing::check_count_step(c, MAX_SEGMENT_BYTES, {wave - 2, wave - 1, wave, wave + 1});
}
