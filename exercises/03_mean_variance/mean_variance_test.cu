// Exercise 03, mean_variance: tests (shared by the skeleton and the solution). Host: the
// reference (small, and split between threads), and that the tolerance accepts a float Welford
// pass and rejects E[x^2] - E[x]^2 in float. GPU: edge sizes, offsets and spreads, constant
// arrays, misaligned starts.
#include <mean_variance.cuh>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/testing.hpp"
#include "mean_variance_problem.hpp"

namespace {

using mean_variance_problem::close_enough;
using mean_variance_problem::make_input;
using mean_variance_problem::mean_variance_cpu;
using mean_variance_problem::result;

// The GPU's answer for in, placed `offset` floats into its allocation (1 to 3: not 16-byte
// aligned), with huge values before and after that must not be read.
result gpu_mean_variance(const std::vector<float>& in, std::int64_t offset = 0) {
  const std::int64_t n = std::int64_t(in.size());
  std::vector<float> padded(std::size_t(offset), 1e30f);
  padded.insert(padded.end(), in.begin(), in.end());
  padded.push_back(-1e30f);
  common::device_buffer<float> d_in(padded.size());
  d_in.upload(padded);
  common::device_buffer<unsigned char> d_workspace(mean_variance::workspace_bytes(n));
  common::device_buffer<result> d_result(1);
  d_result.poison();
  mean_variance::launch(d_in.data() + offset, n, d_workspace.data(), d_result.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_result.download().at(0);
}

void check_gpu(const std::vector<float>& in, std::int64_t offset = 0) {
  const mean_variance_problem::reference want =
      mean_variance_cpu(in.data(), std::int64_t(in.size()));
  const result got = gpu_mean_variance(in, offset);
  CAPTURE(in.size());
  CAPTURE(offset);
  CAPTURE(got.mean);
  CAPTURE(want.want.mean);
  CAPTURE(got.variance);
  CAPTURE(want.want.variance);
  CHECK(close_enough(got, want));
}

}  // namespace

HOST_TEST_CASE("mean_variance_cpu gives the textbook values") {
  const std::vector<float> in{2, 4, 4, 4, 5, 5, 7, 9};
  const mean_variance_problem::reference r = mean_variance_cpu(in.data(), 8);
  CHECK(r.want.mean == 5.0);
  CHECK(r.want.variance == 4.0);
  CHECK(r.max_abs == 9.0);
  CHECK(r.max_deviation == 4.0);
  const std::vector<float> one{1234.5f};
  CHECK(mean_variance_cpu(one.data(), 1).want.variance == 0.0);
  const mean_variance_problem::reference empty = mean_variance_cpu(nullptr, 0);
  CHECK(std::isnan(empty.want.mean));
  CHECK(close_enough({std::nan(""), std::nan("")}, empty));
  CHECK_FALSE(close_enough({0.0, 0.0}, empty));
}

HOST_TEST_CASE("mean_variance_cpu adds every part of an array split between threads") {
  // Past 2^21 elements the reference splits the array between threads: every part must count.
  const std::int64_t n = (std::int64_t(1) << 22) + 3;
  std::vector<float> in = make_input(n, 9, 1000.0, 1.0);
  in.back() = 1100.0f;  // the largest value and the largest deviation sit in the last part
  long double sum = 0;
  for (const float x : in) sum += x;
  const long double mean = sum / n;
  long double m2 = 0;
  for (const float x : in) m2 += (x - mean) * (x - mean);
  const mean_variance_problem::reference r = mean_variance_cpu(in.data(), n);
  CHECK(std::fabs(r.want.mean - double(mean)) <= 1e-12 * double(mean));
  CHECK(std::fabs(r.want.variance - double(m2 / n)) <= 1e-9 * double(m2 / n));
  CHECK(r.max_abs == 1100.0);
  CHECK(std::fabs(r.max_deviation - (1100.0 - double(mean))) <= 1e-9);
}

HOST_TEST_CASE("the tolerance accepts float Welford and rejects E[x^2] - E[x]^2 in float") {
  const std::int64_t n = 100003;
  const std::vector<float> in = make_input(n, 5, 1000.0, 1.0);
  const mean_variance_problem::reference want = mean_variance_cpu(in.data(), n);
  // One float Welford run over all n elements: the weakest stable method.
  float mean = 0, m2 = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const float delta = in[i] - mean;
    mean += delta / float(i + 1);
    m2 += delta * (in[i] - mean);
  }
  CHECK(close_enough({mean, double(m2) / double(n)}, want));
  // The textbook formula in float, its sums even added in double before the final subtraction.
  double sum = 0, sum_squares = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    sum += in[i];
    sum_squares += double(in[i] * in[i]);  // each square rounded to float
  }
  const float e_x = float(sum / double(n)), e_x2 = float(sum_squares / double(n));
  CHECK_FALSE(close_enough({e_x, double(e_x2 - e_x * e_x)}, want));
  // Off by more than the tolerance in either result fails.
  const double mean_tol = mean_variance_problem::mean_tolerance(want);
  const double var_tol = mean_variance_problem::variance_tolerance(want);
  CHECK(var_tol < 0.01 * want.want.variance);
  CHECK_FALSE(close_enough({want.want.mean + 2 * mean_tol, want.want.variance}, want));
  CHECK_FALSE(close_enough({want.want.mean, want.want.variance + 2 * var_tol}, want));
}

GPU_TEST_CASE("mean_variance matches the CPU at edge sizes around offset 1000") {
  std::uint64_t seed = 1;
  for (const std::int64_t n : common::testing::edge_sizes(1024)) {
    CAPTURE(n);
    check_gpu(make_input(n, seed++, 1000.0, 1.0));
  }
}

GPU_TEST_CASE("mean_variance matches the CPU for other offsets and spreads") {
  const double shapes[][2] = {{0, 1}, {-20000, 3}, {100000, 10}, {0, 10000}, {-1000, 1000}};
  std::uint64_t seed = 100;
  for (const auto& shape : shapes) {
    for (const std::int64_t n : {std::int64_t(5), std::int64_t(4099), std::int64_t(1000003),
                                 (std::int64_t(1) << 24) + 3}) {
      CAPTURE(shape[0]);
      CAPTURE(shape[1]);
      CAPTURE(n);
      check_gpu(make_input(n, seed++, shape[0], shape[1]));
    }
  }
}

GPU_TEST_CASE("mean_variance of a constant array is its value with variance 0") {
  for (const std::int64_t n : {1, 2, 3, 33, 4097, 1000003}) {
    const std::vector<float> in(std::size_t(n), 1000.25f);
    const result got = gpu_mean_variance(in);
    CAPTURE(n);
    CHECK(close_enough(got, mean_variance_cpu(in.data(), n)));
    CHECK(got.variance < 1e-6);
  }
}

GPU_TEST_CASE("mean_variance reads from any float offset and nothing outside the array") {
  for (const std::int64_t offset : {1, 2, 3}) {
    for (const std::int64_t n : {1, 2, 3, 4, 5, 6, 7, 64, 1001, 100003}) {
      CAPTURE(n);
      check_gpu(make_input(n, std::uint64_t(n) + 7, 1000.0, 1.0), offset);
    }
  }
}

GPU_TEST_CASE("mean_variance with n = 0 writes NaN and leaves no error") {
  common::device_buffer<result> d_result(1);
  d_result.poison();
  mean_variance::launch(nullptr, 0, nullptr, d_result.data());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  const result got = d_result.download().at(0);
  CHECK(std::isnan(got.mean));
  CHECK(std::isnan(got.variance));
}
