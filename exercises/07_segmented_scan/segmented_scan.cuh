// Exercise 07, segmented_scan: an inclusive scan of int32 values that starts again at every segment
// head (heads given as one uint8 flag per element).
// Practises Part III: a scan over many tiles, where the state carried from tile to tile is no
// longer a plain sum but a (seen a head, value) pair.
// Edit only the regions between ">>> YOUR CODE" and "<<< YOUR CODE"; README.md has the rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/check.cuh"
#include "common/exercise.hpp"

namespace segmented_scan {

// >>> YOUR CODE: kernels
// TODO: the kernels (and any constants and device functions they need). One way: reduce each
//       tile to the pair (does it hold a head, the value that flows out of it), scan the tiles'
//       pairs, then scan each tile again starting from the value that flows into it.
// <<< YOUR CODE

// The bytes of device scratch memory launch() needs for n elements (0 if none). The caller
// allocates them once and passes the same scratch to every launch() with this n.
inline std::size_t scratch_bytes(std::int64_t n) {
  // >>> YOUR CODE: scratch_bytes
  // TODO: how much do your kernels need between them (one pair or carry per tile, ...)?
  common::todo("segmented_scan::scratch_bytes");
  // <<< YOUR CODE
}

// d_values holds n ints and d_heads n flags (nonzero: a segment starts there). Writes
// d_out[i] = d_values[i] if d_heads[i] != 0 or i == 0, else d_out[i - 1] + d_values[i], with sums
// wrapping around modulo 2^32. d_scratch holds scratch_bytes(n) bytes in any state.
inline void launch(const std::int32_t* d_values, const std::uint8_t* d_heads, std::int64_t n,
                   std::int32_t* d_out, void* d_scratch) {
  // >>> YOUR CODE: launch
  // TODO: launch your kernels with CUDA_CHECK_LAUNCH() after each. n may be 0 or pass 2^31.
  common::todo("segmented_scan::launch");
  // <<< YOUR CODE
}

}  // namespace segmented_scan
