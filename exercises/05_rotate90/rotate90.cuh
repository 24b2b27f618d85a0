// Exercise 05, rotate90: rotate a rows x cols float matrix by 90 degrees clockwise, any shape.
// Practises Parts II and V: a tiled transpose whose writes are mirrored, as a reversal's are.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace rotate90 {

// >>> YOUR CODE: device code
// TODO: the kernel. Each block moves one tile through shared memory: coalesced reads along input
//       rows, coalesced writes along output rows. Where does element (r, c) land, and which
//       input rows does one output tile need? Any shape must work, including one with more
//       than 65535 tiles in the grid's y direction.
// <<< YOUR CODE

// d_in holds rows x cols floats and d_out cols x rows, both row-major, on the device; rows and
// cols are in [0, 2^31 - 1] and rows * cols fits the device. Every kernel on stream 0.
inline void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernel for every shape (0 rows or 0 columns included: a grid of zero
  //       blocks is a launch error), then CUDA_CHECK_LAUNCH().
  common::todo("rotate90::launch");
  // <<< YOUR CODE
}

}  // namespace rotate90
