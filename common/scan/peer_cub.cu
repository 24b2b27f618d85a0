#include <cub/device/device_scan.cuh>

#include "common/check.cuh"
#include "common/scan/peer_cub.cuh"

namespace common {

template <class T>
std::size_t cub_scan_temp_bytes(std::int64_t n, bool inclusive) {
  std::size_t bytes = 0;
  const T* in = nullptr;
  T* out = nullptr;
  if (inclusive)
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n));
  else
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
  return bytes;
}

template <class T>
void cub_scan(const T* d_in, std::int64_t n, T* d_out, void* d_temp, std::size_t temp_bytes,
              bool inclusive) {
  if (inclusive)
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
  else
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
}

template std::size_t cub_scan_temp_bytes<std::int32_t>(std::int64_t, bool);
template std::size_t cub_scan_temp_bytes<float>(std::int64_t, bool);
template void cub_scan<std::int32_t>(const std::int32_t*, std::int64_t, std::int32_t*, void*,
                                     std::size_t, bool);
template void cub_scan<float>(const float*, std::int64_t, float*, void*, std::size_t, bool);

}  // namespace common
