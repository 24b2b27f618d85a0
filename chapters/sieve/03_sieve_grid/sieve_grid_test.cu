// sieve_grid: tests. GPU: every test size up to 2^31 - 1, poisoned output.
#include "common/sieve/testing.cuh"
#include "sieve_grid.cuh"

HOST_TEST_CASE("sieve_grid's limit keeps the prime rows within the grid's 65535") {
  // primes up to sqrt(2^31 - 1) = 46340: 4792 block rows
  CHECK(common::sieve::primes_up_to(common::sieve::isqrt(sieve_grid::MAX_N)).size() < 65535);
}

GPU_TEST_CASE("sieve_grid strikes exactly the composites") {
  for (const auto& v : sieve_grid::variants())
    common::testing::check_sieve_sizes(v, common::testing::sieve_test_sizes(sieve_grid::MAX_N, 0));
}
