// What the book records about the GPU it measured: name, SMs, L2, memory system, versions.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace common {

struct device_info {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t total_bytes = 0, free_bytes = 0;
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  double theoretical_gbps = 0;  // 2 * clock * bus width / 8
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  std::size_t shared_bytes_per_sm = 0;
  int driver_version = 0, runtime_version = 0;  // 13000 = CUDA 13.0
};

// Empty when device 0 is usable; otherwise the reason (no driver, no device, ...). Never exits.
std::string why_no_cuda_device();
bool has_cuda_device();

device_info query_device(int ordinal = 0);

// "13.0" from 13000.
std::string cuda_version_string(int version);

// Key/value pairs for result-file metadata and for the human banner.
std::vector<std::pair<std::string, std::string>> describe_device(const device_info& d);

// "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3": a file name for that GPU's results.
std::string gpu_slug(const std::string& name);

}  // namespace common
