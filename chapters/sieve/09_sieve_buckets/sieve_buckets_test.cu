// sieve_buckets: tests. Host: the buckets' bits spread to bytes, against brute force. GPU: the
// sieving primes found on the GPU against the host's; the known values of pi(n) up to 10^12, the
// part's test ranges, ranges that cross rounds of the large primes, counts either side of the
// square root at which the sieving primes move to the GPU, and --list, against primesieve.
#include "common/sieve/testing.cuh"
#include "sieve_buckets.cuh"

using namespace sieve_buckets;

HOST_TEST_CASE("bits_as_bytes16 spreads 16 bits into 16 0/1 bytes") {
  for (std::uint32_t bits = 0; bits < (1u << 16); ++bits) {
    CAPTURE(bits);
    // the bits above 16 are ignored
    CHECK(common::testing::words_of(bits_as_bytes16(bits | 0xABCD0000u)) ==
          common::testing::bytes16_where([&](int b) { return (bits >> b) & 1u; }));
  }
}

HOST_TEST_CASE("a round holds whole segments of every length") {
  CHECK(ROUND_BITS % 32 == 0);
  CHECK(ROUND_BITS / sieve_bytes::MAX_SEGMENT_BYTES >= 1);
}

GPU_TEST_CASE("the sieving primes found on the GPU are the host's") {
  for (const std::uint32_t limit : {HOST_SIEVING_PRIMES_MAX + 1, 32768u, 65537u, 65539u, 1000003u,
                                    3u * PRIMES_CHUNK * 2 + 1, 1u << 24}) {
    CAPTURE(limit);
    const std::vector<std::uint32_t> want = sieve_wheel::primes_past_the_wheel(limit);
    const std::uint32_t chunks = sieving_primes_chunks(limit);
    common::device_buffer<std::uint32_t> bits(std::size_t(chunks) * PRIMES_BLOCK_THREADS),
        counts(chunks), primes(want.size() + 1), total(1);
    std::uint32_t got_count = 0;
    REQUIRE(sieving_primes_on_gpu(limit, bits.data(), counts.data(), primes.data(), total.data(), 0,
                                  got_count) == cudaSuccess);
    REQUIRE(got_count == want.size());
    std::vector<std::uint32_t> got = primes.download();
    got.resize(got_count);
    CHECK(got == want);
  }
}

GPU_TEST_CASE(
    "sieve_buckets counts like primesieve: known pi(n) and the part's test ranges and --list") {
  counter c(MAX_HI);
  common::testing::check_count_step(c, sieve_bytes::MAX_SEGMENT_BYTES);
  common::testing::check_known_pi(c, MAX_HI);  // 10^12: large primes in rounds
  common::testing::ranges far = {{999000000000ull, 1000000000000ull},  // across rounds
                                 {(1ull << 48) - 100000000, 1ull << 48}};
  for (const auto& r : common::testing::ranges_near(2ull * ROUND_BITS * 3, 3000000))
    far.push_back(r);
  for (const auto& r : common::testing::ranges_around_root(HOST_SIEVING_PRIMES_MAX))
    far.push_back(r);
  common::testing::check_counts(c, far);
}
