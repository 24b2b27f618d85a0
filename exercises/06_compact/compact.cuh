// Exercise 06, compact: keep the int32 elements above a threshold, in order (stream compaction).
// Practises Part III: flags, a scan of the flags, a scatter to the scanned offsets, across tiles.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace compact {

// >>> YOUR CODE: kernels
// TODO: the kernels (and any constants and device functions they need). One way: count the kept
//       elements of each tile, scan the tiles' counts, then let each tile write its kept elements
//       from its offset on, in order (ballots and a scan inside the tile).
// <<< YOUR CODE

// The bytes of device scratch memory launch() needs for n elements (0 if none). The caller
// allocates them once and passes the same scratch to every launch() with this n.
inline std::size_t scratch_bytes(std::int64_t n) {
  // >>> YOUR CODE: scratch_bytes
  // TODO: how much do your kernels need between them (per-tile counts or offsets, ...)?
  common::todo("compact::scratch_bytes");
  // <<< YOUR CODE
}

// d_in holds n ints; writes the elements > threshold to d_out[0, count) in their order and count
// to *d_count. d_out has room for n ints; its elements past count may hold anything afterwards.
// d_scratch holds scratch_bytes(n) bytes in any state (earlier launches leave theirs behind).
inline void launch(const std::int32_t* d_in, std::int64_t n, std::int32_t threshold,
                   std::int32_t* d_out, unsigned long long* d_count, void* d_scratch) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernels with CUDA_CHECK_LAUNCH() after each. n may be 0 (the count is then
  //       0) or pass 2^31, and *d_count holds garbage on entry.
  common::todo("compact::launch");
  // <<< YOUR CODE
}

}  // namespace compact
