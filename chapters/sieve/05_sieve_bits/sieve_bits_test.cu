// sieve_bits: tests. Host: the first-multiple and edge-mask arithmetic against brute force. GPU:
// every test size up to 2^32 and 10^9, bit-exact against the reference, poisoned output.
#include <algorithm>

#include "common/sieve/testing.cuh"
#include "sieve_bits.cuh"

HOST_TEST_CASE("first_offset finds the first odd multiple at or past p^2 and the tile's start") {
  for (std::uint32_t p : {3u, 5u, 7u, 31u, 37u, 65521u}) {
    for (std::uint64_t tile_k :
         {0ull, 1ull, 4ull, 1000ull, 262144ull, 123456789ull, (1ull << 35) + 3}) {
      CAPTURE(p);
      CAPTURE(tile_k);
      // brute force: the first odd number >= both p^2 and the tile's first number, stepped by 2
      // to a multiple of p
      std::uint64_t number = std::max(2 * tile_k + 1, std::uint64_t(p) * p);
      while (number % p != 0) number += 2;
      CHECK(sieve_bits::first_offset(p, tile_k) == (number - 1) / 2 - tile_k);
    }
  }
}

HOST_TEST_CASE("outside_bits marks 1 and the odd numbers past n") {
  CHECK(sieve_bits::outside_bits(0, 0) == ~0u);
  CHECK(sieve_bits::outside_bits(0, 1) == ~0u);              // only 1, which is marked
  CHECK(sieve_bits::outside_bits(0, 3) == (~0u << 2 | 1u));  // 1 marked, 3 kept
  CHECK(sieve_bits::outside_bits(0, 63) == 1u);              // the word ends at 63
  CHECK(sieve_bits::outside_bits(1, 63) == ~0u);
  CHECK(sieve_bits::outside_bits(1, 64) == ~0u);
  CHECK(sieve_bits::outside_bits(1, 65) == ~0u << 1);  // 65 kept
}

GPU_TEST_CASE("sieve_bits matches the reference bit for bit at every test size") {
  for (const auto& v : sieve_bits::variants())
    common::testing::check_sieve_sizes(
        v, common::testing::sieve_test_sizes(sieve_bits::MAX_N, 2 * sieve_bits::TILE_BITS));
}
