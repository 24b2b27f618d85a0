// sieve_segmented: tests. Host: the wheel, first-multiple and edge-mask arithmetic against brute
// force, and a host model of the kernels (same helpers, small segments and rounds so that the
// bucket path runs) against primesieve. GPU: pi(n) at the issue's sizes (10^12 included), random
// n, ranges whose ends are primes, squares of primes, segment and round edges +- 1, --list.
#include <vector>

#include <algorithm>
#include "common/random.hpp"

#include "common/sieve/testing.cuh"
#include "sieve_segmented.cuh"

namespace cs = common::sieve;
using namespace sieve_segmented;

namespace {

// The kernels' logic on the host, segment after segment, with segment_words words per segment and
// round_bits bits per round of the large primes.
std::uint64_t host_model(std::uint64_t lo, std::uint64_t hi, std::uint32_t segment_words,
                         std::uint64_t round_bits) {
  std::uint64_t found = lo <= 2 && 2 <= hi;
  for (const std::uint32_t q : WHEEL_PRIMES) found += lo <= q && q <= hi;
  if (hi == 0 || lo / 2 > (hi - 1) / 2) return found;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2, first_word = k_lo / 32;
  std::vector<std::uint32_t> primes = cs::primes_up_to(cs::isqrt(hi));
  primes.erase(primes.begin(), std::upper_bound(primes.begin(), primes.end(), 31u));
  const std::uint32_t segment_bits = segment_words * 32;
  const auto medium_end = std::lower_bound(primes.begin(), primes.end(), segment_bits);
  const std::vector<std::uint32_t> wheel = wheel_patterns();
  const std::uint64_t segments = (k_hi / 32 - first_word) / segment_words + 1;
  const std::uint64_t round_segments = round_bits / segment_bits;
  std::vector<std::uint32_t> sieve(segment_words);
  std::vector<std::uint32_t> buckets(std::min(round_segments, segments) * segment_words, 0);
  std::uint64_t clear = 0;
  for (std::uint64_t begin = 0; begin < segments; begin += round_segments) {
    const std::uint64_t end = std::min(segments, begin + round_segments);
    const std::uint64_t round_k = (first_word + begin * segment_words) * 32;
    for (auto p = medium_end; p != primes.end(); ++p)  // bucket_kernel
      for (std::uint64_t k = first_offset(*p, round_k); k < (end - begin) * segment_bits; k += *p)
        buckets[k / 32] |= 1u << (k % 32);
    for (std::uint64_t seg = begin; seg < end; ++seg) {  // segment_kernel
      const std::uint64_t seg_k = (first_word + seg * segment_words) * 32;
      const wheel_residues residues = residues_of(seg_k);
      for (std::uint32_t w = 0; w < segment_words; ++w) {
        std::uint32_t& bucket = buckets[(seg - begin) * segment_words + w];
        sieve[w] = wheel_word(wheel.data(), residues, 32 * w) | bucket;
        bucket = 0;
      }
      for (auto p = primes.begin(); p != medium_end; ++p)
        for (std::uint64_t k = first_offset(*p, seg_k); k < segment_bits; k += *p)
          sieve[k / 32] |= 1u << (k % 32);
      for (std::uint32_t w = 0; w < segment_words; ++w)
        clear += 32 - __builtin_popcount(sieve[w] | outside_bits(seg_k + 32 * w, k_lo, k_hi));
    }
  }
  return found + clear - (k_lo == 0 ? 1 : 0);
}

bool brute_force_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// Ranges of every kind the issue asks for, around a given number.
std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_near(std::uint64_t x,
                                                                 std::uint64_t width) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r;
  for (std::int64_t d : {-1, 0, 1}) r.push_back({x + d, x + d + width});
  r.push_back({x > width ? x - width : 0, x});
  return r;
}

}  // namespace

HOST_TEST_CASE("the wheel patterns mark exactly the odd multiples of 3 .. 31") {
  const std::vector<std::uint32_t> wheel = wheel_patterns();
  REQUIRE(wheel.size() == WHEEL_TOTAL_WORDS);
  for (std::uint64_t k : {0ull, 32ull, 15008ull, 15040ull, 1234567872ull, (1ull << 46) + 64}) {
    const wheel_residues residues = residues_of(k);
    for (std::uint32_t d : {0u, 32u, 8192u * 32 - 32}) {
      std::uint32_t want = 0;
      for (int b = 0; b < 32; ++b) {
        const std::uint64_t number = 2 * (k + d + b) + 1;
        for (const std::uint32_t q : WHEEL_PRIMES)
          if (number % q == 0) want |= 1u << b;
      }
      CAPTURE(k);
      CAPTURE(d);
      CHECK(wheel_word(wheel.data(), residues, d) == want);
    }
  }
}

HOST_TEST_CASE("first_offset finds the first odd multiple at or past p^2 and the segment's start") {
  for (std::uint32_t p : {37u, 41u, 4093u, 131071u, 999983u}) {
    for (std::uint64_t seg_k : {0ull, 64ull, 262144ull, 499999999968ull, (1ull << 47) - 32}) {
      std::uint64_t number = std::max(2 * seg_k + 1, std::uint64_t(p) * p);  // odd
      while (number % p != 0) number += 2;
      CAPTURE(p);
      CAPTURE(seg_k);
      CHECK(first_offset(p, seg_k) == (number - 1) / 2 - seg_k);
    }
  }
}

