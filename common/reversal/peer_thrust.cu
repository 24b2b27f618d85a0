#include <thrust/execution_policy.h>
#include <thrust/reverse.h>

#include "common/check.cuh"
#include "common/reversal/peer_thrust.cuh"

namespace common {

template <class T>
void thrust_reverse_copy(const T* d_in, T* d_out, std::int64_t n) {
  thrust::reverse_copy(thrust::cuda::par_nosync, d_in, d_in + n, d_out);
  CUDA_CHECK_LAUNCH();
}

template <class T>
void thrust_reverse(T* d_data, std::int64_t n) {
  thrust::reverse(thrust::cuda::par_nosync, d_data, d_data + n);
  CUDA_CHECK_LAUNCH();
}

template void thrust_reverse_copy<std::int32_t>(const std::int32_t*, std::int32_t*, std::int64_t);
template void thrust_reverse_copy<float>(const float*, float*, std::int64_t);
template void thrust_reverse_copy<std::int64_t>(const std::int64_t*, std::int64_t*, std::int64_t);
template void thrust_reverse<std::int32_t>(std::int32_t*, std::int64_t);
template void thrust_reverse<float>(float*, std::int64_t);
template void thrust_reverse<std::int64_t>(std::int64_t*, std::int64_t);

}  // namespace common
