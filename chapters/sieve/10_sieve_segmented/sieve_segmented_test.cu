// sieve_segmented: tests. Host: the first-multiple arithmetic and the segments past the root
// against brute force (the wheel's, the edge masks' and the buckets' are the earlier steps'), and
// a host model of the kernels (same helpers, both layouts, small segments and rounds so that the
// bucket path runs) against primesieve. GPU, both variants: pi(n) at the part's test sizes (10^12
// included), random n, ranges whose ends are primes, squares of primes, segment, wave and round
// edges +- 1, --list; counts either side of the square root at which the sieving primes move to
// the GPU (which finds them as sieve_buckets' tests check). Short ranges: count_on_host, and the
// same ranges on the GPU with the host path off, twice; more than 2^16 counts on one counter. The
// count's contract: bad ranges refused, two streams (and host threads) at once, a device reset
// between counts.
#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

#include "common/random.hpp"

#include "common/sieve/testing.cuh"
#include "sieve_segmented.cuh"

namespace cs = common::sieve;
using namespace sieve_segmented;
using common::testing::ranges_near;

namespace {

// The kernels' logic on the host, segment after segment, in either layout (bytes: byte_stores,
// else bit_atomics), with `length` numbers per segment and round_bits numbers per round of the
// large primes.
std::uint64_t host_model(std::uint64_t lo, std::uint64_t hi, bool bytes, std::uint32_t length,
                         std::uint64_t round_bits) {
  const std::uint64_t found = wheel_primes_in(lo, hi);
  if (no_odd_number_in(lo, hi)) return found;
  const std::uint64_t k_lo = lo / 2, k_hi = (hi - 1) / 2, first_k = k_lo / 32 * 32;
  std::vector<std::uint32_t> primes = cs::primes_up_to(cs::isqrt(hi));
  primes.erase(primes.begin(), std::upper_bound(primes.begin(), primes.end(), 31u));
  const auto medium_end = std::lower_bound(primes.begin(), primes.end(), length);
  const std::vector<std::uint32_t> wheel = wheel_patterns(bytes);
  const std::uint32_t per_word = bytes ? 4 : 32;
  const std::uint64_t segments = (k_hi - first_k + 1 + length - 1) / length;
  const std::uint64_t round_segments = round_bits / length;
  std::vector<std::uint32_t> sieve(length / per_word);
  std::vector<std::uint32_t> buckets(std::min(round_segments, segments) * length / 32, 0);
  std::uint64_t clear = 0;
  for (std::uint64_t begin = 0; begin < segments; begin += round_segments) {
    const std::uint64_t end = std::min(segments, begin + round_segments);
    const std::uint64_t round_k = first_k + begin * length;
    for (auto p = medium_end; p != primes.end(); ++p)  // bucket_kernel
      for (std::uint64_t k = first_offset(*p, round_k); k < (end - begin) * length; k += *p)
        buckets[k / 32] |= 1u << (k % 32);
    for (std::uint64_t seg = begin; seg < end; ++seg) {  // the segment kernel
      const std::uint64_t seg_k = first_k + seg * length, round_offset = (seg - begin) * length;
      const wheel_residues residues = residues_of(seg_k);
      if (bytes) {
        for (std::uint32_t q = 0; q < length / 16; ++q) {  // 16 numbers, four words, at a time
          const std::uint64_t bit = round_offset + 16 * q;
          const uint4 v = or_words(wheel_bytes16(wheel.data(), residues, 16 * q),
                                   bits_as_bytes16(buckets[bit / 32] >> (bit % 32)));
          std::copy_n(&v.x, 4, &sieve[4 * q]);
        }
      } else {
        for (std::uint32_t w = 0; w < sieve.size(); ++w)
          sieve[w] = wheel_word(wheel.data(), residues, 32 * w) | buckets[round_offset / 32 + w];
      }
      std::fill_n(buckets.begin() + round_offset / 32, length / 32, 0u);
      for (auto p = primes.begin(); p != medium_end; ++p)
        for (std::uint64_t k = first_offset(*p, seg_k); k < length; k += *p)
          sieve[k / per_word] |= bytes ? 1u << (8 * (k % 4)) : 1u << (k % 32);
      for (std::uint32_t w = 0; w < sieve.size(); ++w) {
        const std::uint64_t word_k = seg_k + per_word * w;
        const std::uint32_t outside =
            bytes ? outside_bytes(word_k, k_lo, k_hi) : outside_bits(word_k, k_lo, k_hi);
        clear += per_word - __builtin_popcount(sieve[w] | outside);
      }
    }
  }
  return found + clear - (k_lo == 0 ? 1 : 0);
}

// The model with the segment length that the variant's counter uses on a GPU of `sms` SMs.
std::uint64_t model_as_launched(std::uint64_t lo, std::uint64_t hi, bool bytes, std::uint64_t sms) {
  if (!bytes) return host_model(lo, hi, false, BIT_SEGMENT_NUMBERS, ROUND_BITS);
  const std::uint64_t k_lo = lo / 2, k_hi = hi == 0 ? 0 : (hi - 1) / 2;
  const std::uint64_t numbers = k_hi >= k_lo / 32 * 32 ? k_hi - k_lo / 32 * 32 + 1 : 1;
  return host_model(lo, hi, true, byte_segment_numbers(numbers, sms, cs::isqrt(hi)), ROUND_BITS);
}

// count_on_host as the counter calls it.
std::uint64_t count_short_on_host(std::uint64_t lo, std::uint64_t hi) {
  static const std::vector<std::uint8_t> pattern = first_pattern_bytes(wheel_patterns(true));
  static const std::vector<std::uint32_t> primes = primes_past_the_wheel(HOST_MAX_ROOT);
  std::vector<std::uint8_t> bytes(HOST_MAX_NUMBERS + 8);
  return count_on_host(lo, hi, pattern.data(), primes, bytes.data());
}

// Short ranges of every kind: near 0, ends on primes and squares of primes, the longest and the
// largest that count_on_host takes, and random ones.
std::vector<std::pair<std::uint64_t, std::uint64_t>> short_ranges() {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r;
  for (std::uint64_t hi = 0; hi <= 300; ++hi)
    for (std::uint64_t lo : std::vector<std::uint64_t>{0, 1, 2, 3, 17, hi / 2, hi})
      if (lo <= hi) r.push_back({lo, hi});
  const std::uint64_t longest = 2 * HOST_MAX_NUMBERS - 1;  // hi - lo
  const std::uint64_t top = std::uint64_t(HOST_MAX_ROOT + 1) * (HOST_MAX_ROOT + 1) - 1;
  for (std::uint64_t x : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(15015),
                          std::uint64_t(30030) * 7 + 1, std::uint64_t(1000003), top - longest})
    for (std::uint64_t w : {longest - 1, longest, std::uint64_t(10007), std::uint64_t(64)})
      r.push_back({x, x + w});
  for (std::uint64_t x : {std::uint64_t(4093) * 4093, std::uint64_t(4091) * 4093, top - 1, top})
    for (const auto& near : ranges_near(x, 1000))
      if (near.second <= top) r.push_back(near);
  for (std::uint64_t s = 0; s < 40; ++s) {
    const std::uint64_t lo = common::mix64(21, s) % (top - longest);
    r.push_back({lo, lo + common::mix64(22, s) % (longest + 1)});
  }
  return r;
}

}  // namespace

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

