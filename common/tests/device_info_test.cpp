#include <algorithm>
#include "common/device_info.cuh"
#include "common/testing.hpp"

HOST_TEST_CASE("gpu_slug makes a file name from a GPU name") {
  CHECK(common::gpu_slug("NVIDIA H100 80GB HBM3") == "nvidia-h100-80gb-hbm3");
  CHECK(common::gpu_slug("NVIDIA H200") == "nvidia-h200");
  CHECK(common::gpu_slug("  GeForce GTX 1050 Ti!! ") == "geforce-gtx-1050-ti");
  CHECK(common::gpu_slug("") == "unknown-gpu");
}

HOST_TEST_CASE("CUDA versions print as major.minor") {
  CHECK(common::cuda_version_string(13000) == "13.0");
  CHECK(common::cuda_version_string(12080) == "12.8");
}

HOST_TEST_CASE("describe_device lists the metadata the results file needs") {
  common::device_info d;
  d.name = "Test GPU";
  d.memory_clock_khz = 2619000;
  d.bus_width_bits = 5120;
  d.theoretical_gbps = 3352.32;
  std::vector<std::string> keys;
  for (const auto& kv : common::describe_device(d)) keys.push_back(kv.first);
  for (const char* key : {"gpu", "sm_count", "l2_bytes", "memory_clock_khz", "bus_width_bits",
                          "theoretical_gbps", "driver_cuda_version", "runtime_cuda_version"})
    CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
}

GPU_TEST_CASE("query_device reads a plausible device") {
  const auto d = common::query_device(0);
  CHECK_FALSE(d.name.empty());
  CHECK(d.sm_count > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.theoretical_gbps > 100);
  CHECK(d.free_bytes <= d.total_bytes);
}
