// wide_fetch: where the output rows are aligned and the input rows start off 256-byte boundaries,
//   the input loads ask the L2 to fetch the whole aligned 256 bytes around them from DRAM (PTX
//   ld's .L2::256B prefetch size), not only the sectors they read: a tile's 256 bytes of such a
//   row then come from DRAM in two whole 256-byte pieces, shared with the tile beside it. Limit:
//   sm_80 or newer; the plan uses it only where the GPU and the build have it (plan.hpp).
#pragma once

#include <cuda_runtime.h>

namespace transpose_any_shape {

//! [wide_fetch]
// A 16-byte load of input floats; WIDE_FETCH: with the .L2::256B prefetch size (a plain load in a
// build without sm_80 code, where the plan does not ask for it).
template <bool WIDE_FETCH = false>
__device__ __forceinline__ float4 load_input(const float* p) {
#if __CUDA_ARCH__ >= 800
  if constexpr (WIDE_FETCH) {
    float4 v;
    asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
        : "l"(p));
    return v;
  }
#endif
  return *reinterpret_cast<const float4*>(p);
}
// transpose_fast's full_tile reads its input through this.
template <bool WIDE_FETCH>
struct input_loads {
  __device__ __forceinline__ static float4 load(const float* p) {
    return load_input<WIDE_FETCH>(p);
  }
};
//! [wide_fetch]

}  // namespace transpose_any_shape
