#include <cuda_runtime.h>

#include <cctype>
#include <cstdio>

#include "common/bandwidth.hpp"
#include "common/check.cuh"
#include "common/device_info.cuh"

namespace common {

std::string why_no_cuda_device() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
  }
  if (count == 0) return "the CUDA runtime found no device";
  return "";
}

bool has_cuda_device() { return why_no_cuda_device().empty(); }

device_info query_device(int ordinal) {
  device_info d;
  d.ordinal = ordinal;
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = std::size_t(p.l2CacheSize);
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.shared_bytes_per_sm = p.sharedMemPerMultiprocessor;
  // The memory clock left cudaDeviceProp in CUDA 13; the attribute remains.
  CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
  d.theoretical_gbps = theoretical_gb_per_s(d.memory_clock_khz, d.bus_width_bits);
  CUDA_CHECK(cudaSetDevice(ordinal));
  CUDA_CHECK(cudaMemGetInfo(&d.free_bytes, &d.total_bytes));
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::vector<std::pair<std::string, std::string>> describe_device(const device_info& d) {
  char theoretical[32];
  std::snprintf(theoretical, sizeof theoretical, "%.0f", d.theoretical_gbps);
  return {
      {"gpu", d.name},
      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
      {"sm_count", std::to_string(d.sm_count)},
      {"l2_bytes", std::to_string(d.l2_bytes)},
      {"memory_bytes", std::to_string(d.total_bytes)},
      {"memory_clock_khz", std::to_string(d.memory_clock_khz)},
      {"bus_width_bits", std::to_string(d.bus_width_bits)},
      {"theoretical_gbps", theoretical},
      {"driver_cuda_version", cuda_version_string(d.driver_version)},
      {"runtime_cuda_version", cuda_version_string(d.runtime_version)},
  };
}

std::string gpu_slug(const std::string& name) {
  std::string slug;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown-gpu" : slug;
}

}  // namespace common
