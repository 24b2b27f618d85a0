// sieve_wheel: tests. Host: the wheel's bit patterns against brute force. GPU: the known values of
// pi(n) up to 10^10, the part's test ranges and --list against primesieve.
#include "common/sieve/testing.cuh"
#include "sieve_wheel.cuh"

using namespace sieve_wheel;

// Whether the wheel strikes 2k + 1: it has a prime factor from 3 to 31.
bool struck_by_wheel(std::uint64_t k) {
  for (const std::uint32_t q : WHEEL_PRIMES)
    if ((2 * k + 1) % q == 0) return true;
  return false;
}

HOST_TEST_CASE("the wheel's bit patterns mark exactly the odd multiples of 3 .. 31") {
  const std::vector<std::uint32_t> wheel = wheel_patterns(32, bit_wheel_words);
  REQUIRE(wheel.size() == BIT_WHEEL_WORDS);
  for (std::uint64_t k : {0ull, 32ull, 15008ull, 15040ull, 1234567872ull, (1ull << 46) + 64}) {
    const wheel_residues residues = residues_of(k);
    for (std::uint32_t d : {0u, 32u, SEGMENT_NUMBERS - 32, 196608u - 32}) {
      std::uint32_t want = 0;
      for (int b = 0; b < 32; ++b)
        if (struck_by_wheel(k + d + b)) want |= 1u << b;
      CAPTURE(k);
      CAPTURE(d);
      CHECK(wheel_word(wheel.data(), residues, d) == want);
    }
  }
}

HOST_TEST_CASE("wheel_primes_in counts 2 and the wheel's primes in the range") {
  CHECK(wheel_primes_in(0, 1) == 0);
  CHECK(wheel_primes_in(0, 2) == 1);
  CHECK(wheel_primes_in(0, 31) == 11);
  CHECK(wheel_primes_in(3, 3) == 1);
  CHECK(wheel_primes_in(4, 4) == 0);
  CHECK(wheel_primes_in(14, 30) == 4);  // 17, 19, 23, 29
  CHECK(wheel_primes_in(32, 1000) == 0);
  CHECK(wheel_primes_in(0, 1000, 5) == 6);  // 2 and 3 .. 13
}

HOST_TEST_CASE("the warps' primes lie below a segment's length / 64") {
  const std::vector<std::uint32_t> primes = primes_past_the_wheel(SEGMENT_NUMBERS);
  REQUIRE(!primes.empty());
  CHECK(primes.front() == 37);
  const std::uint32_t warp = primes_below(primes, SEGMENT_NUMBERS / 64);
  CHECK(primes[warp - 1] < SEGMENT_NUMBERS / 64);
  CHECK(primes[warp] >= SEGMENT_NUMBERS / 64);
}

GPU_TEST_CASE("sieve_wheel counts like primesieve: known pi(n) and the part's test ranges and --list") {
  counter c(MAX_HI);
  common::testing::check_count_step(c, SEGMENT_NUMBERS);
}
