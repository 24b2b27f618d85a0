// increment: tests. Host: the CPU reference. GPU: every edge size and several block sizes, with
// guard elements after the array that must stay untouched.
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "common/verify.hpp"
#include "increment.cuh"

HOST_TEST_CASE("increment_cpu adds one to every element and nothing else") {
  std::vector<float> data{-2.5f, 0.0f, 1e6f, 7.0f};
  increment::increment_cpu(data.data(), 3);
  CHECK(data == std::vector<float>{-1.5f, 1.0f, 1000001.0f, 7.0f});
  increment::increment_cpu(data.data(), 0);  // n = 0 is a no-op
  CHECK(data[0] == -1.5f);
}

HOST_TEST_CASE("max_elements covers the largest grid and no more") {
  CHECK(increment::max_elements(1) == 0x7FFFFFFF);
  CHECK(increment::max_elements(64) == std::int64_t(0x7FFFFFFF) * 64);
}

GPU_TEST_CASE("increment matches the CPU at edge sizes and block sizes with guards untouched") {
  constexpr std::int64_t GUARD = 37;
  constexpr float SENTINEL = -12345.0f;
  for (const int block : {64, 1, 33, 256, 1024}) {
    for (const std::int64_t n : common::testing::edge_sizes(block)) {
      CAPTURE(block);
      CAPTURE(n);
      std::vector<float> data = common::random_floats(n, 1000 + n, -100.0f, 100.0f);
      std::vector<float> want = data;
      increment::increment_cpu(want.data(), n);
      data.resize(n + GUARD, SENTINEL);
      want.resize(n + GUARD, SENTINEL);
      common::device_buffer<float> d_data(n + GUARD);
      d_data.upload(data);
      increment::launch(d_data.data(), n, block);
      CUDA_CHECK(cudaDeviceSynchronize());
      const common::check_result r = common::compare_exact("output", d_data.download(), want);
      INFO(common::describe(r));
      CHECK(r.ok());
    }
  }
}

GPU_TEST_CASE("increment with n = 0 launches nothing and leaves no error") {
  increment::launch(nullptr, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
