#include "common/sieve/peer_primesieve.hpp"

#include <primesieve.hpp>

#include <algorithm>
#include <thread>

namespace common::sieve {

std::uint64_t primesieve_count(std::uint64_t lo, std::uint64_t hi, int threads) {
  if (lo > hi) return 0;
  primesieve::set_num_threads(threads > 0 ? threads : primesieve_all_threads());
  return primesieve::count_primes(lo, hi);
}

std::vector<std::uint64_t> primesieve_primes(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> primes;
  if (lo <= hi) primesieve::generate_primes(lo, hi, &primes);
  return primes;
}

int primesieve_all_threads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

std::string primesieve_name() {
  return std::string("primesieve ") + primesieve::primesieve_version();
}

}  // namespace common::sieve
