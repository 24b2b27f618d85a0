// vector4<T>::type: the 16-byte vector of four T (int4 for int32, float4 for float), for the
// steps that load and store four elements with one instruction.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace common {

template <class T>
struct vector4;
template <>
struct vector4<std::int32_t> {
  using type = int4;
};
template <>
struct vector4<float> {
  using type = float4;
};

}  // namespace common
