// Host tests of Part IV's references: the odd-bit reference and the fixed pi(n) values against
// primesieve, the output checks (they must catch one wrong flag or bit), and 1e9-style sizes.
#include <cstdint>
#include <string>
#include <vector>

#include "common/random.hpp"
#include "common/sieve/peer_primesieve.hpp"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"
#include "common/testing.hpp"

namespace cs = common::sieve;

namespace {

// The odd-bit layout built from primesieve's own list of primes.
std::vector<std::uint32_t> bits_from_primesieve(std::uint64_t n) {
  std::vector<std::uint32_t> bits(cs::odd_bit_words(n), ~0u);
  for (const std::uint64_t p : cs::primesieve_primes(3, n)) bits[p / 64] &= ~(1u << ((p / 2) % 32));
  return bits;
}

}  // namespace

HOST_TEST_CASE("isqrt is exact around squares and at the top of the 64-bit range") {
  for (std::uint64_t r : {0ull, 1ull, 2ull, 3ull, 1023ull, 1024ull, 46340ull, 46341ull, 65535ull,
                          1000000ull, 4294967295ull}) {
    CAPTURE(r);
    CHECK(cs::isqrt(r * r) == r);
    if (r > 0) CHECK(cs::isqrt(r * r - 1) == r - 1);
    CHECK(cs::isqrt(r * r + 2 * r) == r);  // (r + 1)^2 - 1
  }
  CHECK(cs::isqrt(~0ull) == 4294967295ull);
}

HOST_TEST_CASE("primes_up_to lists the primes and agrees with primesieve") {
  CHECK(cs::primes_up_to(1).empty());
  CHECK(cs::primes_up_to(2) == std::vector<std::uint32_t>{2});
  CHECK(cs::primes_up_to(30) == std::vector<std::uint32_t>{2, 3, 5, 7, 11, 13, 17, 19, 23, 29});
  for (std::uint64_t limit : {31ull, 1000ull, 65536ull, 1000003ull}) {
    const std::vector<std::uint64_t> want = cs::primesieve_primes(0, limit);
    CAPTURE(limit);
    const std::vector<std::uint32_t> got = cs::primes_up_to(limit);
    CHECK(std::vector<std::uint64_t>(got.begin(), got.end()) == want);
  }
}

HOST_TEST_CASE("odd_composite_bits matches primesieve bit for bit at small and edge sizes") {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t n = 0; n <= 300; ++n) sizes.push_back(n);
  for (std::uint64_t n : {961ull, 1023ull, 1024ull, 1025ull, 65535ull, 65536ull, 65537ull,
                          994009ull, 1048575ull, 1048576ull, (1ull << 22) + 1})
    sizes.push_back(n);
  for (std::uint64_t s = 0; s < 8; ++s) sizes.push_back(common::mix64(7, s) % 3000000);
  for (const std::uint64_t n : sizes) {
    CAPTURE(n);
    CHECK(cs::odd_composite_bits(n) == bits_from_primesieve(n));
  }
}

HOST_TEST_CASE("odd_composite_bits counts like primesieve at larger sizes") {
  for (std::uint64_t n : {100000000ull, 123456789ull, (1ull << 28) + 3}) {
    CAPTURE(n);
    CHECK(cs::count_primes_in_bits(cs::odd_composite_bits(n), n) == cs::primesieve_count(0, n));
  }
}

HOST_TEST_CASE("the known values of pi(n) are primesieve's up to 10^10") {
  for (const cs::known_pi& k : cs::known_pi_values()) {
    if (k.n > 10000000000ull) continue;  // 10^12 takes minutes on a small host: checked on the GPU
    CAPTURE(k.n);
    CHECK(cs::primesieve_count(0, k.n) == k.pi);
  }
}

HOST_TEST_CASE("the output checks catch one wrong flag or bit in every layout") {
  const std::int64_t n = 1000;
  const std::vector<std::uint32_t> bits = cs::odd_composite_bits(n);
  std::vector<std::int32_t> ints(n + 1);
  std::vector<std::uint8_t> bytes(n + 1);
  for (std::int64_t i = 0; i <= n; ++i) ints[i] = bytes[i] = cs::is_struck(bits, i);
  CHECK(cs::check_output(cs::layout::int32_per_number, ints.data(), n, bits).ok());
  CHECK(cs::check_output(cs::layout::byte_per_number, bytes.data(), n, bits).ok());
  CHECK(cs::check_output(cs::layout::bit_per_odd, bits.data(), n, bits).ok());
  CHECK(cs::count_primes_in_output(cs::layout::int32_per_number, ints.data(), n) == 168);
  CHECK(cs::count_primes_in_output(cs::layout::byte_per_number, bytes.data(), n) == 168);
  CHECK(cs::count_primes_in_output(cs::layout::bit_per_odd, bits.data(), n) == 168);
  // 0 and 1 are not struck (no factor >= 2 divides them) and 2 is prime
  CHECK(ints[0] == 0);
  CHECK(ints[1] == 0);
  CHECK(ints[2] == 0);
  CHECK(ints[4] == 1);
  ints[997] = 1;    // a prime struck
  bytes[1000] = 0;  // a composite missed at the last number
  std::vector<std::uint32_t> wrong = bits;
  wrong[0] &= ~1u;  // 1 taken for a prime
  CHECK(cs::check_output(cs::layout::int32_per_number, ints.data(), n, bits).mismatches == 1);
  CHECK(cs::check_output(cs::layout::byte_per_number, bytes.data(), n, bits).mismatches == 1);
  CHECK(cs::check_output(cs::layout::bit_per_odd, wrong.data(), n, bits).mismatches == 1);
}

HOST_TEST_CASE("bits past n are set so that no number above n counts") {
  const std::vector<std::uint32_t> bits = cs::odd_composite_bits(100);  // 50 odd numbers: 2 words
  REQUIRE(bits.size() == 2);
  CHECK((bits[1] >> 18) == (~0u >> 18));  // odd numbers 101, 103, ... are past n
  CHECK(cs::count_primes_in_bits(bits, 100) == 25);
}

HOST_TEST_CASE("the sieving primes fit the capacity computed for them") {
  for (std::int64_t n :
       {0ll, 1ll, 4ll, 9ll, 1000ll, 1048575ll, 2147483647ll, 10000000000ll, 1000000000000ll}) {
    CAPTURE(n);
    CHECK(cs::primes_up_to(cs::isqrt(std::uint64_t(n))).size() <= cs::sieving_primes_capacity(n));
  }
}
