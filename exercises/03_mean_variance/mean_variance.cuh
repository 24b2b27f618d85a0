// Exercise 03, mean_variance: the mean and the population variance of a float array in one pass.
// Practises Part I: a reduction whose partial results are structs (count, mean, M2), combined
// with Chan's formula. The tolerance and its derivation are in mean_variance_problem.hpp.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/check.cuh"
#include "common/exercise.hpp"
#include "exercises/03_mean_variance/mean_variance_problem.hpp"

namespace mean_variance {

using result = mean_variance_problem::result;

// >>> YOUR CODE: device code
// TODO: the kernels and their helpers. A reduction whose partial result is a struct: the count,
//       the mean and M2 = sum of (x - mean)^2 of the elements seen so far. Each thread updates
//       its own with Welford's formula, then threads, warps and blocks merge theirs with Chan's
//       combine. Which parts can stay in float, and where does double pay?
// <<< YOUR CODE

// Bytes of device scratch that launch() may use for n elements (the program allocates them once,
// outside the timed region, and passes them as d_workspace; nullptr when 0).
inline std::size_t workspace_bytes(std::int64_t n) {
  // >>> YOUR CODE: workspace
  // TODO: how many bytes of scratch your launch() needs for n elements (e.g. one partial
  //       result per block of a first pass). 0 is fine if you need none.
  return 0;
  // <<< YOUR CODE
}

// Writes the mean and the population variance of d_in[0, n) to *d_result (device memory), every
// kernel on stream 0. n is in [0, 2^40]; d_in need not be 16-byte aligned; d_workspace holds
// workspace_bytes(n).
inline void launch(const float* d_in, std::int64_t n, void* d_workspace, result* d_result) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernels so that *d_result holds the mean and the population variance, for
  //       every n (0 included: then both are NaN, and a grid of zero blocks is a launch error).
  //       CUDA_CHECK_LAUNCH() after each launch.
  common::todo("mean_variance::launch");
  // <<< YOUR CODE
}

}  // namespace mean_variance
