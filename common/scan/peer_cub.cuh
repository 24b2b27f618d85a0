// The library a professional would call instead of Part III's kernels: cub::DeviceScan. Kept in
// one translation unit (peer_cub.cu) because CUB headers take ~15 s to compile.
#pragma once

#include <cstddef>
#include <cstdint>

namespace common {

// Bytes of temporary storage cub::DeviceScan::ExclusiveSum (or InclusiveSum) needs for n elements.
template <class T>
std::size_t cub_scan_temp_bytes(std::int64_t n, bool inclusive);

// d_out[0, n) = the exclusive (or inclusive) sum of d_in[0, n), on stream 0, using d_temp
// (cub_scan_temp_bytes(n) bytes) allocated by the caller outside any timed region.
template <class T>
void cub_scan(const T* d_in, std::int64_t n, T* d_out, void* d_temp, std::size_t temp_bytes,
              bool inclusive);

}  // namespace common
