// The library a professional would call instead of Part V's kernels: thrust::reverse_copy (out of
// place) and thrust::reverse (in place). Kept in one translation unit (peer_thrust.cu): Thrust's
// headers are slow to compile.
#pragma once

#include <cstdint>

namespace common {

// d_out[n - 1 - i] = d_in[i], on stream 0, without a synchronization of its own (par_nosync), so
// that the events time the kernel, as they do for ours.
template <class T>
void thrust_reverse_copy(const T* d_in, T* d_out, std::int64_t n);

// d_data[0, n) reversed in place, on stream 0, par_nosync.
template <class T>
void thrust_reverse(T* d_data, std::int64_t n);

}  // namespace common
