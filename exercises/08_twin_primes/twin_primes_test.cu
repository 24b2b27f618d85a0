// Exercise 08, twin_primes: tests (shared by the skeleton and the solution). Host: the sieving
// primes and the reference against known counts. GPU: every n up to 2000, the known counts up to
// 10^10, n on both sides of twin pairs whose smaller member is the last odd number before a power
// of two (the end of a segment of any power-of-two size), random n, and repeated launches.
#include <twin_primes.cuh>

#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "twin_primes_problem.hpp"

namespace {

unsigned long long run_gpu(std::uint64_t n, int launches = 1) {
  const std::vector<std::uint32_t> primes = twin_primes_problem::sieving_primes(n);
  common::device_buffer<std::uint32_t> d_primes(primes.size());
  common::device_buffer<unsigned long long> d_count(1);
  d_primes.upload(primes);
  d_count.poison();
  for (int l = 0; l < launches; ++l)
    twin_primes::launch(n, d_primes.data(), std::int64_t(primes.size()), d_count.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_count.download()[0];
}

bool is_prime(std::uint64_t x) {
  if (x < 2) return false;
  for (std::uint64_t d = 2; d * d <= x; ++d)
    if (x % d == 0) return false;
  return true;
}

// Twin pairs (p, p + 2) with p just below 2^k (p = 2^k - 1 - 2j for a few j): a segment of
// 2^s numbers (or 2^(s-1) odd numbers) ends right after p for every s <= k with few exceptions.
std::vector<std::uint64_t> pairs_near_powers_of_two() {
  std::vector<std::uint64_t> smaller;
  for (int k = 8; k <= 33; ++k) {
    int found = 0;
    for (std::uint64_t p = (std::uint64_t(1) << k) - 1; found < 2 && p > 5; p -= 2) {
      if (is_prime(p) && is_prime(p + 2)) {
        smaller.push_back(p);
        ++found;
      }
    }
  }
  return smaller;
}

}  // namespace

HOST_TEST_CASE("sieving_primes lists the odd primes up to sqrt(n)") {
  CHECK(twin_primes_problem::sieving_primes(8).empty());
  CHECK(twin_primes_problem::sieving_primes(9) == std::vector<std::uint32_t>{3});
  CHECK(twin_primes_problem::sieving_primes(120) == std::vector<std::uint32_t>{3, 5, 7});
  CHECK(twin_primes_problem::sieving_primes(121) == std::vector<std::uint32_t>{3, 5, 7, 11});
  CHECK(twin_primes_problem::sieving_primes(std::uint64_t(1) << 40).size() == 82024);
  CHECK(twin_primes_problem::isqrt((std::uint64_t(1) << 62) - 1) == (std::uint64_t(1) << 31) - 1);
}

HOST_TEST_CASE("count_twins_cpu matches the known counts and a brute force count") {
  for (const auto& known : twin_primes_problem::known_counts()) {
    if (known.n > 100000000) continue;  // 10^9 and up: seconds on a few cores
    CAPTURE(known.n);
    CHECK(twin_primes_problem::count_twins_cpu(known.n) == known.pairs);
  }
  std::uint64_t brute = 0;
  for (std::uint64_t n = 0; n <= 3000; ++n) {
    if (n >= 5 && is_prime(n) && is_prime(n - 2)) ++brute;
    CAPTURE(n);
    REQUIRE(twin_primes_problem::count_twins_cpu(n) == brute);
  }
}

GPU_TEST_CASE("twin_primes counts every n up to 2000 exactly") {
  for (std::uint64_t n = 0; n <= 2000; ++n) {
    CAPTURE(n);
    REQUIRE(run_gpu(n) == twin_primes_problem::count_twins_cpu(n));
  }
}

GPU_TEST_CASE("twin_primes matches the known counts up to 10^10") {
  for (const auto& known : twin_primes_problem::known_counts()) {
    if (known.n > 10000000000ull) continue;
    CAPTURE(known.n);
    CHECK(run_gpu(known.n) == known.pairs);
  }
}

GPU_TEST_CASE("twin_primes counts pairs that straddle power-of-two boundaries") {
  for (const std::uint64_t p : pairs_near_powers_of_two()) {
    CAPTURE(p);
    const std::uint64_t with_pair = twin_primes_problem::count_twins_cpu(p + 2);
    std::uint64_t pairs_after = 0;  // pairs (q, q + 2) with p + 2 < q + 2 <= p + 1000
    for (std::uint64_t q = p + 2; q + 2 <= p + 1000; q += 2)
      pairs_after += is_prime(q) && is_prime(q + 2);
    CHECK(run_gpu(p + 2) == with_pair);      // the pair's larger member is n itself
    CHECK(run_gpu(p + 1) == with_pair - 1);  // one short of it
    CHECK(run_gpu(p + 1000) == with_pair + pairs_after);
  }
}

GPU_TEST_CASE("twin_primes matches the CPU at random n and when launched again") {
  for (std::uint64_t i = 0; i < 12; ++i) {
    const std::uint64_t n = common::mix64(7, i) % 300000000;
    CAPTURE(n);
    CHECK(run_gpu(n, 1 + int(i % 3)) == twin_primes_problem::count_twins_cpu(n));
  }
}
