// Exercise 02, argmax: the largest float of an array and the index of its first occurrence.
// Practises Part I: the reduction ladder with another operator, whose partial results are
// (value, index) pairs. The rules (NaN, ties, -inf, empty input) are in argmax_problem.hpp.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/check.cuh"
#include "common/exercise.hpp"
#include "exercises/02_argmax/argmax_problem.hpp"

namespace argmax {

using result = argmax_problem::result;
constexpr std::int64_t NO_INDEX = argmax_problem::NO_INDEX;

// >>> YOUR CODE: device code
// TODO: the kernels and their helpers. A reduction whose partial results are (value, index)
//       pairs: each thread keeps the best element it has seen, then the warp, the block and
//       finally the whole grid combine their candidates with the same operator (larger value,
//       else smaller index). Mind the rules of argmax_problem.hpp: a NaN never wins, -inf does
//       when nothing else is there, and 64-bit indices.
// <<< YOUR CODE

// Bytes of device scratch that launch() may use for n elements (the program allocates them once,
// outside the timed region, and passes them as d_workspace; nullptr when 0).
inline std::size_t workspace_bytes(std::int64_t n) {
  // >>> YOUR CODE: workspace
  // TODO: how many bytes of scratch your launch() needs for n elements (e.g. one candidate per
  //       block of a first pass). 0 is fine if you need none.
  return 0;
  // <<< YOUR CODE
}

// Writes the argmax of d_in[0, n) to *d_result (device memory), every kernel on stream 0.
// n is in [0, 2^40]; d_in need not be 16-byte aligned; d_workspace holds workspace_bytes(n).
inline void launch(const float* d_in, std::int64_t n, void* d_workspace, result* d_result) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernels so that *d_result holds the answer, for every n (0 included: then
  //       there is no number, and a grid of zero blocks is a launch error). CUDA_CHECK_LAUNCH()
  //       after each launch.
  common::todo("argmax::launch");
  // <<< YOUR CODE
}

}  // namespace argmax