HOST_TEST_CASE("byte_stores' segments are longer than the root where that fits") {
  // sieve_bytes' evened-out lengths (its tests), then longer than the root where that fits.
  common::testing::for_segment_shapes(
      MAX_SEGMENT_BYTES, [](std::uint64_t most, std::uint64_t blocks, std::uint64_t numbers) {
        const std::uint32_t length = byte_segment_numbers(numbers, blocks, 0, std::uint32_t(most));
        CHECK(length == sieve_bytes::segment_numbers_for(numbers, blocks, std::uint32_t(most)));
        CHECK(ROUND_BITS / length >= 1);
        for (std::uint64_t root : {std::uint64_t(0), std::uint64_t(31), std::uint64_t(32),
                                   std::uint64_t(1000), most - 1, most, std::uint64_t(1) << 24}) {
          const std::uint32_t past =
              byte_segment_numbers(numbers, blocks, root, std::uint32_t(most));
          CAPTURE(root);
          CHECK(past % 32 == 0);
          CHECK(past >= length);
          CHECK(past <= most);
          if (root < most)
            CHECK(past > root);
          else
            CHECK(past == length);  // no longer than the longest segment: evened out as before
        }
      });
}

HOST_TEST_CASE("the host model counts like primesieve on small and edge ranges") {
  for (std::uint64_t hi = 0; hi <= 200; ++hi) {
    for (std::uint64_t lo : std::vector<std::uint64_t>{0, 1, 2, 3, hi / 2, hi}) {
      if (lo > hi) continue;
      CAPTURE(lo);
      CAPTURE(hi);
      const std::uint64_t want = cs::primesieve_count(lo, hi);
      CHECK(model_as_launched(lo, hi, false, 132) == want);
      CHECK(model_as_launched(lo, hi, true, 132) == want);
      CHECK(model_as_launched(lo, hi, true, 1) == want);
    }
  }
  for (std::uint64_t n :
       {65536ull, 524287ull, 524288ull, 524289ull, 1048575ull, 10000000ull, 100000000ull}) {
    CAPTURE(n);
    const std::uint64_t want = cs::primesieve_count(0, n);
    CHECK(model_as_launched(0, n, false, 132) == want);
    CHECK(model_as_launched(0, n, true, 132) == want);
    CHECK(model_as_launched(0, n, true, 7) == want);
  }
}

