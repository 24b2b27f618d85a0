// sieve_cpu: the Sieve of Eratosthenes on one host core (the baseline the slides' Python stands
// for). The one idea: for every i up to sqrt(n) that is still unstruck (a prime), strike its
// multiples
//   from i * i; whatever stays unstruck in [2, n] is prime.
// Changes from the previous step: the first step of Part IV.
// What limits it: one core, one byte per number, and for every prime a pass over the whole array
//   with stride p: past the caches each strike is a memory access of its own.
// Run: build/bin/sieve_cpu [--n 10^8] [--variant simple|primesieve_1_thread]
// Source: "Optimizing CUDA code" slides, Exercise 2 (source 001), the Python eratosthenes_sieve.
#pragma once

#include <cstdint>
#include <vector>

#include "common/sieve/peer_primesieve.hpp"

namespace sieve_cpu {

// One byte per number, so that host memory bounds n: 2^34 numbers take 16 GiB.
constexpr std::int64_t MAX_N = std::int64_t(1) << 34;

//! [sieve]
// pi(n); with flags, also the sieve itself: flags[i] = 1 for every composite i in [0, n].
inline std::uint64_t sieve(std::int64_t n, std::vector<std::uint8_t>* flags) {
  std::vector<std::uint8_t> struck(std::size_t(n + 1), 0);
  for (std::int64_t i = 2; i * i <= n; ++i) {
    if (struck[i]) continue;  // a composite: its multiples are multiples of a smaller prime
    for (std::int64_t j = i * i; j <= n; j += i) struck[j] = 1;  // smaller multiples are done
  }
  std::uint64_t primes = 0;
  for (std::int64_t i = 2; i <= n; ++i) primes += !struck[i];
  if (flags) *flags = std::move(struck);
  return primes;
}
//! [sieve]

// The fastest one-core sieve there is, for comparison: primesieve on one thread.
inline std::uint64_t primesieve_one_thread(std::int64_t n, std::vector<std::uint8_t>*) {
  return common::sieve::primesieve_count(0, std::uint64_t(n), 1);
}

}  // namespace sieve_cpu
