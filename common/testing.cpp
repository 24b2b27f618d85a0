#include "common/testing.hpp"

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime_api.h>

#include "common/device_info.cuh"
#include "common/exit_codes.hpp"

namespace common::testing {

void skip_without_gpu() {
  const std::string why = why_no_cuda_device();
  if (why.empty()) return;
  std::fprintf(stderr, "no CUDA device (%s): GPU test skipped, exit %d\n", why.c_str(),
               EXIT_NO_DEVICE);
  std::exit(EXIT_NO_DEVICE);
}

void skip_unless_available(bool available, const char* why) {
  if (available) return;
  std::fprintf(stderr, "not available on this GPU: %s: GPU test skipped, exit %d\n", why,
               EXIT_NO_DEVICE);
  std::exit(EXIT_NO_DEVICE);
}

bool device_holds(std::size_t bytes, const char* what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return true;  // the case reports it
  const std::size_t spare = std::size_t(1) << 30;
  if (free_bytes >= bytes && free_bytes - bytes >= spare) return true;
  std::fprintf(stderr,
               "%s needs %.1f GB of device memory and 1 GB to spare; this GPU has %.1f GB free: "
               "GPU test skipped\n",
               what, double(bytes) / 1e9, double(free_bytes) / 1e9);
  return false;
}

std::vector<std::int64_t> edge_sizes(std::int64_t block) {
  return {0, 1, 2, 31, 32, 33, block - 1, block, block + 1, 1000, 4097, 100003, 1000003,
          (std::int64_t(1) << 24) + 7};
}

}  // namespace common::testing
