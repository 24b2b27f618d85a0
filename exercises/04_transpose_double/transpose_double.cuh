// Exercise 04, transpose_double: out = in^T for a rows x cols matrix of doubles, any shape.
// Practises Part II: the transpose through a padded shared-memory tile, with 8-byte elements that
// span two of shared memory's 4-byte banks.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace transpose_double {

// >>> YOUR CODE: device code
// TODO: the kernel. Read a tile of the input with coalesced loads into shared memory, then write
//       it out transposed, again coalesced. A double spans two 4-byte banks: how wide must a
//       tile row be so that reading a tile column hits no bank twice? Any shape must work,
//       including one taller than 65535 tiles (the limit of gridDim.y).
// <<< YOUR CODE

// d_in holds rows x cols doubles and d_out cols x rows, both row-major, on the device; rows and
// cols are in [0, 2^31 - 1] and rows * cols fits the device. Every kernel on stream 0.
inline void launch(const double* d_in, double* d_out, std::int64_t rows, std::int64_t cols) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernel for every shape (0 rows or 0 columns included: a grid of zero
  //       blocks is a launch error), then CUDA_CHECK_LAUNCH().
  common::todo("transpose_double::launch");
  // <<< YOUR CODE
}

}  // namespace transpose_double
