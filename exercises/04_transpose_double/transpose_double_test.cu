// Exercise 04, transpose_double: tests (shared by the skeleton and the solution). Host: the
// reference. GPU: every shape class (empty, thin, square, tile edges, taller than 65535 tiles),
// guard elements after the output, and a matrix past 2^31 elements checked on the device.
#include <transpose_double.cuh>

#include <cstdint>
#include <utility>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/testing.hpp"
#include "transpose_double_problem.hpp"

namespace {

// Element i of the pattern: i itself, exact in a double below 2^53.
__global__ void fill_with_index(double* a, std::int64_t count) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
    a[i] = double(i);
}

// Counts the output elements that are not their input element's index.
__global__ void count_wrong(const double* out, std::int64_t rows, std::int64_t cols,
                            unsigned long long* wrong) {
  const std::int64_t count = rows * cols, step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    const std::int64_t c = i / rows, r = i % rows;  // out[c][r] = in[r][c]
    if (out[i] != double(r * cols + c)) atomicAdd(wrong, 1ull);
  }
}

}  // namespace

HOST_TEST_CASE("transpose_cpu transposes and keeps every bit") {
  const std::vector<double> in{1, 2, 3, 4, 5, 6};  // 2 x 3
  std::vector<double> out(6);
  transpose_double_problem::transpose_cpu(in.data(), out.data(), 2, 3);
  CHECK(out == std::vector<double>{1, 4, 2, 5, 3, 6});
  const std::int64_t rows = 130, cols = 67;
  const std::vector<double> big = transpose_double_problem::make_input(rows, cols, 3);
  std::vector<double> t(big.size()), back(big.size());
  transpose_double_problem::transpose_cpu(big.data(), t.data(), rows, cols);
  transpose_double_problem::transpose_cpu(t.data(), back.data(), cols, rows);
  CHECK(back == big);
  CHECK(t[5 * rows + 7] == big[7 * cols + 5]);
}

GPU_TEST_CASE("transpose_double matches the CPU at every shape with guards untouched") {
  constexpr std::int64_t GUARD = 41;
  constexpr double SENTINEL = -777.25;
  const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
      {0, 0},       {0, 7},       {7, 0},      {1, 1},       {1, 1000},    {1000, 1},
      {2, 2},       {31, 33},     {33, 31},    {32, 32},     {8, 300},     {300, 8},
      {96, 64},     {257, 131},   {65, 97},    {2048, 2048}, {4097, 1023}, {1023, 4097},
      {3000000, 1}, {1, 3000000}, {2100001, 2}};  // the last three: more than 65535 tiles in one
                                                  // direction
  std::uint64_t seed = 1;
  for (const auto& shape : shapes) {
    const std::int64_t rows = shape.first, cols = shape.second;
    CAPTURE(rows);
    CAPTURE(cols);
    const std::vector<double> in = transpose_double_problem::make_input(rows, cols, seed++);
    std::vector<double> want(in.size());
    transpose_double_problem::transpose_cpu(in.data(), want.data(), rows, cols);
    want.resize(in.size() + GUARD, SENTINEL);
    common::device_buffer<double> d_in(in.size()), d_out(want.size());
    d_in.upload(in);
    d_out.upload(std::vector<double>(want.size(), SENTINEL));
    transpose_double::launch(d_in.data(), d_out.data(), rows, cols);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<double> got = d_out.download();
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += !(got[i] == want[i]);
    CHECK(wrong == 0);
  }
}

GPU_TEST_CASE("transpose_double handles more than 2^31 elements (64-bit indices)") {
  const std::int64_t rows = 65537, cols = 32771;  // 2^31 + 98307 elements, neither a multiple of 32
  const std::size_t bytes = std::size_t(rows * cols) * sizeof(double);
  if (!common::testing::device_holds(2 * bytes, "two matrices of 2^31 + 98307 doubles")) return;
  common::device_buffer<double> d_in(std::size_t(rows * cols)), d_out(std::size_t(rows * cols));
  common::device_buffer<unsigned long long> d_wrong(1);
  CUDA_CHECK(cudaMemset(d_wrong.data(), 0, sizeof(unsigned long long)));
  d_out.poison();
  fill_with_index<<<4096, 256>>>(d_in.data(), rows * cols);
  CUDA_CHECK_LAUNCH();
  transpose_double::launch(d_in.data(), d_out.data(), rows, cols);
  count_wrong<<<4096, 256>>>(d_out.data(), rows, cols, d_wrong.data());
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(d_wrong.download().at(0) == 0);
}
