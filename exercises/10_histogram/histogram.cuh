// Exercise 10, histogram: a 256-bin histogram of bytes with 64-bit counts, on skewed inputs.
// Practises the reduction part's idea with another operator: each block reduces its share of the
// input into a private histogram in shared memory, and the blocks' histograms are then merged;
// atomics, contention and privatisation.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace histogram {

// >>> YOUR CODE: kernels
// TODO: the kernel(s) (and any constants and device functions they need). One way: each block
//       counts its share of the bytes into sub-histograms in shared memory (per block, per warp,
//       or spread so that equal bytes do not collide), then adds them to the 64-bit totals.
// <<< YOUR CODE

// d_bytes holds n bytes at any address; writes the 256 counts d_counts[b] = the number of bytes
// equal to b. d_counts holds garbage on entry. n may be 0 or pass 2^32 (a count may too).
inline void launch(const std::uint8_t* d_bytes, std::int64_t n, unsigned long long* d_counts) {
  // >>> YOUR CODE: launch
  // TODO: set the counts, launch your kernel(s) with CUDA_CHECK_LAUNCH() after each.
  common::todo("histogram::launch");
  // <<< YOUR CODE
}

}  // namespace histogram
