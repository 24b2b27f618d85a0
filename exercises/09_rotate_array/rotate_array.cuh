// Exercise 09, rotate_array: rotate an int32 array by k places, out of place:
// out[(i + k) mod n] = in[i] for any n and any 64-bit k, negative or larger than n.
// Practises Part V: the reversal's index mapping, here with an offset that wraps around, and
// 16-byte accesses where the offset lets input and output groups line up (and where it does not).
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace rotate_array {

// >>> YOUR CODE: kernels
// TODO: the kernel(s) (and any constants and device functions they need). Which input element
//       does output element j take? Start from one thread per output element.
// <<< YOUR CODE

// d_in and d_out hold n ints each (distinct arrays, each at any 4-byte aligned address); writes
// d_out[(i + k) mod n] = d_in[i] for every i in [0, n), the modulo taken so that it is in [0, n)
// even for negative k. n may be 0 (nothing to do, whatever k is).
inline void launch(const std::int32_t* d_in, std::int64_t n, std::int64_t k, std::int32_t* d_out) {
  // >>> YOUR CODE: launch
  // TODO: reduce k to a shift in [0, n) (C++'s % keeps the sign of k), launch your kernel(s) with
  //       CUDA_CHECK_LAUNCH() after each.
  common::todo("rotate_array::launch");
  // <<< YOUR CODE
}

}  // namespace rotate_array
