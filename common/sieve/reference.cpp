#include "common/sieve/reference.hpp"

#include <algorithm>
#include <cmath>

#include "common/parallel.hpp"

namespace common::sieve {

std::uint64_t isqrt(std::uint64_t n) {
  // The double's root may land one off either way; the corrections compare by division, which
  // cannot overflow (r * r would at n near 2^64).
  std::uint64_t r = std::min<std::uint64_t>(std::uint64_t(std::sqrt(double(n))), 0xFFFFFFFFull);
  while (r > 0 && r > n / r) --r;
  while (r < 0xFFFFFFFFull && r + 1 <= n / (r + 1)) ++r;
  return r;
}

std::vector<std::uint32_t> primes_up_to(std::uint64_t limit) {
  std::vector<std::uint32_t> primes;
  if (limit < 2) return primes;
  primes.push_back(2);
  // Odd numbers only, a byte each: i stands for 2i + 1. Part of every timed run of the GPU steps
  // (their sieving primes), so it is kept short: strikes only from primes up to sqrt(limit).
  const std::uint64_t odd = (limit - 1) / 2;  // 3 .. limit are i = 1 .. odd
  std::vector<std::uint8_t> composite(odd + 1, 0);
  for (std::uint64_t i = 1; (2 * i + 1) * (2 * i + 1) <= limit; ++i)
    if (!composite[i])
      for (std::uint64_t j = ((2 * i + 1) * (2 * i + 1)) / 2; j <= odd; j += 2 * i + 1)
        composite[j] = 1;
  for (std::uint64_t i = 1; i <= odd; ++i)
    if (!composite[i]) primes.push_back(std::uint32_t(2 * i + 1));
  return primes;
}

std::vector<std::uint32_t> odd_composite_bits(std::uint64_t n) {
  const std::uint64_t words = odd_bit_words(n);
  std::vector<std::uint32_t> bits(words, 0);
  if (words == 0) return bits;
  const std::uint64_t odd_count = (n + 1) / 2;  // bits [0, odd_count) are numbers <= n
  const std::vector<std::uint32_t> primes = primes_up_to(isqrt(n));
  // Each range of words is sieved by every odd prime p <= sqrt(n), from max(p^2, its start).
  parallel_ranges(
      words, std::size_t(1) << 16, [&](std::size_t, std::size_t begin, std::size_t end) {
        const std::uint64_t k_begin = std::uint64_t(begin) * 32, k_end = std::uint64_t(end) * 32;
        for (const std::uint32_t p : primes) {
          if (p == 2) continue;
          // bits of odd multiples of p: k = (m - 1) / 2 with m = p * (2c + 1), stepping by p
          std::uint64_t k = (std::uint64_t(p) * p - 1) / 2;
          if (k < k_begin) k += (k_begin - k + p - 1) / p * p;
          for (; k < k_end; k += p) bits[k / 32] |= 1u << (k % 32);
        }
        for (std::uint64_t k = k_begin; k < k_end; ++k)
          if (k == 0 || k >= odd_count) bits[k / 32] |= 1u << (k % 32);
      });
  return bits;
}

std::uint64_t count_primes_in_bits(const std::vector<std::uint32_t>& bits, std::uint64_t n) {
  std::uint64_t clear = 0;
  for (const std::uint32_t w : bits) clear += 32 - std::uint64_t(__builtin_popcount(w));
  return clear + (n >= 2 ? 1 : 0);
}

const std::vector<known_pi>& known_pi_values() {
  static const std::vector<known_pi> values = {
      {0, 0},
      {1, 0},
      {2, 1},
      {3, 2},
      {4, 2},
      {10, 4},
      {100, 25},
      {1000, 168},
      {65536, 6542},
      {1000000, 78498},
      {1048575, 82025},
      {100000000, 5761455},
      {2147483647, 105097565},
      {4294967296, 203280221},
      {1000000000, 50847534},
      {10000000000, 455052511},
      {1000000000000, 37607912018},
  };
  return values;
}

}  // namespace common::sieve
