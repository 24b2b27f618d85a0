// Exercise 05, rotate90: tests (shared by the skeleton and the solution). Host: the reference.
// GPU: every shape class (empty, thin, square, tile edges, more than 65535 tiles), guard elements
// after the output, and a matrix past 2^31 elements checked on the device.
#include <rotate90.cuh>

#include <cstdint>
#include <utility>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "rotate90_problem.hpp"

namespace {

// Element i of the pattern: the float whose bits are the low 32 bits of i (distinct below 2^32,
// compared bit for bit, so NaN patterns are fine).
__global__ void fill_with_index_bits(float* a, std::int64_t count) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
    a[i] = __uint_as_float(unsigned(i));
}

// Counts the output elements that do not hold their input element's bits.
__global__ void count_wrong(const float* out, std::int64_t rows, std::int64_t cols,
                            unsigned long long* wrong) {
  const std::int64_t count = rows * cols, step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    const std::int64_t c = i / rows, r = rows - 1 - i % rows;  // out[c][rows-1-r] = in[r][c]
    if (__float_as_uint(out[i]) != unsigned(r * cols + c)) atomicAdd(wrong, 1ull);
  }
}

}  // namespace

HOST_TEST_CASE("rotate_cpu turns a matrix clockwise") {
  // 2 x 3:  1 2 3      3 x 2:  4 1
  //         4 5 6   ->         5 2
  //                            6 3
  const std::vector<float> in{1, 2, 3, 4, 5, 6};
  std::vector<float> out(6);
  rotate90_problem::rotate_cpu(in.data(), out.data(), 2, 3);
  CHECK(out == std::vector<float>{4, 1, 5, 2, 6, 3});
  // Four quarter turns give the matrix back.
  const std::int64_t rows = 130, cols = 67;
  std::vector<float> a = common::random_floats(std::size_t(rows * cols), 3, -1.0f, 1.0f),
                     b(a.size());
  const std::vector<float> start = a;
  std::int64_t r = rows, c = cols;
  for (int turn = 0; turn < 4; ++turn) {
    rotate90_problem::rotate_cpu(a.data(), b.data(), r, c);
    std::swap(a, b);
    std::swap(r, c);
  }
  CHECK(a == start);
}

GPU_TEST_CASE("rotate90 matches the CPU at every shape with guards untouched") {
  constexpr std::int64_t GUARD = 41;
  constexpr float SENTINEL = -777.25f;
  const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
      {0, 0},       {0, 7},       {7, 0},      {1, 1},       {1, 1000},    {1000, 1},
      {2, 2},       {31, 33},     {33, 31},    {32, 32},     {8, 300},     {300, 8},
      {96, 64},     {257, 131},   {65, 97},    {2048, 2048}, {4097, 1023}, {1023, 4097},
      {3000000, 1}, {1, 3000000}, {2, 2100001}};  // the last three: more than 65535 tiles
  std::uint64_t seed = 1;
  for (const auto& shape : shapes) {
    const std::int64_t rows = shape.first, cols = shape.second;
    CAPTURE(rows);
    CAPTURE(cols);
    const std::vector<float> in =
        common::random_floats(std::size_t(rows * cols), seed++, -1.0f, 1.0f);
    std::vector<float> want(in.size());
    rotate90_problem::rotate_cpu(in.data(), want.data(), rows, cols);
    want.resize(in.size() + GUARD, SENTINEL);
    common::device_buffer<float> d_in(in.size()), d_out(want.size());
    d_in.upload(in);
    d_out.upload(std::vector<float>(want.size(), SENTINEL));
    rotate90::launch(d_in.data(), d_out.data(), rows, cols);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = d_out.download();
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += !(got[i] == want[i]);
    CHECK(wrong == 0);
  }
}

GPU_TEST_CASE("rotate90 handles more than 2^31 elements (64-bit indices)") {
  const std::int64_t rows = 32771, cols = 65537;  // 2^31 + 98307 elements, neither a multiple of 32
  const std::size_t bytes = std::size_t(rows * cols) * sizeof(float);
  if (!common::testing::device_holds(2 * bytes, "two matrices of 2^31 + 98307 floats")) return;
  common::device_buffer<float> d_in(std::size_t(rows * cols)), d_out(std::size_t(rows * cols));
  common::device_buffer<unsigned long long> d_wrong(1);
  CUDA_CHECK(cudaMemset(d_wrong.data(), 0, sizeof(unsigned long long)));
  d_out.poison();
  fill_with_index_bits<<<4096, 256>>>(d_in.data(), rows * cols);
  CUDA_CHECK_LAUNCH();
  rotate90::launch(d_in.data(), d_out.data(), rows, cols);
  count_wrong<<<4096, 256>>>(d_out.data(), rows, cols, d_wrong.data());
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(d_wrong.download().at(0) == 0);
}