HOST_TEST_CASE("the host model's bucket path counts like primesieve") {
  // Segments of 2048 numbers and rounds of 2^14 numbers: every prime above 2048 goes through the
  // buckets, as the primes above a segment's length do at 10^12 with the real sizes.
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
    const std::uint64_t want = cs::primesieve_count(lo, hi);
    CHECK(host_model(lo, hi, false, 2048, 1 << 14) == want);
    CHECK(host_model(lo, hi, true, 2048, 1 << 14) == want);
    CHECK(host_model(lo, hi, true, 2080, 1 << 14) == want);  // rounds of 7 segments, not 8
  }
  // The real sizes near 10^12, where primes past a segment's length go through the buckets.
  for (const auto& r : ranges_near(1000000000000ull, 3000000)) {
    CAPTURE(r.first);
    CHECK(model_as_launched(r.first, r.second, true, 132) ==
          cs::primesieve_count(r.first, r.second));
  }
}

HOST_TEST_CASE(
    "short_range takes at most HOST_MAX_NUMBERS odd numbers and a root of HOST_MAX_ROOT") {
  const std::uint64_t longest = 2 * HOST_MAX_NUMBERS - 1;
  const std::uint64_t top = std::uint64_t(HOST_MAX_ROOT + 1) * (HOST_MAX_ROOT + 1) - 1;
  CHECK(short_range(0, 0));
  CHECK(short_range(0, longest));
  CHECK_FALSE(short_range(0, longest + 1));
  CHECK(short_range(top - longest, top));
  CHECK_FALSE(short_range(top - longest + 1, top + 1));
  CHECK_FALSE(short_range(1000000000000ull, 1000000000100ull));
  for (std::uint64_t lo : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), top - longest})
    for (std::uint64_t hi : {lo + longest - 1, lo + longest}) {
      const std::uint64_t odd = hi == 0 ? 0 : (hi - 1) / 2 - lo / 2 + 1;
      CAPTURE(lo);
      CHECK(odd <= HOST_MAX_NUMBERS);
    }
}

