// doctest helpers of Part IV: an array step's launch against the CPU reference at the test sizes.
#pragma once

#include <algorithm>
#include <cstdint>
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

}  // namespace common::testing
