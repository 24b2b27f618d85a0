// reverse_shared: tests. GPU: every test size (a partial last block of each length mod 256 that
// the sizes give) and 2^28 + 3.
#include "common/reversal/testing.cuh"
#include "reverse_shared.cuh"

GPU_TEST_CASE("reverse_shared matches the CPU at every test size and 2^28 + 3") {
  common::testing::check_out_of_place_sizes<std::int32_t>(
      reverse_shared::launch, reverse_shared::BLOCK_THREADS, {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_shared handles every partial last block length") {
  for (std::int64_t n = 512; n < 768; ++n) {
    const auto r =
        common::testing::check_out_of_place<std::int32_t>(reverse_shared::launch, n, 40 + n);
    INFO("n=", n, " ", common::describe(r));
    CHECK(r.ok());
  }
}
