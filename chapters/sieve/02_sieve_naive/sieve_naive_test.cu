// sieve_naive: tests. Host: the thread count and the limit. GPU: every variant at every test size
// up to the limit, poisoned output.
#include "common/sieve/testing.cuh"
#include "sieve_naive.cuh"

HOST_TEST_CASE("sieve_naive launches one thread per factor up to sqrt(n) and stops at 1024") {
  CHECK(sieve_naive::threads_for(0) == 1);
  CHECK(sieve_naive::threads_for(3) == 2);
  CHECK(sieve_naive::threads_for(4) == 3);  // factor 2 strikes 4
  CHECK(sieve_naive::threads_for(sieve_naive::MAX_N) == 1024);
  CHECK(sieve_naive::threads_for(sieve_naive::MAX_N + 1) == 1025);  // past one block
}

GPU_TEST_CASE("sieve_naive strikes exactly the composites in every variant") {
  for (const auto& v : sieve_naive::variants())
    common::testing::check_sieve_sizes(v, common::testing::sieve_test_sizes(sieve_naive::MAX_N, 0));
}
