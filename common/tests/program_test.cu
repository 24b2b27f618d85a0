// GPU tests of common/'s device side: buffers, timing, the L2 flush, the yardsticks.
#include <cmath>

#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/testing.hpp"
#include "common/timing.cuh"
#include "common/yardsticks.cuh"

namespace {
__global__ void spin(float* out, int iterations) {
  float x = threadIdx.x;
  for (int i = 0; i < iterations; ++i) x = x * 0.999f + 1.0f;
  out[threadIdx.x] = x;
}
}  // namespace

HOST_TEST_CASE("poison bytes are NaN for floats and a sentinel for integers") {
  CHECK(common::poison_byte<float>() == 0xFF);
  CHECK(common::poison_byte<int>() == 0xAB);
}

GPU_TEST_CASE("device_buffer uploads downloads poisons and moves") {
  common::device_buffer<float> a(5);
  a.upload({1, 2, 3, 4, 5});
  CHECK(a.download() == std::vector<float>{1, 2, 3, 4, 5});
  a.poison();
  for (float x : a.download()) CHECK(std::isnan(x));
  common::device_buffer<float> b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(b.size() == 5);
  CHECK_THROWS(b.upload({1, 2}));
  common::device_buffer<int> empty(0);
  CHECK(empty.download().empty());
  empty.poison();
}

GPU_TEST_CASE("time_repeated takes the requested samples and longer work takes longer") {
  common::l2_flusher flusher(common::query_device().l2_bytes);
  common::device_buffer<float> out(32);
  common::timing_options options{2, 21};
  int prepared = 0;
  const auto short_run = common::time_repeated(options, flusher, [&] { ++prepared; }, [&] {
    spin<<<1, 32>>>(out.data(), 1000);
  });
  const auto long_run = common::time_repeated(options, flusher, [] {}, [&] {
    spin<<<1, 32>>>(out.data(), 1000000);
  });
  CHECK(prepared == 23);
  CHECK(short_run.reps == 21);
  CHECK(short_run.min_ms <= short_run.median_ms);
  CHECK(short_run.median_ms <= short_run.max_ms);
  CHECK(long_run.median_ms > 10 * short_run.median_ms);
}

GPU_TEST_CASE("yardsticks at 256 MB are positive and below the theoretical bandwidth") {
  const auto device = common::query_device();
  common::l2_flusher flusher(device.l2_bytes);
  const auto y = common::measure_yardsticks(std::size_t(1) << 28, {2, 20}, flusher);
  CHECK(y.copy_gbps > 0.3 * device.theoretical_gbps);
  CHECK(y.read_gbps > 0.3 * device.theoretical_gbps);
  CHECK(y.copy_gbps < 1.05 * device.theoretical_gbps);
  CHECK(y.read_gbps < 1.05 * device.theoretical_gbps);
  CHECK(common::measure_yardsticks(0, {1, 1}, flusher).copy_gbps == 0);
}
