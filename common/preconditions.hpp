// preconditions.hpp: the argument checks of the final steps' reusable launch functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace common {

// Do the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte? (Empty ranges share none.)
inline bool overlapping(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes > 0 && b_bytes > 0 && x < y + b_bytes && y < x + a_bytes;
}

// Is p aligned to `alignment` bytes (a power of two)?
inline bool aligned_to(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

}  // namespace common
