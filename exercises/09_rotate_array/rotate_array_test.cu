// Exercise 09, rotate_array: tests (shared by the skeleton and the solution). Host: the reference
// and the shift for extreme k. GPU: edge sizes times shifts that are 0, small, n - 1, n, larger
// than n, negative, and the extremes of int64, on arrays at every 4-byte offset from a 16-byte
// boundary, with guard elements around the output that must stay untouched.
#include <rotate_array.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "rotate_array_problem.hpp"

namespace {

constexpr std::int64_t INT64_LOWEST = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t INT64_HIGHEST = std::numeric_limits<std::int64_t>::max();

// Rotates in on the device with d_in and d_out placed in_offset and out_offset elements past a
// 16-byte boundary, GUARD sentinels before and after the output; counts wrong and changed guards.
std::int64_t wrong_elements(const std::vector<std::int32_t>& in, std::int64_t k, int in_offset,
                            int out_offset) {
  constexpr std::int64_t GUARD = 37;
  constexpr std::int32_t SENTINEL = -12345;
  const auto n = std::int64_t(in.size());
  std::vector<std::int32_t> padded_in(in_offset + n, SENTINEL);
  std::copy(in.begin(), in.end(), padded_in.begin() + in_offset);
  std::vector<std::int32_t> out(out_offset + n + GUARD, SENTINEL);
  common::device_buffer<std::int32_t> d_in(padded_in.size()), d_out(out.size());
  d_in.upload(padded_in);
  d_out.upload(out);
  rotate_array::launch(d_in.data() + in_offset, n, k, d_out.data() + out_offset);
  CUDA_CHECK(cudaDeviceSynchronize());
  d_out.download(out);
  const std::vector<std::int32_t> want = rotate_array_problem::rotate_reference(in, k);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < out_offset; ++i) wrong += out[i] != SENTINEL;
  for (std::int64_t i = 0; i < n; ++i) wrong += out[out_offset + i] != want[i];
  for (std::int64_t i = out_offset + n; i < std::int64_t(out.size()); ++i)
    wrong += out[i] != SENTINEL;
  return wrong;
}

}  // namespace

HOST_TEST_CASE("rotate_cpu moves element i to (i + k) mod n for every k") {
  const std::vector<std::int32_t> in{10, 11, 12, 13, 14};
  std::vector<std::int32_t> out(5);
  rotate_array_problem::rotate_cpu(in.data(), 5, 2, out.data());
  CHECK(out == std::vector<std::int32_t>{13, 14, 10, 11, 12});
  rotate_array_problem::rotate_cpu(in.data(), 5, -1, out.data());
  CHECK(out == std::vector<std::int32_t>{11, 12, 13, 14, 10});
  CHECK(rotate_array_problem::rotate_reference(in, 12) ==
        rotate_array_problem::rotate_reference(in, 2));
  CHECK(rotate_array_problem::shift(INT64_LOWEST, 7) == 6);   // -2^63 mod 7 = 6
  CHECK(rotate_array_problem::shift(INT64_HIGHEST, 7) == 0);  // 2^63 - 1 = 7 * 1317624576693539401
  CHECK(rotate_array_problem::shift(-7, 7) == 0);
  const std::vector<std::int32_t> big = common::random_ints((1 << 22) + 3, 5, -100, 100);
  std::vector<std::int32_t> want(big.size());
  rotate_array_problem::rotate_cpu(big.data(), std::int64_t(big.size()), -999, want.data());
  CHECK(rotate_array_problem::rotate_reference(big, -999) == want);
}

GPU_TEST_CASE("rotate_array matches the CPU at edge sizes for every kind of k") {
  for (const std::int64_t n : common::testing::edge_sizes(1024)) {
    const std::vector<std::int32_t> in = common::random_ints(n, 9 + n, -1000000, 1000000);
    for (const std::int64_t k :
         {std::int64_t(0), std::int64_t(1), std::int64_t(-1), std::int64_t(3), std::int64_t(4),
          std::int64_t(6), n - 1, n, n + 5, -n - 2, 3 * n + 4097, INT64_LOWEST, INT64_HIGHEST}) {
      CAPTURE(n);
      CAPTURE(k);
      CHECK(wrong_elements(in, k, 0, 0) == 0);
    }
  }
}

GPU_TEST_CASE("rotate_array handles arrays at every offset from a 16-byte boundary") {
  for (const std::int64_t n : {1, 3, 4, 5, 7, 8, 1023, 1025, 4099, 100003}) {
    const std::vector<std::int32_t> in = common::random_ints(n, 21 + n, -1000000, 1000000);
    for (const int in_offset : {0, 1, 2, 3}) {
      for (const int out_offset : {0, 1, 2, 3}) {
        for (const std::int64_t k :
             {std::int64_t(0), std::int64_t(2), std::int64_t(-5), n / 2 + 1}) {
          CAPTURE(n);
          CAPTURE(in_offset);
          CAPTURE(out_offset);
          CAPTURE(k);
          CHECK(wrong_elements(in, k, in_offset, out_offset) == 0);
        }
      }
    }
  }
}

GPU_TEST_CASE("rotate_array with n = 0 launches nothing and leaves no error") {
  rotate_array::launch(nullptr, 0, 12345, nullptr);
  rotate_array::launch(nullptr, 0, INT64_LOWEST, nullptr);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
