// reverse_naive: tests. GPU: the guarded launch at every test size and 2^28 + 3; the listing's
// launch shown to fail where n is not a multiple of the block (the labelled classic tests).
#include <vector>

#include "common/reversal/testing.cuh"
#include "reverse_naive.cuh"

GPU_TEST_CASE("reverse_naive matches the CPU at every test size and 2^28 + 3") {
  common::testing::check_out_of_place_sizes<std::int32_t>(
      reverse_naive::launch, reverse_naive::BLOCK_THREADS, {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("classic listing: right when n is a multiple of 256") {
  for (const std::int64_t n : {256, 512, 1 << 20}) {
    const auto r = common::testing::check_out_of_place<std::int32_t>(
        [](const std::int32_t* in, std::int32_t* out, std::int64_t m) {
          CUDA_CHECK(reverse_naive::launch_classic(in, out, m));
        },
        n, 1);
    INFO("n=", n, " ", common::describe(r));
    CHECK(r.ok());
  }
}

GPU_TEST_CASE("classic listing: wrong when n is not a multiple of 256") {
  // n = 257: one block reverses in[0, 256) into out[0, 256), where in[0, 256) belongs in
  // out[1, 257); out[256] is never written. Every element is wrong.
  for (const std::int64_t n : {257, 1000, 100003}) {
    const auto r = common::testing::check_out_of_place<std::int32_t>(
        [](const std::int32_t* in, std::int32_t* out, std::int64_t m) {
          CUDA_CHECK(reverse_naive::launch_classic(in, out, m));
        },
        n, 2);
    INFO("n=", n, " ", common::describe(r));
    CHECK(r.mismatches == std::size_t(n));
  }
}

GPU_TEST_CASE("classic listing: no launch at all below 256 elements") {
  common::device_buffer<std::int32_t> d_in(100), d_out(100);
  CHECK(reverse_naive::launch_classic(d_in.data(), d_out.data(), 100) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // not a sticky error: the context lives on
}

GPU_TEST_CASE("reverse_naive with n = 0 launches nothing and leaves no error") {
  reverse_naive::launch(nullptr, nullptr, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
