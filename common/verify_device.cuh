// Checking a device array without a host copy of all of it: the elements come down in chunks
// through one pinned buffer, and each chunk is checked on all host cores (compare_elements). A
// check of 2^31 floats holds 256 MiB on the host instead of 8 GiB, and a pinned copy needs no
// staging by the driver.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

#include "common/check.cuh"
#include "common/verify.hpp"

namespace common {

constexpr std::size_t DEVICE_CHECK_CHUNK_BYTES = std::size_t(256) << 20;

// The elements i in [0, n) of d_data for which wrong(i, got) holds, got being the element's
// value: their count and the first few as describe(i, got), as compare_elements() reports them
// (chunk_bytes: the pinned buffer's size; the tests make it small).
template <class T, class Wrong, class Describe>
check_result compare_device_elements(const std::string& what, const T* d_data, std::size_t n,
                                     Wrong wrong, Describe describe_element,
                                     std::size_t chunk_bytes = DEVICE_CHECK_CHUNK_BYTES) {
  check_result r{what, n, 0, {}};
  if (n == 0) return r;
  const std::size_t chunk = std::min(n, std::max<std::size_t>(1, chunk_bytes / sizeof(T)));
  T* pinned = nullptr;
  CUDA_CHECK(cudaMallocHost(&pinned, chunk * sizeof(T)));
  const std::unique_ptr<T, cudaError_t (*)(void*)> host(pinned, cudaFreeHost);
  for (std::size_t begin = 0; begin < n; begin += chunk) {
    const std::size_t count = std::min(chunk, n - begin);
    CUDA_CHECK(cudaMemcpy(pinned, d_data + begin, count * sizeof(T), cudaMemcpyDeviceToHost));
    const check_result part = compare_elements(
        what, count, [&](std::size_t j) { return wrong(begin + j, pinned[j]); },
        [&](std::size_t j) { return describe_element(begin + j, pinned[j]); });
    r.mismatches += part.mismatches;
    for (const mismatch& m : part.first)
      if (r.first.size() < MAX_REPORTED_MISMATCHES) r.first.push_back(m);
  }
  return r;
}

}  // namespace common