HOST_TEST_CASE("count_on_host counts like primesieve on short ranges") {
  for (const auto& range : short_ranges()) {
    const std::uint64_t lo = range.first, hi = range.second;
    CAPTURE(lo);
    CAPTURE(hi);
    REQUIRE(short_range(lo, hi));
    CHECK(count_short_on_host(lo, hi) == cs::primesieve_count(lo, hi));
  }
}

GPU_TEST_CASE("short ranges count alike on the host and on the GPU again and again") {
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = short_ranges();
  for (const std::string& v : variant_names()) {
    counter on_host(v != "bit_atomics", MAX_HI), on_gpu(v != "bit_atomics", MAX_HI);
    on_gpu.count_short_ranges_on_host(false);
    for (int again = 0; again < 2; ++again)  // the GPU's counters clear themselves after a count
      for (const auto& range : ranges) {
        const std::uint64_t lo = range.first, hi = range.second;
        CAPTURE(v);
        CAPTURE(lo);
        CAPTURE(hi);
        const std::uint64_t want = cs::primesieve_count(lo, hi);
        CHECK(on_host.count(lo, hi) == want);
        CHECK(on_gpu.count(lo, hi) == want);
      }
  }
}

GPU_TEST_CASE("a counter says which ranges it counts on the host") {
  counter c(true, 1000000000);
  CHECK(c.how(0, 1000).find("on the host") != std::string::npos);
  CHECK(c.how(1000000, 1001000).find("on the host") != std::string::npos);
  CHECK(c.how(0, 2 * HOST_MAX_NUMBERS).empty());  // one odd number too many
  CHECK(c.how(100000000, 100000010).empty());     // sqrt(hi) past HOST_MAX_ROOT
  c.count_short_ranges_on_host(false);
  CHECK(c.how(0, 1000).empty());
}

GPU_TEST_CASE(
    "a counter counts on the GPU more than 2^16 times: the numbers in the host's word wrap") {
  // Each count's total comes back with its number modulo 2^16 (mapped_total::wait).
  std::vector<std::uint64_t> want;
  for (std::uint64_t d = 0; d < 7; ++d) want.push_back(cs::primesieve_count(100, 1000 + d));
  for (const std::string& v : variant_names()) {
    counter c(v != "bit_atomics", 2000);
    c.count_short_ranges_on_host(false);
    std::uint64_t wrong = 0;
    for (std::uint64_t i = 0; i < (1u << 16) + 1000; ++i)
      wrong += c.count(100, 1000 + i % 7) != want[i % 7];
    CAPTURE(v);
    CHECK(wrong == 0);
  }
}

GPU_TEST_CASE("sieve_segmented gives the known values of pi(n) up to 10^12") {
  for (const std::string& v : variant_names()) {
    CAPTURE(v);
    common::testing::check_known_pi(*make_counter(v, MAX_HI), MAX_HI);
  }
}

GPU_TEST_CASE("sieve_segmented counts like primesieve on random sizes and edge ranges") {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::uint64_t s = 0; s < 6; ++s)
    ranges.push_back({0, common::mix64(11, s) % 20000000000ull});
  // ends on primes, squares of primes, bit_atomics segment edges, round edges
  for (std::uint64_t x :
       {1000000007ull, 999999999989ull, 1018081ull /* 1009^2 */, 999966000289ull /* 999983^2 */,
        2ull * BIT_SEGMENT_NUMBERS * 7, 2ull * BIT_SEGMENT_NUMBERS * 9,
        2ull * BIT_SEGMENT_NUMBERS * 3000, 2ull * ROUND_BITS * 3, 1000000000000ull, 1ull << 40,
        (1ull << 44) + 12345})
    for (const auto& r : ranges_near(x, 3000000)) ranges.push_back(r);
  // byte_stores: one whole wave of full segments, and one number more or less
  const std::uint64_t wave = 2ull * MAX_SEGMENT_BYTES * std::uint64_t(cs::sm_count());
  for (std::int64_t d : {-2, -1, 0, 1, 2}) ranges.push_back({0, wave + d});
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

