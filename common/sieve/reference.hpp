// Part IV (sieve): the CPU references. Two layouts of a sieve's output:
//   one flag per number: flags[i] for i in [0, n], 1 = struck (a composite), 0 = not struck
//     (0, 1 and the primes); the layout of sieve_naive, sieve_grid and sieve_shared;
//   one bit per odd number: bit k of word k / 32 stands for 2k + 1; set = not a prime (1, the odd
//     composites, and every bit past n); the layout of sieve_bits and, inside shared memory, of
//     sieve_segmented.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace common::sieve {

// floor(sqrt(n)), exact for every 64-bit n.
std::uint64_t isqrt(std::uint64_t n);

// Every prime p <= limit, ascending (a simple sieve; limit up to 2^32).
std::vector<std::uint32_t> primes_up_to(std::uint64_t limit);

// The odd-bit layout of [0, n]: ceil(odd numbers / 32) words, computed on all host cores by
// segments of odd numbers. Bit k is set when 2k + 1 is 1, composite, or above n.
std::vector<std::uint32_t> odd_composite_bits(std::uint64_t n);
// Words of the odd-bit layout of [0, n]: (n + 1) / 2 odd numbers, 32 per word.
constexpr std::uint64_t odd_bit_words(std::uint64_t n) { return ((n + 1) / 2 + 31) / 32; }

// pi(n) from the odd-bit layout of [0, n] (the clear bits, plus 2 when n >= 2).
std::uint64_t count_primes_in_bits(const std::vector<std::uint32_t>& bits, std::uint64_t n);

// The flag the one-flag-per-number layout must hold for i, given the odd-bit layout.
inline bool is_struck(const std::vector<std::uint32_t>& bits, std::uint64_t i) {
  if (i % 2 == 0) return i > 2;  // 0 and 2 are not struck, every other even number is
  if (i == 1) return false;      // 1 is not a multiple of any factor >= 2
  const std::uint64_t k = i / 2;
  return (bits[k / 32] >> (k % 32)) & 1u;
}

// Known values of pi(n) (OEIS A000720 and A006880): the tests' fixed points.
struct known_pi {
  std::uint64_t n;
  std::uint64_t pi;
};
const std::vector<known_pi>& known_pi_values();

}  // namespace common::sieve
