// kernel_narrow: matrices with a side of at most 16 floats, and short output rows off 16-byte
//   boundaries (at most 40 rows). The idea: one of the two matrices is then a run of short rows
//   back to back; each thread moves 4 consecutive floats of it with one 16-byte access and the 4
//   floats of the other matrix they pair with one by one. Limit: the one-by-one side; wider
//   sides take the tiles or the few-side kernels.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [narrow]
// A side of at most NARROW_SIDE floats: a 64 x 64 tile would be mostly empty. One of the two
// matrices is then a run of short rows that lie back to back: each thread takes 4 consecutive
// floats of it (one 16-byte access) and the 4 floats of the other matrix that they pair with.
// GATHER (rows <= cols): the output is the contiguous one, and the input is read float by float;
// otherwise the input is, and the output is written float by float.
template <bool GATHER, typename Index>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel_narrow(const float* __restrict__ in, float* __restrict__ out, Index n, Index side,
                  Index other_side) {
  // The contiguous matrix is [major][minor] with minor < side; its float (major, minor) pairs
  // with float minor * other_side + major of the other one.
  const Index first = (Index(blockIdx.x) * BLOCK_THREADS + threadIdx.x) * VEC;
  if (first >= n) return;
  Index major = first / side, minor = first - major * side;
  Index paired[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    paired[i] = minor * other_side + major;
    if (++minor == side) minor = 0, ++major;
  }
  const bool whole = first + VEC <= n;
  float v[VEC] = {0.0f, 0.0f, 0.0f, 0.0f};
  if constexpr (GATHER) {
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      if (first + i < n) v[i] = in[paired[i]];
    if (whole) {
      __stcs(reinterpret_cast<float4*>(out + first), make_float4(v[0], v[1], v[2], v[3]));
    } else {
      for (int i = 0; i < VEC; ++i)
        if (first + i < n) __stcs(out + first + i, v[i]);
    }
  } else {
    if (whole) {
      const float4 q = *reinterpret_cast<const float4*>(in + first);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
      for (int i = 0; i < VEC; ++i)
        if (first + i < n) v[i] = in[first + i];
    }
    // Plain stores: each fills part of a sector that neighbouring threads complete (evict-first
    // measured slower here, on the first H200 runs).
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      if (first + i < n) out[paired[i]] = v[i];
  }
}
//! [narrow]

}  // namespace transpose_any_shape
