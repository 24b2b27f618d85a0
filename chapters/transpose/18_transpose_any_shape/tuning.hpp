// tuning.hpp: every threshold of transpose_any_shape's launch rules, grouped by the rule that reads
//   it (plan.hpp, in the order its rule table tries them). Each line says what it bounds; the
//   provenance line names the GPU and the evidence file (under book/results/) that set it; the
//   step's runs page tells how each was found and what was tried beside it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "geometry.hpp"

namespace transpose_any_shape::tuning {

// --- loads in halves (only the input rows off 16-byte boundaries) ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/halves_rule.txt
constexpr std::int64_t HALVES_FROM_SIDE = 96;               // both sides at least this many floats
constexpr std::int64_t HALVES_FROM_TILES_PER_SM = 1;        // tiles per SM, rows of many tiles
constexpr std::int64_t HALVES_ALONG_FROM_TILES_PER_SM = 4;  // ... rows of at most 16 tiles
constexpr std::int64_t HALVES_TILES_PER_SM = 32;            // past one wave, at most this many

// --- stretches (about one wave of few rows or few columns) ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/stretch_rule_fb11644.txt
constexpr std::int64_t STRETCH_FROM = 20;  // short side, runs of 64
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/stretch_rule_99393b2.txt
constexpr std::int64_t STRETCH_ROWS_FROM = 97;    // few rows in runs of 32 columns, from ...
constexpr std::int64_t STRETCH_ROWS_UP_TO = 128;  // ... up to
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/stretch_rule_fb11644.txt
constexpr std::int64_t STRETCH_FROM_BLOCKS_PER_SM = 4;  // runs of 64: more blocks per SM than
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/stretch_rule_99393b2.txt
constexpr std::int64_t STRETCH_RUNS_OF_32_FROM = 6;  // runs of 32: more blocks per SM than

// --- one-wave lines where one side is off ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/lines_one_side_62c9aed.txt
constexpr std::int64_t LINES_FEW_COLS_FROM = 80;  // few columns of a tall matrix, output rows off
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/lines_one_side_47939e8.txt
constexpr std::int64_t LINES_OUTPUT_OFF_TILES_PER_SM = 12;  // output rows off, both sides >= 128

// --- the few-side kernels (a side of 17 to 64 floats, more where the output rows are off) ---
// provenance: nvidia-h200/transpose.csv
constexpr std::int64_t NARROW_SIDE = 16;  // at most this: the narrow kernel (its --sweep rows)
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_side.txt
constexpr std::int64_t FEW_ROWS = 40;             // few rows: at most this many
constexpr std::int64_t FEW_ROWS_TILED_FROM = 32;  // aligned few rows: the tiles from this many
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_cols_128.txt
constexpr std::int64_t FEW_COLS_ODD_ROWS = 127;    // few columns, output rows off: up to this many
constexpr std::int64_t FEW_FULL_PITCH_UP_TO = 96;  // past this many few floats: compact pitch
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_small.txt
constexpr std::int64_t FEW_SMALL_WAVES = 4;          // small: runs of 128 fewer blocks per SM
constexpr std::int64_t FEW_SMALL_SHORT_UP_TO = 112;  // small, past 64 columns: runs of 32 up to
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_cols_tiles_b684208.txt
constexpr std::int64_t FEW_COLS_TILED_FROM = 116;  // columns: the tiles at 7 to 11 runs per SM

// --- few rows of wide matrices ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_rows_wide.txt
constexpr std::int64_t FEW_WIDE_ROWS_UP_TO = 113;  // rows off a multiple of 4: runs of 32 up to
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/swizzled_rule.txt
constexpr std::int64_t FEW_WIDE_SWIZZLED_UP_TO = 127;           // swizzled shared rows up to
constexpr std::int64_t FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO = 115;  // ... any cols up to
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/swizzled_aligned.txt
constexpr std::int64_t FEW_WIDE_SWIZZLED_RUNS_PER_SM = 100;  // ... past it, runs of 32 per SM

// --- a few waves (a side of 20 to 64 floats, 1 to 4 runs of 128 per SM) ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/one_wave.txt
constexpr std::int64_t FEW_WAVES_FROM = 20;           // few side at least
constexpr std::int64_t FEW_WAVES_ONE_WAVE_FROM = 32;  // the run that fills one wave, from
constexpr std::int64_t FEW_WAVES_LONG_UNDER = 48;     // that run longer than 64 only under
constexpr std::int64_t FEW_WAVES_MIN_FLOATS = 1536;   // floats per block at least
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_waves_6a0eb46.txt
constexpr std::int64_t FEW_WAVES_TILES_FROM = 61;  // columns: the tiles from here to 63

// --- few columns with whole sectors (output rows off) ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_cols_l1_line.txt
constexpr std::int64_t FEW_SECTORS_SHORT_FROM = 11;  // runs of 128 per SM: runs of 64 from
constexpr std::int64_t FEW_SECTORS_WIDE_PAST = 80;   // columns past which ...
constexpr std::int64_t FEW_SECTORS_WIDE_FROM = 7;    // ... runs of 64 from this many per SM
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/few_cols_l1_rule.txt
constexpr std::size_t FEW_L1_SHARE_BYTES = 196 * 1024;  // shared rows per SM at most

// --- the narrow kernel's gather for short odd rows ---
// provenance: nvidia-h200/transpose/transpose_any_shape/short_sides.txt
constexpr std::int64_t NARROW_ODD_ROWS = 40;

// --- aligned lines where both sides are off ---
// provenance: nvidia-h200/transpose/transpose_any_shape/lines_2882a0d.txt
constexpr double LINES_MIN_GBPS_PER_SM = 30;  // a line between the H100's 25 and the H200's 36
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/lines_2882a0d.txt
constexpr std::int64_t LINES_ANY_GPU_TILES_PER_SM = 20;
// provenance: nvidia-h200/transpose/transpose_any_shape/lines_absorb.txt
constexpr std::int64_t FEW_TILES_ABSORBED = 8;  // thin edges absorbed along sides of at most

// --- thin edges of aligned output rows ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/thin_aligned_default.txt
constexpr std::int64_t SHORT_COLUMN_OF_TILES = 16;  // thin last rows absorbed below at most

// --- the order of the tiles ---
// provenance: nvidia-h200/transpose/transpose_any_shape/order_73ce301.txt
constexpr std::int64_t SHORT_ROW_OF_TILES = 16;  // along first up to this many tiles across
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/order_25670e9.txt
constexpr std::int64_t ALONG_WIDE = 4;  // input rows off 64 bytes: along up to 4 columns' lengths
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/long_rows_order.txt
constexpr std::int64_t ALONG_MAX_TILES = 700;  // ... and up to this many tiles across
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/order_half_lines.txt
constexpr std::int64_t DOWN_WIDE_SIXTEENTHS = 15;  // rows % 16 == 8: down from 15/16 as wide
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/off_256_order_edges.txt
constexpr std::int64_t DOWN_OFF_256_SIXTEENTHS = 24;  // rows % 64 in {16, 32, 48}: down from 1.5
constexpr std::int64_t DOWN_OFF_256_MIN_ROWS = 4096;  // ... in columns of at least
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/order_4c08c9f.txt
constexpr std::int64_t VERY_TALL = 48;  // rows / cols, both sides on 64 bytes: along, bulk stores
// provenance: nvidia-h200/transpose/transpose_any_shape/order_713d839.txt
constexpr std::int64_t TALL_REALIGNED = 8;  // rows / cols, realigned loads
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/whole_sectors_along.txt
constexpr std::int64_t SECTORS_ALONG_TALL = 9;  // rows / cols: whole sectors along

// --- wide fetches (.L2::256B) ---
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/wide_down.txt
constexpr std::int64_t WIDE_DOWN_MAX_ROWS = 20000;  // down first only in columns of at most
// provenance: nvidia-h100-80gb-hbm3/transpose/transpose_any_shape/wide_down_taller.txt
constexpr std::int64_t WIDE_DOWN_ALIGNED_MAX_ROWS = 28000;  // ... with aligned loads

// The most shared bytes the rules give the few-side kernels: FEW_FULL_PITCH_UP_TO long rows at
// the full pitch or FEW_COLS_ODD_ROWS at the compact one (asked for once per kernel and device).
constexpr std::size_t FEW_SHARED_MAX_BYTES =
    (FEW_FULL_PITCH_UP_TO * few_pitch(FEW_RUN) >
             FEW_COLS_ODD_ROWS * few_pitch(FEW_RUN, COMPACT_PITCH_MOD)
         ? FEW_FULL_PITCH_UP_TO * few_pitch(FEW_RUN)
         : FEW_COLS_ODD_ROWS * few_pitch(FEW_RUN, COMPACT_PITCH_MOD)) *
    sizeof(float);
static_assert(FEW_SHARED_MAX_BYTES <= 227 * 1024, "the few-side kernels' shared rows fit an SM");

}  // namespace transpose_any_shape::tuning
