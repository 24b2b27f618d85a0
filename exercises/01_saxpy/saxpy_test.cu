// Exercise 01, saxpy: tests (shared by the skeleton and the solution). Host: the reference. GPU:
// edge sizes and block sizes, with guard elements after y that must stay untouched.
#include <saxpy.cuh>

#include <cmath>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "common/verify.hpp"
#include "saxpy_problem.hpp"

HOST_TEST_CASE("saxpy_cpu computes a*x + y with one rounding") {
  const std::vector<float> x{1.0f, -2.0f, 0.5f};
  std::vector<float> y{10.0f, 4.0f, -1.0f};
  saxpy_problem::saxpy_cpu(2.0f, x.data(), y.data(), 3);
  CHECK(y == std::vector<float>{12.0f, 0.0f, 0.0f});
  CHECK(saxpy_problem::close_enough(1.0f, 1.0f, 1.0f, 1.0f, 0.0f));
  CHECK_FALSE(saxpy_problem::close_enough(1.001f, 1.0f, 1.0f, 1.0f, 0.0f));
}

HOST_TEST_CASE("saxpy's inputs are seeded sixteenths within their limits") {
  for (const float limit : {saxpy_problem::X_LIMIT, saxpy_problem::Y_LIMIT}) {
    const std::vector<float> raw = common::random_floats(5000, 11, -limit, limit);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      const float v = saxpy_problem::input_at(11, i, limit);
      CHECK(v == std::round(raw[i] * 16.0f) / 16.0f);
      CHECK(std::fabs(v) <= limit);
      CHECK(v * 16.0f == std::trunc(v * 16.0f));
    }
  }
  CHECK(saxpy_problem::input_at(11, 7, 100.0f) != saxpy_problem::input_at(12, 7, 100.0f));
}

GPU_TEST_CASE("saxpy matches the CPU at edge sizes and block sizes with guards untouched") {
  constexpr std::int64_t GUARD = 37;
  constexpr float SENTINEL = -12345.0f;
  const float a = saxpy_problem::A;
  for (const int block : {64, 1, 33, 256, 1024}) {
    for (const std::int64_t n : common::testing::edge_sizes(block)) {
      CAPTURE(block);
      CAPTURE(n);
      const std::vector<float> x = common::random_floats(n, 7 + n, -100.0f, 100.0f);
      std::vector<float> y = common::random_floats(n, 8 + n, -100.0f, 100.0f);
      std::vector<float> want = y;
      saxpy_problem::saxpy_cpu(a, x.data(), want.data(), n);
      y.resize(n + GUARD, SENTINEL);
      common::device_buffer<float> d_x(n), d_y(n + GUARD);
      d_x.upload(x);
      d_y.upload(y);
      saxpy::launch(a, d_x.data(), d_y.data(), n, block);
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<float> got = d_y.download();
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < n; ++i)
        wrong += !saxpy_problem::close_enough(got[i], want[i], a, x[i], y[i]);
      for (std::int64_t i = n; i < n + GUARD; ++i) wrong += got[i] != SENTINEL;
      CHECK(wrong == 0);
    }
  }
}

GPU_TEST_CASE("saxpy with n = 0 launches nothing and leaves no error") {
  saxpy::launch(saxpy_problem::A, nullptr, nullptr, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
