#include <cub/device/device_reduce.cuh>

#include "common/check.cuh"
#include "common/reduction/peer_cub.cuh"

namespace common {

template <class T>
std::size_t cub_sum_temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr),
                                    static_cast<T*>(nullptr), n));
  return bytes;
}

template <class T>
void cub_sum(const T* d_in, std::int64_t n, T* d_out, void* d_temp, std::size_t temp_bytes) {
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n));
}

template std::size_t cub_sum_temp_bytes<std::int32_t>(std::int64_t);
template std::size_t cub_sum_temp_bytes<float>(std::int64_t);
template void cub_sum<std::int32_t>(const std::int32_t*, std::int64_t, std::int32_t*, void*,
                                    std::size_t);
template void cub_sum<float>(const float*, std::int64_t, float*, void*, std::size_t);

}  // namespace common
