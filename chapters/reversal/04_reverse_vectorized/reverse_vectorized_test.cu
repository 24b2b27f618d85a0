// reverse_vectorized: tests. GPU: every test size, every n % 4 around warp and block edges (the
// shuffle's lane 0 and the partial group), and 2^28 + 3.
#include "common/reversal/testing.cuh"
#include "reverse_vectorized.cuh"

GPU_TEST_CASE("reverse_vectorized matches the CPU at every test size and 2^28 + 3") {
  common::testing::check_out_of_place_sizes<std::int32_t>(
      reverse_vectorized::launch, reverse_vectorized::BLOCK_THREADS, {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_vectorized handles each n % 4 around warp and block edges") {
  // 4 * 32 elements fill one warp's groups, 4 * 256 one block's.
  for (const std::int64_t base : {0, 4 * 32, 4 * 256, 4 * 256 * 3}) {
    for (std::int64_t n = base; n < base + 12; ++n) {
      if (n == 0) continue;
      const auto r =
          common::testing::check_out_of_place<std::int32_t>(reverse_vectorized::launch, n, n);
      INFO("n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
  }
}

GPU_TEST_CASE("reverse_vectorized refuses pointers that are not 16-byte aligned") {
  common::device_buffer<std::int32_t> d_in(64), d_out(64);
  CHECK_THROWS_AS(reverse_vectorized::launch(d_in.data() + 1, d_out.data(), 8),
                  std::invalid_argument);
  CHECK_THROWS_AS(reverse_vectorized::launch(d_in.data(), d_out.data() + 2, 8),
                  std::invalid_argument);
}
