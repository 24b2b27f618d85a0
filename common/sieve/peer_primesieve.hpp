// Part IV's peer and large-N reference: primesieve (Kim Walisch), the fastest CPU sieve, linked
// statically (this is its one translation unit), so the programs run as built on the GPU machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace common::sieve {

// The primes in [lo, hi] counted by primesieve on `threads` host threads (0: all of them).
std::uint64_t primesieve_count(std::uint64_t lo, std::uint64_t hi, int threads = 0);
// The primes in [lo, hi], ascending, from primesieve (the tests' list of primes).
std::vector<std::uint64_t> primesieve_primes(std::uint64_t lo, std::uint64_t hi);
// The host threads primesieve uses when told to use all of them.
int primesieve_all_threads();
// "primesieve 11.0".
std::string primesieve_name();

}  // namespace common::sieve