HOST_TEST_CASE("outside_bits keeps exactly the bits from k_lo to k_hi") {
  for (std::uint64_t word_k : {0ull, 32ull, 64ull}) {
    for (std::uint64_t k_lo : {0ull, 1ull, 31ull, 32ull, 33ull, 63ull, 64ull, 100ull}) {
      for (std::uint64_t k_hi : {k_lo, k_lo + 1, k_lo + 31, k_lo + 32, k_lo + 64}) {
        std::uint32_t want = 0;
        for (int b = 0; b < 32; ++b)
          if (word_k + b < k_lo || word_k + b > k_hi) want |= 1u << b;
        CAPTURE(word_k);
        CAPTURE(k_lo);
        CAPTURE(k_hi);
        CHECK(outside_bits(word_k, k_lo, k_hi) == want);
      }
    }
  }
}

HOST_TEST_CASE("the host model counts like primesieve on small and edge ranges") {
  for (std::uint64_t hi = 0; hi <= 200; ++hi) {
    for (std::uint64_t lo : std::vector<std::uint64_t>{0, 1, 2, 3, hi / 2, hi}) {
      if (lo > hi) continue;
      CAPTURE(lo);
      CAPTURE(hi);
      CHECK(host_model(lo, hi, 8192, ROUND_BITS) == cs::primesieve_count(lo, hi));
    }
  }
  for (std::uint64_t n : {65536ull, 524287ull, 524288ull, 524289ull, 1048575ull, 10000000ull}) {
    CAPTURE(n);
    CHECK(host_model(0, n, 8192, ROUND_BITS) == cs::primesieve_count(0, n));
    CHECK(host_model(0, n, 4096, ROUND_BITS) == cs::primesieve_count(0, n));
  }
}

HOST_TEST_CASE("the host model's bucket path counts like primesieve") {
  // Segments of 64 words (2048 bits) and rounds of 2^14 bits: every prime above 2048 goes through
  // the buckets, as the primes above 2^18 do at 10^12 with the real sizes.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0, 20000000}, {0, 4194304}, {99999000, 100001000}, {4294967000, 4294968000}};
  for (const auto& r : ranges_near(1000000007, 70000)) ranges.push_back(r);
  for (std::uint64_t s = 0; s < 4; ++s) {
    const std::uint64_t lo = common::mix64(3, s) % (1ull << 40);
    ranges.push_back({lo, lo + common::mix64(4, s) % 100000});
  }
  for (const auto& range : ranges) {
    const std::uint64_t lo = range.first, hi = range.second;
    CAPTURE(lo);
    CAPTURE(hi);
    CHECK(host_model(lo, hi, 64, 1 << 14) == cs::primesieve_count(lo, hi));
  }
}

HOST_TEST_CASE("a bucket round is a whole number of segments for both segment sizes") {
  CHECK(ROUND_BITS % (4096 * 32) == 0);
  CHECK(ROUND_BITS % (8192 * 32) == 0);
  CHECK(brute_force_prime(1000000007));
}

GPU_TEST_CASE("sieve_segmented gives the known values of pi(n) up to 10^12") {
  for (const std::string& v : variant_names()) {
    auto c = make_counter(v, MAX_HI);
    for (const cs::known_pi& k : cs::known_pi_values()) {
      CAPTURE(v);
      CAPTURE(k.n);
      CHECK(c->count(0, k.n) == k.pi);
    }
  }
}

GPU_TEST_CASE("sieve_segmented counts like primesieve on random sizes and edge ranges") {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::uint64_t s = 0; s < 6; ++s)
    ranges.push_back({0, common::mix64(11, s) % 20000000000ull});
  // ends on primes, squares of primes, segment edges (16k and 32k segments), round edges
  for (std::uint64_t x :
       {1000000007ull, 999999999989ull, 1018081ull /* 1009^2 */, 999966000289ull /* 999983^2 */,
        2ull * 131072 * 7, 2ull * 262144 * 9, 2ull * 262144 * 3000, 2ull * ROUND_BITS * 3,
        1000000000000ull, 1ull << 40, (1ull << 44) + 12345})
    for (const auto& r : ranges_near(x, 3000000)) ranges.push_back(r);
  ranges.push_back({999000000000ull, 1000000000000ull});     // crosses rounds, large primes
  ranges.push_back({(1ull << 48) - 100000000, 1ull << 48});  // the top of the range
  for (const std::string& v : variant_names()) {
    auto c = make_counter(v, MAX_HI);
    for (const auto& range : ranges) {
      const std::uint64_t lo = range.first, hi = range.second;
      CAPTURE(v);
      CAPTURE(lo);
      CAPTURE(hi);
      CHECK(c->count(lo, hi) == cs::primesieve_count(lo, hi));
    }
  }
}

GPU_TEST_CASE("sieve_segmented lists the primes of short ranges") {
  for (const std::string& v : variant_names()) {
    auto c = make_counter(v, MAX_HI);
    for (const auto& range : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
             {0, 0},
             {0, 100},
             {2, 2},
             {3, 31},
             {30, 40},
             {1000000000000ull, 1000000001000ull},
             {(1ull << 40) - 1000000, 1ull << 40}}) {
      const std::uint64_t lo = range.first, hi = range.second;
      const std::vector<std::uint64_t> want = cs::primesieve_primes(lo, hi);
      CAPTURE(v);
      CAPTURE(lo);
      CHECK(c->primes(lo, hi) == want);
    }
  }
}
