// Exercise 10, histogram: tests (shared by the skeleton and the solution). Host: the reference.
// GPU: edge sizes with uniform, skewed and single-valued bytes; inputs at every offset from a
// 16-byte boundary with guard bytes around them that must not be counted; repeated launches; and
// counts past 2^32 where the device holds the bytes.
#include <histogram.cuh>

#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/testing.hpp"
#include "histogram_problem.hpp"

namespace {

// The device's counts of bytes, placed `offset` bytes past a 16-byte boundary between guard
// bytes (values that the input never holds in that test would show up in their bins).
std::vector<unsigned long long> run_gpu(const std::vector<std::uint8_t>& bytes, int offset = 0,
                                        int launches = 1, std::uint8_t guard = 0x7F) {
  constexpr std::int64_t GUARD = 37;
  const auto n = std::int64_t(bytes.size());
  std::vector<std::uint8_t> padded(offset + n + GUARD, guard);
  for (std::int64_t i = 0; i < n; ++i) padded[offset + i] = bytes[i];
  common::device_buffer<std::uint8_t> d_bytes(padded.size());
  common::device_buffer<unsigned long long> d_counts(histogram_problem::BINS);
  d_bytes.upload(padded);
  d_counts.poison();
  for (int l = 0; l < launches; ++l) histogram::launch(d_bytes.data() + offset, n, d_counts.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_counts.download();
}

std::vector<unsigned long long> reference(const std::vector<std::uint8_t>& bytes) {
  const histogram_problem::counts want = histogram_problem::histogram_reference(bytes);
  return {want.begin(), want.end()};
}

}  // namespace

HOST_TEST_CASE("histogram_reference counts every byte and the input is skewed as promised") {
  const std::vector<std::uint8_t> few{0, 255, 255, 0x20, 7};
  const std::vector<unsigned long long> counted = reference(few);
  CHECK(counted[0] == 1);
  CHECK(counted[255] == 2);
  CHECK(counted[0x20] == 1);
  CHECK(counted[7] == 1);
  const std::vector<std::uint8_t> bytes = histogram_problem::make_input((1 << 22) + 3, 1, 50);
  std::uint64_t bins[histogram_problem::BINS];
  histogram_problem::histogram_cpu(bytes.data(), std::int64_t(bytes.size()), bins);
  const std::vector<unsigned long long> want = reference(bytes);
  CHECK(std::vector<unsigned long long>(bins, bins + histogram_problem::BINS) == want);
  CHECK(want[histogram_problem::HOT_BYTE] > bytes.size() / 2);  // half, plus its uniform share
  CHECK(want[histogram_problem::HOT_BYTE] < bytes.size() / 2 + bytes.size() / 100);
  for (const std::uint8_t b : histogram_problem::make_input(1000, 2, 100))
    CHECK(b == histogram_problem::HOT_BYTE);
}

GPU_TEST_CASE("histogram matches the CPU at edge sizes for uniform skewed and constant bytes") {
  for (const int hot : {0, 50, 90, 100}) {
    for (const std::int64_t n : common::testing::edge_sizes(4096)) {
      CAPTURE(hot);
      CAPTURE(n);
      const std::vector<std::uint8_t> bytes = histogram_problem::make_input(n, 3 + n, hot);
      CHECK(run_gpu(bytes) == reference(bytes));
    }
  }
}

GPU_TEST_CASE("histogram counts inputs at every offset from a 16-byte boundary and no guard") {
  for (const std::int64_t n : {1, 2, 15, 16, 17, 31, 33, 4097, 100003}) {
    // Bytes 0 .. 100 only, so guards of 0xEE would show in their own bin.
    std::vector<std::uint8_t> bytes(n);
    for (std::int64_t i = 0; i < n; ++i) bytes[i] = std::uint8_t(i * 7 % 101);
    for (int offset = 0; offset < 16; ++offset) {
      CAPTURE(n);
      CAPTURE(offset);
      CHECK(run_gpu(bytes, offset, 1, 0xEE) == reference(bytes));
    }
  }
}

GPU_TEST_CASE("histogram gives the same counts when launched again") {
  const std::vector<std::uint8_t> bytes = histogram_problem::make_input(1000003, 8, 50);
  CHECK(run_gpu(bytes, 0, 3) == reference(bytes));
}

GPU_TEST_CASE("histogram counts past 2^32 in one bin") {
  const std::int64_t n = (std::int64_t(1) << 32) + 1000;
  if (!common::testing::device_holds(std::size_t(n) + std::size_t(n) / 2,
                                     "a histogram of 2^32 + 1000 bytes"))
    return;
  std::vector<std::uint8_t> bytes(n, histogram_problem::HOT_BYTE);
  bytes[12345] = 1;
  const std::vector<unsigned long long> got = run_gpu(bytes);
  CHECK(got[histogram_problem::HOT_BYTE] == std::uint64_t(n) - 1);
  CHECK(got[1] == 1);
}

GPU_TEST_CASE("histogram of n = 0 writes 256 zeros and leaves no error") {
  common::device_buffer<unsigned long long> d_counts(histogram_problem::BINS);
  d_counts.poison();
  histogram::launch(nullptr, 0, d_counts.data());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(d_counts.download() == std::vector<unsigned long long>(histogram_problem::BINS, 0));
}