GPU_TEST_CASE("sieve_segmented counts like primesieve where the sieving primes move to the GPU") {
  // sqrt(hi) either side of HOST_SIEVING_PRIMES_MAX: below it, the counter's own table of primes.
  for (const std::string& v : variant_names()) {
    CAPTURE(v);
    common::testing::check_counts(*make_counter(v, MAX_HI),
                                  common::testing::ranges_around_root(HOST_SIEVING_PRIMES_MAX));
  }
}

GPU_TEST_CASE("sieve_segmented lists the primes of short ranges") {
  for (const std::string& v : variant_names()) {
    CAPTURE(v);
    common::testing::check_lists(*make_counter(v, MAX_HI));
  }
}

GPU_TEST_CASE("sieve_segmented refuses ranges it was not made for and counts on") {
  for (const std::string& v : variant_names()) {
    counter c(v != "bit_atomics", 1000000000);
    std::uint64_t found = 12345;
    CAPTURE(v);
    CHECK(c.count_on(1000, 10, found) == cudaErrorInvalidValue);
    CHECK(c.count_on(0, 1000000001, found) == cudaErrorInvalidValue);
    CHECK(found == 12345);
    CHECK(c.count_on(0, 1000000000, found) == cudaSuccess);
    CHECK(found == 50847534);
  }
}

GPU_TEST_CASE("sieve_segmented counts on two streams at once") {
  // Two counters (one count at a time each), each on its own non-blocking stream, counting from
  // two host threads at the same time, with the short-range host path off.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0, 1000000000}, {999000000000ull, 1000000000000ull}, {100, 1000}, {0, 1ull << 32}};
  for (const std::string& v : variant_names()) {
    std::vector<std::uint64_t> want;
    for (const auto& r : ranges) want.push_back(cs::primesieve_count(r.first, r.second));
    counter first(v != "bit_atomics", MAX_HI), second(v != "bit_atomics", MAX_HI);
    first.count_short_ranges_on_host(false);
    second.count_short_ranges_on_host(false);
    cudaStream_t streams[2] = {nullptr, nullptr};
    for (cudaStream_t& s : streams)
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    std::uint64_t wrong[2] = {0, 0};
    cudaError_t errors[2] = {cudaSuccess, cudaSuccess};
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    auto count_all = [&](counter& c, int which) {
      if (cudaSetDevice(device) != cudaSuccess) return;  // this thread's device, as the caller's
      for (int round = 0; round < 3; ++round)
        for (std::size_t r = 0; r < ranges.size(); ++r) {
          // The two threads take the ranges in opposite orders, so that different kernels overlap.
          const std::size_t i = which == 0 ? r : ranges.size() - 1 - r;
          std::uint64_t found = 0;
          const cudaError_t e =
              c.count_on(ranges[i].first, ranges[i].second, found, streams[which]);
          if (e != cudaSuccess && errors[which] == cudaSuccess) errors[which] = e;
          wrong[which] += found != want[i];
        }
    };
    std::thread other(count_all, std::ref(second), 1);
    count_all(first, 0);
    other.join();
    for (cudaStream_t s : streams) CUDA_CHECK(cudaStreamDestroy(s));
    CAPTURE(v);
    CHECK(errors[0] == cudaSuccess);
    CHECK(errors[1] == cudaSuccess);
    CHECK(wrong[0] == 0);
    CHECK(wrong[1] == 0);
  }
}

GPU_TEST_CASE("sieve_segmented counts again after a device reset") {
  // The byte kernels' shared-memory opt-in lives in the context: after a reset a new counter must
  // set it again (the facts are kept per device and context), or its launches fail.
  for (int round = 0; round < 2; ++round) {
    for (const std::string& v : variant_names()) {
      auto c = make_counter(v, 10000000000ull);
      CAPTURE(round);
      CAPTURE(v);
      CHECK(c->count(0, 10000000000ull) == 455052511);
      CHECK(c->count(0, 1000000) == 78498);
    }
    CUDA_CHECK(cudaDeviceReset());
  }
}
