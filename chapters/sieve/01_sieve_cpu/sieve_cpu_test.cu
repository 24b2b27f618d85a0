// sieve_cpu: tests (host only). The sieve at every test size against the odd-bit reference and
// primesieve, and the known values of pi(n).
#include "common/sieve/testing.cuh"
#include "sieve_cpu.cuh"

namespace cs = common::sieve;

HOST_TEST_CASE("sieve_cpu flags every composite and nothing else at every test size") {
  for (const std::int64_t n : common::testing::sieve_test_sizes(std::int64_t(1) << 24, 0)) {
    std::vector<std::uint8_t> flags;
    const std::uint64_t pi = sieve_cpu::sieve(n, &flags);
    const auto reference = cs::odd_composite_bits(std::uint64_t(n));
    const common::check_result r =
        cs::check_output(cs::layout::byte_per_number, flags.data(), n, reference);
    INFO("n=", n, " ", common::describe(r));
    CHECK(r.ok());
    CHECK(pi == cs::primesieve_count(0, std::uint64_t(n)));
  }
}

HOST_TEST_CASE("sieve_cpu gives the known values of pi(n) up to 10^8") {
  for (const cs::known_pi& k : cs::known_pi_values()) {
    if (k.n > 100000000) continue;
    CAPTURE(k.n);
    CHECK(sieve_cpu::sieve(std::int64_t(k.n), nullptr) == k.pi);
  }
}
