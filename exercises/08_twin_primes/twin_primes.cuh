// Exercise 08, twin_primes: count the twin prime pairs (p, p + 2) with p + 2 <= n, for 64-bit n,
// with a segmented sieve of the odd numbers on the GPU.
// Practises Part IV: segments sieved in shared memory, and what a segment must know of its
// neighbour (a pair whose p is a segment's last odd number ends in the next segment).
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace twin_primes {

// >>> YOUR CODE: kernels
// TODO: the kernels (and any constants and device functions they need). One way: each block
//       sieves segments of odd numbers in shared memory, one bit per odd number, striking the
//       multiples of the sieving primes, then counts the pairs of neighbouring clear bits
//       (including the pair that crosses into the next segment) and adds them to the total.
// <<< YOUR CODE

// d_primes holds the prime_count odd primes p with p * p <= n, ascending (3, 5, 7, ...; none for
// n < 9). Writes the number of twin prime pairs (p, p + 2) with p + 2 <= n to *d_count, which
// holds garbage on entry. n is in [0, 2^40].
inline void launch(std::uint64_t n, const std::uint32_t* d_primes, std::int64_t prime_count,
                   unsigned long long* d_count) {
  // >>> YOUR CODE: launch
  // TODO: set *d_count, launch your kernels with CUDA_CHECK_LAUNCH() after each. What must
  //       happen for n < 5, where there is no pair at all?
  common::todo("twin_primes::launch");
  // <<< YOUR CODE
}

}  // namespace twin_primes
