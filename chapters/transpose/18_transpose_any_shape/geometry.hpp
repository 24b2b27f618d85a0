// geometry.hpp: the sizes the kernels are built around (tile, block, runs, shared pitches), fixed
// by
//   their code rather than tuned, in a header the host-only plan (plan.hpp) shares with them.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define ANY_SHAPE_HOST_DEVICE __host__ __device__
#else
#define ANY_SHAPE_HOST_DEVICE
#endif

namespace transpose_any_shape {

// transpose_fast's tile and block (transpose_any_shape.cuh checks that they are the same).
constexpr int BLOCK_THREADS = 256;
constexpr int TILE_DIM = 64;  // TILE_DIM x TILE_DIM floats per tile
constexpr int VEC = 4;        // floats per 16-byte access
constexpr std::int64_t MAX_GRID_Y = 65535;
// Input rows below a tile that its last output chunks reach into (any_tile's whole chunks).
constexpr int BELOW = VEC - 1;
// Where the output rows are aligned, a tile takes the last 4 or 8 rows below it.
constexpr int THIN_ROWS_ALIGNED = 8;
// A 32-byte sector, 64 and 256 bytes, in floats.
constexpr std::int64_t FLOATS_PER_SECTOR = 32 / sizeof(float);
constexpr std::int64_t FLOATS_PER_64_BYTES = 64 / sizeof(float);
constexpr std::int64_t FLOATS_PER_256_BYTES = 256 / sizeof(float);

// kernel_lines: floats per 128-byte line, rows in flight per thread, and its blocks per SM.
constexpr int LINE_FLOATS = 32;
constexpr int LINES_PER_ROW = 3;  // lines a row of 64 floats can touch
constexpr int LINE_ROWS_IN_FLIGHT = 2;
constexpr int LINE_BLOCKS_PER_SM = 8;
constexpr int ONE_WAVE_IN_FLIGHT = 4;    // one wave of more than 5 tiles per SM
constexpr int FEW_BLOCKS_IN_FLIGHT = 8;  // one wave of at most 4 or 5 tiles per SM

// The few-side kernels: a run of FEW_RUN floats of the long side per block (FEW_SHORT_RUN,
// FEW_WAVES_RUN and FEW_SECTORS_RUN where the plan says), or one chosen at launch (ANY_RUN).
constexpr std::int64_t FEW_SIDE = 64;  // the widest few side of the tuned kernels' first rule
constexpr int FEW_RUN = 128;
constexpr int FEW_SHORT_RUN = 32;
constexpr int FEW_WAVES_RUN = 64;
constexpr int FEW_SECTORS_RUN = 64;
constexpr int ANY_RUN = 0;
constexpr int FEW_IN_FLIGHT = 4;  // 16-byte loads per thread in flight
// Floats per shared row: the run, its lead and the 3 floats past it, rounded up to 4 floats past
// a multiple of 32 (FULL_PITCH_MOD), so that neighbouring shared rows start in different banks;
// 4 past a multiple of 8 (COMPACT_PITCH_MOD): less shared memory, the same number of banks for 8
// neighbouring rows by our count.
constexpr int FULL_PITCH_MOD = 32;
constexpr int COMPACT_PITCH_MOD = 8;
ANY_SHAPE_HOST_DEVICE constexpr int few_pitch(int run, int mod = FULL_PITCH_MOD) {
  int pitch = (run + 2 * BELOW + VEC - 1) / VEC * VEC;
  while (pitch % mod != VEC) pitch += VEC;
  return pitch;
}

// The fixed-occupancy kernels' blocks per SM (their __launch_bounds__).
constexpr int MIN_BLOCKS_PER_SM_REALIGNED = 5;
constexpr int HALVES_BLOCKS_PER_SM = 8;
constexpr int STRETCH_BLOCKS_PER_SM = 8;

// A side that ends 1 .. thin floats past a multiple of 64 (more than one tile): a thin edge.
constexpr bool thin_edge(std::int64_t side, int thin) {
  return side > TILE_DIM && side % TILE_DIM != 0 && side % TILE_DIM <= thin;
}
// Tiles along a side whose thin edge of at most `thin` floats, if it has one, goes into the tiles
// beside it (the launch counts no tiles for it); thin 0: every partial tile counted.
constexpr std::int64_t tiles_along(std::int64_t side, int thin) {
  return thin_edge(side, thin) ? side / TILE_DIM : (side + TILE_DIM - 1) / TILE_DIM;
}

}  // namespace transpose_any_shape
