// tuning.cuh: the shapes, stage counts and sizes by which scan_pipelined's launch_by_size picks
//   a configuration for n. Each rule says what it bounds; its provenance line names the files
//   (under book/results/) of the runs that set it; the step's runs page tells how each was found
//   and what was tried beside it.
#pragma once

#include <cstdint>

#include "chapters/scan/07_scan_lookback/scan_lookback.cuh"

namespace scan_pipelined {

using scan_reduce_then_scan::shape;

// The default from SMALL_N_LIMIT elements on: 256 threads x 32 elements (8192-element tiles, 32 KiB
// of int32 or float), seven stages (224 KiB: one block per SM of the H100 or H200), scan_lookback's
// window of 32 tiles. Below it: 256 threads x 16 elements, four stages (4096-element tiles, 64 KiB:
// more blocks per SM). In the bench's sweep at commit d4a12ac on the H200 and the H100 the small
// tiles were past CUB at every size from 2^15 to 2^23, the large ones short of it at 2^21 and 2^22
// (our reading: too few large tiles there to keep every SM's loads in flight), and ahead from 2^24
// on. (In the H200's bench since, the small tiles are about at CUB's speed at 2^21: see the page.)
// provenance: nvidia-h200/scan/scan_pipelined/sweep.txt,
//             nvidia-h100-80gb-hbm3/scan/scan_pipelined/sweep.txt
using default_shape = shape<256, 8>;
constexpr int DEFAULT_STAGES = 7;
using small_n_shape = shape<256, 4>;
constexpr int SMALL_N_STAGES = 4;
constexpr std::int64_t SMALL_N_LIMIT = std::int64_t(1) << 24;
constexpr int DEFAULT_WINDOW = scan_lookback::DEFAULT_WINDOW;
constexpr int BLOCK_THREADS = default_shape::BLOCK_THREADS;
constexpr int TILE_ELEMENTS = default_shape::TILE_ELEMENTS;

//! [band]
// Up to one small tile, a single block scans n in an ordinary launch: no look-back, no workspace,
// none of the pipeline's set-up.
// provenance: nvidia-h100-80gb-hbm3/scan/scan_pipelined/sizes.txt
constexpr std::int64_t SINGLE_TILE_LIMIT = small_n_shape::TILE_ELEMENTS;

// Below SMALL_N_LIMIT, where the large tiles are more than a quarter of the blocks of large tiles
// with MIDDLE_STAGES stages that fit on the GPU at once (`fit`: two per SM) and no more than all
// of them, each block scans one large tile instead of the small tiles. In the sweeps of both GPUs
// that configuration was ahead of the default's small tiles at 2^20 and 2^21 and behind at 2^19
// and 2^22, and on the H100 this band was measured at odd sizes too (see the page). A pure
// function, so the host tests can check its bounds.
// provenance: nvidia-h100-80gb-hbm3/scan/scan_pipelined/band.txt
constexpr int MIDDLE_STAGES = 3;
constexpr bool one_large_tile_per_block(std::int64_t n, int fit) {
  const std::int64_t large_tiles = (n + TILE_ELEMENTS - 1) / TILE_ELEMENTS;
  return n > SINGLE_TILE_LIMIT && n < SMALL_N_LIMIT && 4 * large_tiles > fit && large_tiles <= fit;
}
//! [band]

}  // namespace scan_pipelined
