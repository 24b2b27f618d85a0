// The library a professional would call instead of Part I's kernels: cub::DeviceReduce::Sum,
// called with a 64-bit item count (as for an array of any size). Kept in one translation unit
// (peer_cub.cu) because CUB headers take ~15 s to compile.
#pragma once

#include <cstddef>
#include <cstdint>

namespace common {

// Bytes of temporary storage cub::DeviceReduce::Sum needs for n elements (query only).
template <class T>
std::size_t cub_sum_temp_bytes(std::int64_t n);

// *d_out = sum of d_in[0, n), on stream 0, using d_temp (cub_sum_temp_bytes(n) bytes) allocated
// by the caller outside any timed region.
template <class T>
void cub_sum(const T* d_in, std::int64_t n, T* d_out, void* d_temp, std::size_t temp_bytes);

}  // namespace common
