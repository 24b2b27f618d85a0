// plan.hpp: which kernel transposes a rows x cols matrix, in which order and with which run, and
//   why: choose_plan(shape, gpu, rules) tries an ordered table of small rules (the first that
//   applies makes the plan) on facts about the GPU gathered once per device, and asks the device
//   nothing itself. Host-only and pure: its tests pin every rule's edges on the H200's and the
//   H100's facts without a GPU, and `transpose_any_shape --explain` prints the plan.
//   The thresholds are in tuning.hpp, each with the evidence that set it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "common/bandwidth.hpp"
#include "geometry.hpp"
#include "tuning.hpp"

namespace transpose_any_shape {

//! [facts]
// What the rules know of the GPU and of the code built for it.
struct gpu_facts {
  std::string name;
  int sms = 0;
  double dram_gbps_per_sm = 0;  // theoretical DRAM bandwidth per SM (the H100's 25, the H200's 36)
  std::size_t shared_per_sm = 0, shared_reserved_per_block = 0;  // bytes
  // Blocks per SM that registers and threads allow (occupancy with no shared memory) of the
  // few-side kernels whose occupancy the rules ask: those that take their run at launch, and
  // kernel_few_cols with whole sectors in runs of 64 at the full and at the compact pitch.
  int few_cols_any_run_blocks = 0, few_rows_any_run_blocks = 0;
  int few_sectors_full_blocks = 0, few_sectors_compact_blocks = 0;
  bool bulk_copies = false;   // cp.async.bulk: device and build run sm_90 code
  bool wide_fetches = false;  // ld's .L2::256B prefetch size: device and build sm_80 or newer
};
//! [facts]

// A Hopper GPU with `sms` SMs and DRAM of the given clock and bus (as book/results/<gpu>/*.csv
// record them), as the rules see it from the default build.
inline gpu_facts hopper_facts(std::string name, int sms, double memory_clock_khz,
                              double bus_width_bits) {
  gpu_facts g;
  g.name = std::move(name);
  g.sms = sms;
  g.dram_gbps_per_sm = common::theoretical_gb_per_s(memory_clock_khz, bus_width_bits) / sms;
  g.shared_per_sm = 233472;  // 228 KB (compute capability 9.0)
  g.shared_reserved_per_block = 1024;
  g.few_cols_any_run_blocks = g.few_rows_any_run_blocks = 5;     // 48 registers
  g.few_sectors_full_blocks = g.few_sectors_compact_blocks = 6;  // 40 registers
  g.bulk_copies = g.wide_fetches = true;
  return g;
}
inline gpu_facts h200_facts() { return hopper_facts("H200", 132, 3201000, 6016); }
inline gpu_facts h100_facts() { return hopper_facts("H100", 132, 2619000, 5120); }
// The H200 running a build without sm_90 or sm_80 code (a 75-virtual build): the portable paths.
inline gpu_facts h200_portable_facts() {
  gpu_facts g = h200_facts();
  g.name = "H200, portable build";
  g.bulk_copies = g.wide_fetches = false;
  return g;
}

// The occupancy the driver reports for a kernel of `register_blocks` blocks per SM (registers and
// threads) with `shared_bytes` of dynamic shared memory per block (allocated in 128-byte units).
inline int blocks_per_sm(const gpu_facts& gpu, int register_blocks, std::size_t shared_bytes) {
  const std::size_t per_block = (shared_bytes + 127) / 128 * 128 + gpu.shared_reserved_per_block;
  return std::max(1, std::min<int>(register_blocks, int(gpu.shared_per_sm / per_block)));
}

//! [rules]
// The rules' switches: the default turns every rule on; each --sweep variant changes one or two
// (variants.hpp), to measure what that rule gains.
struct rules {
  static constexpr std::int64_t DOWN_FIRST = 0, ALONG_FIRST = INT64_MAX;
  enum lines_choice { LINES_NEVER, LINES_BY_BANDWIDTH, LINES_ALWAYS };
  enum one_wave_choice { ONE_WAVE_NEVER, ONE_WAVE_BY_TILES, ONE_WAVE_EIGHT_BLOCKS };
  enum few_waves_choice { FEW_WAVES_NEVER, FEW_WAVES_RUNS_OF_64, FEW_WAVES_ONE_WAVE };
  std::int64_t narrow = tuning::NARROW_SIDE;              // widest side of the narrow kernel
  std::int64_t along_up_to = tuning::SHORT_ROW_OF_TILES;  // tiles across taken along first
  bool each_side = true;       // aligned output rows realign only the loads
  bool along_bulk = false;     // whole tiles taken along first keep the bulk stores
  bool split_chunks = false;   // realigned output chunks split at tile edges
  bool shifted_bulk = true;    // whole realigned tiles leave by bulk copies
  bool absorb = true;          // realigned thin edges taken by the tiles beside them
  bool absorb_aligned = true;  // aligned ones too
  bool wide_fetches = true;
  lines_choice lines = LINES_BY_BANDWIDTH;
  bool lines_absorb = true;
  one_wave_choice one_wave = ONE_WAVE_BY_TILES;
  std::int64_t narrow_odd = tuning::NARROW_ODD_ROWS;
  std::int64_t few = FEW_SIDE;  // few-side kernels up to this side (0: none)
  bool few_everywhere = false;  // also where the tiles' accesses are aligned
  bool few_short_runs = true;
  std::int64_t few_odd = tuning::FEW_COLS_ODD_ROWS;
  bool few_small = true;
  few_waves_choice few_waves = FEW_WAVES_ONE_WAVE;
  // The later rules, each on unless its --sweep variant measures the code before it.
  bool few_waves_tiles = true, few_rows_small = true, lines_one_side = true, stretch = true,
       halves = true, few_rows_wide = true, few_rows_wide_swizzled = true, whole_sectors = true,
       few_cols_sectors = true, sectors_along = true, few_sectors_short = true,
       few_cols_tiled = true, half_line_rows_down = true, along_short_rows = true,
       wide_down_taller = true, off_256_rows_down = true, thin_cols_sectors = true;
};
//! [rules]

struct matrix_shape {
  std::int64_t rows = 0, cols = 0;
  bool aligned = true;  // both pointers 16-byte aligned (the 16-byte accesses need it)
};

enum class kernel_kind {
  nothing,
  copy,
  narrow,
  lines,
  few_cols,
  few_rows,
  stretch_rows,
  stretch_cols,
  loads_in_halves,
  whole_sectors,
  tiles
};

//! [plan]
// One kernel's launches: a grid of step x walk blocks (walk in launches of at most MAX_GRID_Y
// along y where the kernel takes a `first` block row), and its options.
struct plan {
  kernel_kind kernel = kernel_kind::nothing;
  const char* rule = "";  // the rule that made it
  bool down = true;       // tiled kernels: blockIdx.x walks down a column of tiles
  std::int64_t step = 0, walk = 1;
  std::size_t shared_bytes = 0;  // dynamic
  // The tiled kernels and whole sectors.
  bool aligned_loads = false, aligned_stores = false, whole_bulk = false, split_chunks = false,
       absorb = false, wide_fetch = false;
  // Aligned lines.
  int rows_in_flight = 0, min_blocks = 0;
  // The few-side kernels: run_template is the compiled run (ANY_RUN: `run` is taken at launch).
  int run = 0, run_template = 0, pitch_mod = 0;
  bool swizzle = false, sectors = false;
  // The narrow kernel.
  bool gather = false, index64 = false;
};
//! [plan]

// --- Building blocks: one kernel's plan at a shape --------------------------------------------

inline bool few_runs_below(const gpu_facts& g, std::int64_t long_side, std::int64_t per_sm,
                           int run = FEW_RUN) {
  return (long_side + run - 1) / run < per_sm * g.sms;
}
// Runs of FEW_RUN: at least one block per SM but fewer than FEW_SMALL_WAVES.
inline bool few_waves_of(const gpu_facts& g, std::int64_t long_side) {
  return !few_runs_below(g, long_side, 1) && few_runs_below(g, long_side, tuning::FEW_SMALL_WAVES);
}

inline plan copy_plan(std::int64_t rows, std::int64_t cols) {
  plan p;
  p.kernel = kernel_kind::copy;
  p.step = rows * cols;  // floats
  return p;
}

inline plan narrow_plan(std::int64_t rows, std::int64_t cols) {
  plan p;
  p.kernel = kernel_kind::narrow;
  p.step = (rows * cols + VEC * BLOCK_THREADS - 1) / (VEC * BLOCK_THREADS);
  p.gather = rows <= cols;  // the output (cols x rows) is the run of short rows
  p.index64 = rows * cols > std::int64_t(UINT32_MAX) - VEC * BLOCK_THREADS;
  return p;
}

// kernel_lines, down the columns of tiles first; ABSORB: thin last rows and columns (1 .. 3) go
// into the tiles beside them.
inline plan lines_plan(std::int64_t rows, std::int64_t cols, bool absorb,
                       int in_flight = LINE_ROWS_IN_FLIGHT, int min_blocks = LINE_BLOCKS_PER_SM) {
  plan p;
  p.kernel = kernel_kind::lines;
  p.absorb = absorb;
  p.rows_in_flight = in_flight;
  p.min_blocks = min_blocks;
  p.step = tiles_along(rows, absorb ? BELOW : 0);
  p.walk = tiles_along(cols, absorb ? BELOW : 0);
  return p;
}
inline std::int64_t line_tiles_per_sm(const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
  return (tiles_along(rows, BELOW) * tiles_along(cols, BELOW) + g.sms - 1) / g.sms;
}
// One wave of lines, thin edges absorbed: all 8 rows of a thread in flight at 4 or 5 tiles per SM
// at most, else 4 rows at 8 blocks per SM (always, with eight_blocks).
inline plan lines_one_wave_plan(std::int64_t rows, std::int64_t cols, std::int64_t tiles_per_sm,
                                bool eight_blocks) {
  if (!eight_blocks && tiles_per_sm <= 4)
    return lines_plan(rows, cols, true, FEW_BLOCKS_IN_FLIGHT, 4);
  if (!eight_blocks && tiles_per_sm <= 5)
    return lines_plan(rows, cols, true, FEW_BLOCKS_IN_FLIGHT, 5);
  return lines_plan(rows, cols, true, ONE_WAVE_IN_FLIGHT);
}
// Past one wave: thin edges absorbed where that side has at most FEW_TILES_ABSORBED tiles.
inline plan lines_thin_edges_plan(std::int64_t rows, std::int64_t cols, bool absorb_few) {
  const auto thin_of_few = [](std::int64_t side) {
    return thin_edge(side, BELOW) && side / TILE_DIM <= tuning::FEW_TILES_ABSORBED;
  };
  return lines_plan(rows, cols, absorb_few && (thin_of_few(rows) || thin_of_few(cols)));
}

// kernel_few_cols (fewer columns than rows) or kernel_few_rows in runs of `run` floats of the long
// side, compiled for RUN (ANY_RUN: any multiple of 4); shared_budget (few columns only): no more
// blocks per SM than hold their shared rows in that many bytes, by asking for more shared bytes
// per block where more would fit (kernel_few_cols with whole sectors in runs of 64 only).
inline plan few_plan(const gpu_facts& g, std::int64_t rows, std::int64_t cols, int run_template,
                     int run, int pitch_mod = FULL_PITCH_MOD, bool swizzle = false,
                     bool sectors = false, std::size_t shared_budget = 0) {
  plan p;
  const std::int64_t few = std::min(rows, cols);
  p.kernel = cols < rows ? kernel_kind::few_cols : kernel_kind::few_rows;
  p.run_template = run_template;
  p.run = run;
  p.pitch_mod = pitch_mod;
  p.swizzle = swizzle;
  p.sectors = sectors;
  p.step = (std::max(rows, cols) + run - 1) / run;
  p.shared_bytes = std::size_t(few) * few_pitch(run, pitch_mod) * sizeof(float);
  if (cols < rows && shared_budget > 0) {
    const std::size_t bytes = p.shared_bytes, reserved = g.shared_reserved_per_block;
    const int fit = blocks_per_sm(
        g, pitch_mod == FULL_PITCH_MOD ? g.few_sectors_full_blocks : g.few_sectors_compact_blocks,
        bytes);
    const std::size_t within = std::max<std::size_t>(1, shared_budget / (bytes + reserved));
    if (std::size_t(fit) > within) {
      const std::size_t least = g.shared_per_sm / (within + 1) - reserved + 1;
      p.shared_bytes = std::max(bytes, (least + 15) / 16 * 16);
    }
  }
  return p;
}

// The shortest run (a multiple of 4, at most FEW_RUN) whose blocks all fit at once, of at least
// FEW_SHORT_RUN and FEW_WAVES_MIN_FLOATS floats per block: one wave, as full as it gets.
inline int one_wave_run(const gpu_facts& g, bool few_cols, std::int64_t few,
                        std::int64_t long_side) {
  const int register_blocks = few_cols ? g.few_cols_any_run_blocks : g.few_rows_any_run_blocks;
  const int shortest = int((tuning::FEW_WAVES_MIN_FLOATS + few - 1) / few + VEC - 1) / VEC * VEC;
  for (int run = std::max(FEW_SHORT_RUN, shortest); run < FEW_RUN; run += VEC) {
    const std::size_t bytes = std::size_t(few) * few_pitch(run) * sizeof(float);
    if ((long_side + run - 1) / run <=
        std::int64_t(blocks_per_sm(g, register_blocks, bytes)) * g.sms)
      return run;
  }
  return FEW_RUN;
}

// The few-side kernels' run: one that fills one wave in a few waves (where the few side and that
// run allow it), else runs of FEW_WAVES_RUN there; short runs where runs of FEW_RUN would be fewer
// blocks than SMs or the matrix is small; the compact pitch past FEW_FULL_PITCH_UP_TO few floats;
// and few columns of output rows off 16-byte boundaries with whole sectors, in runs of 64 within
// the L1's share of an SM past FEW_SIDE columns of enough runs.
struct few_options {
  bool short_runs = true, one_wave_runs = true, whole_sectors = true, sectors_short = true;
};
inline plan few_runs_plan(const gpu_facts& g, std::int64_t rows, std::int64_t cols, few_options o,
                          bool small = false, bool few_waves = false) {
  using namespace tuning;
  const std::int64_t few = std::min(rows, cols), long_side = std::max(rows, cols);
  const bool short_runs = o.short_runs && (small || few_runs_below(g, long_side, 1));
  const int pitch = few > FEW_FULL_PITCH_UP_TO ? COMPACT_PITCH_MOD : FULL_PITCH_MOD;
  const bool sectors = o.whole_sectors && cols < rows && rows % VEC != 0 &&
                       !few_runs_below(g, long_side, FEW_SMALL_WAVES);
  const bool sectors_short =
      o.sectors_short && sectors && few > FEW_SIDE &&
      !few_runs_below(g, long_side,
                      few > FEW_SECTORS_WIDE_PAST ? FEW_SECTORS_WIDE_FROM : FEW_SECTORS_SHORT_FROM);
  int one_wave = 0;
  if (o.short_runs && o.one_wave_runs && few_waves && few >= FEW_WAVES_ONE_WAVE_FROM)
    one_wave = one_wave_run(g, cols < rows, few, long_side);
  if (one_wave > 0 && (one_wave <= FEW_WAVES_RUN || few < FEW_WAVES_LONG_UNDER))
    return few_plan(g, rows, cols, ANY_RUN, one_wave);
  if (o.short_runs && few_waves) return few_plan(g, rows, cols, FEW_WAVES_RUN, FEW_WAVES_RUN);
  if (short_runs) return few_plan(g, rows, cols, FEW_SHORT_RUN, FEW_SHORT_RUN, pitch);
  if (sectors_short)
    return few_plan(g, rows, cols, FEW_SECTORS_RUN, FEW_SECTORS_RUN, pitch, false, true,
                    FEW_L1_SHARE_BYTES);
  return few_plan(g, rows, cols, FEW_RUN, FEW_RUN, pitch, false, sectors);
}

// The stretch kernels' run (64, or 32 for 97 to 128 rows), or 0 where they do not apply: a short
// side of STRETCH_FROM to 64 floats, or few rows in runs of 32, about one wave of blocks.
inline int stretch_run(const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
  using namespace tuning;
  const std::int64_t short_side = std::min(rows, cols), long_side = std::max(rows, cols);
  int run = 0;
  if (short_side >= STRETCH_FROM && short_side <= TILE_DIM)
    run = TILE_DIM;
  else if (rows >= STRETCH_ROWS_FROM && rows <= STRETCH_ROWS_UP_TO && rows < cols)
    run = TILE_DIM / 2;
  if (run == 0) return 0;
  const std::int64_t blocks = (long_side + run - 1) / run, sms = g.sms;
  const std::int64_t from = run == TILE_DIM ? STRETCH_FROM_BLOCKS_PER_SM : STRETCH_RUNS_OF_32_FROM;
  return blocks > from * sms && blocks <= STRETCH_BLOCKS_PER_SM * sms ? run : 0;
}
inline plan stretch_plan(std::int64_t rows, std::int64_t cols, int run) {
  plan p;
  p.kernel = rows > cols ? kernel_kind::stretch_cols : kernel_kind::stretch_rows;
  p.run = rows > cols ? TILE_DIM : run;
  p.step = rows > cols ? (rows + TILE_DIM - 1) / TILE_DIM : (cols + run - 1) / run;
  return p;
}

// kernel_loads_in_halves: one block per tile, a column of tiles per blockIdx.y (at most
// MAX_GRID_Y).
inline plan halves_plan(std::int64_t rows, std::int64_t cols) {
  plan p;
  p.kernel = kernel_kind::loads_in_halves;
  p.aligned_stores = true;
  p.step = tiles_along(rows, 0);
  p.walk = tiles_along(cols, 0);
  return p;
}
inline bool loads_in_halves(const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
  using namespace tuning;
  if (rows % VEC != 0 || cols % VEC == 0 || std::min(rows, cols) < HALVES_FROM_SIDE) return false;
  const std::int64_t row_tiles = tiles_along(rows, 0), col_tiles = tiles_along(cols, 0);
  const std::int64_t tiles = row_tiles * col_tiles, sms = g.sms;
  if (col_tiles > MAX_GRID_Y) return false;
  const bool one_wave = tiles <= HALVES_BLOCKS_PER_SM * sms;
  if (col_tiles <= SHORT_ROW_OF_TILES)  // the tiles take these along the rows of tiles
    return one_wave && tiles >= HALVES_ALONG_FROM_TILES_PER_SM * sms;
  return tiles >= HALVES_FROM_TILES_PER_SM * sms &&
         (one_wave || (tiles <= HALVES_TILES_PER_SM * sms && rows < TALL_REALIGNED * cols));
}

// kernel_whole_sectors (rows % 8 == 4), down the columns of tiles or along the rows of tiles.
inline plan whole_sectors_plan(std::int64_t rows, std::int64_t cols, bool wide, bool down) {
  plan p;
  p.kernel = kernel_kind::whole_sectors;
  p.aligned_loads = cols % VEC == 0;
  p.aligned_stores = true;
  p.wide_fetch = wide;
  p.down = down;
  const std::int64_t row_tiles = tiles_along(rows, 0), col_tiles = tiles_along(cols, 0);
  p.step = down ? row_tiles : col_tiles;
  p.walk = down ? col_tiles : row_tiles;
  return p;
}

// The tiled kernel: aligned output rows realign only their loads (each_side), else both sides are
// realigned; whole_bulk: whole tiles leave by bulk copies (shifted_bulk: also realigned ones).
struct tile_options {
  bool each_side = true, whole_bulk = true, split_chunks = false, shifted_bulk = true,
       absorb = true;
};
inline plan tiles_plan(std::int64_t rows, std::int64_t cols, bool down, tile_options o,
                       std::int64_t row_tiles, std::int64_t col_tiles, bool absorb_aligned,
                       bool wide) {
  plan p;
  p.kernel = kernel_kind::tiles;
  p.down = down;
  const bool aligned_stores = rows % VEC == 0, aligned_loads = cols % VEC == 0;
  if (aligned_stores && (aligned_loads || o.each_side)) {
    p.aligned_loads = aligned_loads;
    p.aligned_stores = true;
    p.whole_bulk = o.whole_bulk;
    p.absorb = absorb_aligned;
    p.wide_fetch = wide;
  } else {
    p.whole_bulk = o.whole_bulk && o.shifted_bulk;
    p.split_chunks = o.split_chunks;
    p.absorb = o.absorb && !o.split_chunks;
  }
  p.step = down ? row_tiles : col_tiles;
  p.walk = down ? col_tiles : row_tiles;
  return p;
}

// --- The rules ---------------------------------------------------------------------------------

// What several rules read, derived once from the shape, the GPU and the switches.
struct situation {
  matrix_shape shape;
  gpu_facts gpu;
  rules on;
  std::int64_t rows = 0, cols = 0;
  // The few-side rules.
  bool past_few = false, small = false, tiled = false, few_cols = false, few_rows = false,
       tiles_aligned = false, few_waves = false;
  // The tiles.
  bool realigning_kernel = false, sector_half_rows = false, absorb_aligned = false, absorb = false;
  std::int64_t row_tiles = 0, col_tiles = 0;
  bool down_instead = false, along_first = false, very_tall = false, wide = false,
       wide_down = false, whole_bulk = true;
};

inline situation situation_of(const matrix_shape& shape, const gpu_facts& gpu, const rules& on) {
  using namespace tuning;
  situation s;
  s.shape = shape;
  s.gpu = gpu;
  s.on = on;
  const std::int64_t rows = shape.rows, cols = shape.cols;
  s.rows = rows;
  s.cols = cols;
  // Few columns (more than narrow, at most few) of more rows, or few rows (at most FEW_ROWS) of
  // more columns; past `few` columns where the output rows are off (past_few), up to few_odd.
  s.past_few = on.few > 0 && rows % VEC != 0 && cols > on.few && cols <= on.few_odd && rows > cols;
  s.small = on.few_small && s.past_few && few_runs_below(gpu, rows, FEW_SMALL_WAVES);
  s.tiled = on.few_cols_tiled && s.past_few && cols >= FEW_COLS_TILED_FROM &&
            !few_runs_below(gpu, rows, FEW_SECTORS_WIDE_FROM) &&
            few_runs_below(gpu, rows, FEW_SECTORS_SHORT_FROM);
  s.few_cols = (cols > on.narrow && cols <= on.few && rows > on.few) ||
               (s.past_few && !(s.small && cols > FEW_SMALL_SHORT_UP_TO) && !s.tiled);
  s.few_rows = rows > on.narrow && rows <= std::min(on.few, FEW_ROWS) && cols > on.few;
  s.tiles_aligned = s.few_rows ? rows % VEC == 0 && cols % VEC == 0 && rows >= FEW_ROWS_TILED_FROM
                               : rows % FLOATS_PER_64_BYTES == 0 && cols % FLOATS_PER_SECTOR == 0;
  s.few_waves = on.few_waves != rules::FEW_WAVES_NEVER && !s.past_few &&
                std::min(rows, cols) >= FEW_WAVES_FROM && few_waves_of(gpu, std::max(rows, cols));
  // The tiles: which kernel, which thin edges the tiles beside them take, how many tiles.
  s.realigning_kernel = rows % VEC != 0 || (!on.each_side && cols % VEC != 0);
  const bool short_column = rows / TILE_DIM <= SHORT_COLUMN_OF_TILES;
  s.sector_half_rows = on.whole_sectors && rows % FLOATS_PER_SECTOR == VEC;
  const bool thin_cols_sectors =
      on.thin_cols_sectors && s.sector_half_rows && cols / TILE_DIM > on.along_up_to;
  s.absorb_aligned = !s.realigning_kernel && on.absorb_aligned &&
                     ((short_column && thin_edge(rows, THIN_ROWS_ALIGNED)) ||
                      (thin_edge(cols, BELOW) && !thin_cols_sectors));
  s.absorb = s.realigning_kernel ? on.absorb && !on.split_chunks : s.absorb_aligned;
  const int thin_rows = s.absorb ? (s.realigning_kernel ? BELOW : THIN_ROWS_ALIGNED) : 0;
  s.row_tiles = tiles_along(rows, thin_rows);
  s.col_tiles = tiles_along(cols, s.absorb ? BELOW : 0);
  // The order: along the rows of tiles where a row of tiles is short, or the input rows are off
  // 64-byte boundaries (aligned loads, output rows on sectors, at most ALONG_WIDE columns' lengths)
  // unless one of three rules sends such a matrix down first; very tall matrices along first.
  const auto wide_from = [&](std::int64_t sixteenths) { return cols * 16 >= rows * sixteenths; };
  const bool half_line_rows_down = on.half_line_rows_down &&
                                   rows % FLOATS_PER_64_BYTES == FLOATS_PER_SECTOR &&
                                   wide_from(DOWN_WIDE_SIXTEENTHS);
  const bool long_row_down = on.along_short_rows && s.col_tiles > ALONG_MAX_TILES;
  const bool off_256_rows_down =
      on.off_256_rows_down && rows % FLOATS_PER_64_BYTES == 0 && rows % FLOATS_PER_256_BYTES != 0 &&
      rows >= DOWN_OFF_256_MIN_ROWS && wide_from(DOWN_OFF_256_SIXTEENTHS);
  s.down_instead = half_line_rows_down || long_row_down || off_256_rows_down;
  const bool split_input_pieces =
      on.along_up_to != rules::DOWN_FIRST && rows % FLOATS_PER_SECTOR == 0 && cols % VEC == 0 &&
      cols % FLOATS_PER_64_BYTES != 0 && s.col_tiles <= ALONG_WIDE * s.row_tiles && !s.down_instead;
  s.along_first = s.col_tiles <= on.along_up_to || split_input_pieces;
  s.very_tall = on.along_up_to != rules::DOWN_FIRST && rows % FLOATS_PER_64_BYTES == 0 &&
                ((cols % FLOATS_PER_64_BYTES == 0 && rows >= VERY_TALL * cols) ||
                 (cols % VEC != 0 && rows >= TALL_REALIGNED * cols));
  // Wide fetches where the input rows are off 256-byte boundaries (down first only in columns of
  // at most WIDE_DOWN_MAX_ROWS, WIDE_DOWN_ALIGNED_MAX_ROWS with aligned loads); only where the
  // build and the GPU have them, as bulk stores only where they have those.
  s.wide = on.wide_fetches && gpu.wide_fetches && cols % FLOATS_PER_256_BYTES != 0;
  s.wide_down = s.wide && (rows <= WIDE_DOWN_MAX_ROWS || (on.wide_down_taller && cols % VEC == 0 &&
                                                          rows <= WIDE_DOWN_ALIGNED_MAX_ROWS));
  s.whole_bulk = gpu.bulk_copies;
  return s;
}

using rule_fn = std::optional<plan> (*)(const situation&);
struct rule {
  const char* name;
  rule_fn apply;
};

namespace rule_of {
using opt = std::optional<plan>;
// Nothing to move (a grid of zero blocks is an error).
inline opt empty(const situation& s) {
  return s.rows == 0 || s.cols == 0 ? opt(plan{}) : std::nullopt;
}
// One row or one column: its transpose is the same floats in the same order.
inline opt single_row_or_column(const situation& s) {
  return s.rows == 1 || s.cols == 1 ? opt(copy_plan(s.rows, s.cols)) : std::nullopt;
}
// Pointers off 16-byte boundaries: aligned lines, one float per access, work at any alignment.
inline opt unaligned_pointers(const situation& s) {
  return s.shape.aligned ? std::nullopt : opt(lines_plan(s.rows, s.cols, false));
}
// Only the input rows off, both sides of HALVES_FROM_SIDE or more, 1 to 32 tiles per SM.
inline opt halves(const situation& s) {
  return s.on.halves && loads_in_halves(s.gpu, s.rows, s.cols) ? opt(halves_plan(s.rows, s.cols))
                                                               : std::nullopt;
}
// About one wave of few rows or few columns.
inline opt stretch(const situation& s) {
  const int run = s.on.stretch ? stretch_run(s.gpu, s.rows, s.cols) : 0;
  return run > 0 ? opt(stretch_plan(s.rows, s.cols, run)) : std::nullopt;
}
constexpr bool output_off_both_long(std::int64_t rows, std::int64_t cols) {
  return rows % VEC != 0 && std::min(rows, cols) >= 2 * TILE_DIM;
}
constexpr bool one_wave_lines_off(std::int64_t rows, std::int64_t cols) {
  if (rows % VEC == 0 && cols % VEC == 0) return false;  // both sides aligned: not this rule
  if (std::min(rows, cols) >= 2 * TILE_DIM) return output_off_both_long(rows, cols);
  if (rows > cols)
    return rows % VEC != 0 && (cols == TILE_DIM || cols >= tuning::LINES_FEW_COLS_FROM);
  return 4 * rows > 3 * TILE_DIM * ((rows + TILE_DIM - 1) / TILE_DIM);
}
// One side off, one wave of lines (with output rows off and both sides of 128 or more, up to
// LINES_OUTPUT_OFF_TILES_PER_SM).
inline opt lines_one_side(const situation& s) {
  if (!s.on.lines_one_side || !one_wave_lines_off(s.rows, s.cols)) return std::nullopt;
  const std::int64_t tiles_per_sm = line_tiles_per_sm(s.gpu, s.rows, s.cols);
  if (tiles_per_sm <= LINE_BLOCKS_PER_SM)
    return lines_one_wave_plan(s.rows, s.cols, tiles_per_sm, false);
  if (output_off_both_long(s.rows, s.cols) && tiles_per_sm <= tuning::LINES_OUTPUT_OFF_TILES_PER_SM)
    return lines_thin_edges_plan(s.rows, s.cols, true);
  return std::nullopt;
}
// 41 to 112 rows (not both sides aligned) of a small wide matrix: one wave's run up to 64 rows,
// runs of 32 past them.
inline opt few_rows_small(const situation& s) {
  using namespace tuning;
  if (!(s.on.few_rows_small && s.on.few > 0 && s.rows > FEW_ROWS &&
        s.rows <= FEW_SMALL_SHORT_UP_TO && s.cols > s.rows &&
        !(s.rows % VEC == 0 && s.cols % VEC == 0) && few_waves_of(s.gpu, s.cols)))
    return std::nullopt;
  if (s.rows <= FEW_SIDE)
    return few_plan(s.gpu, s.rows, s.cols, ANY_RUN, one_wave_run(s.gpu, false, s.rows, s.cols));
  return few_runs_plan(s.gpu, s.rows, s.cols, few_options{}, /*small=*/true);
}
inline bool few_rows_wide_at(const situation& s) {
  return s.on.few > 0 && s.rows % VEC != 0 && s.rows > FEW_SIDE && s.cols > s.rows &&
         !few_runs_below(s.gpu, s.cols, tuning::FEW_SMALL_WAVES);
}
// 65 to 113 rows off a multiple of 4 of a large wide matrix: runs of 32.
inline opt few_rows_wide(const situation& s) {
  return s.on.few_rows_wide && few_rows_wide_at(s) && s.rows <= tuning::FEW_WIDE_ROWS_UP_TO
             ? opt(few_runs_plan(s.gpu, s.rows, s.cols, few_options{}, /*small=*/true))
             : std::nullopt;
}
// 114 to 127 such rows: runs of 32 with swizzled shared rows (past 115 rows only aligned input
// rows of many runs).
inline opt few_rows_wide_swizzled(const situation& s) {
  using namespace tuning;
  const bool applies =
      s.on.few_rows_wide_swizzled && few_rows_wide_at(s) && s.rows > FEW_WIDE_ROWS_UP_TO &&
      s.rows <= FEW_WIDE_SWIZZLED_UP_TO &&
      (s.rows <= FEW_WIDE_SWIZZLED_ANY_COLS_UP_TO ||
       (s.cols % VEC == 0 &&
        !few_runs_below(s.gpu, s.cols, FEW_WIDE_SWIZZLED_RUNS_PER_SM, FEW_SHORT_RUN)));
  return applies ? opt(few_plan(s.gpu, s.rows, s.cols, FEW_SHORT_RUN, FEW_SHORT_RUN,
                                COMPACT_PITCH_MOD, true))
                 : std::nullopt;
}
// Few columns or few rows, unless the tiles' accesses are aligned there, or in a few waves the
// tiles measured faster.
inline opt few_side(const situation& s) {
  const bool few_waves_tiles = s.on.few_waves_tiles && s.few_waves && s.few_cols &&
                               s.cols <= s.on.few &&
                               ((s.rows % VEC == 0 && s.cols % VEC == 0) ||
                                (s.cols >= tuning::FEW_WAVES_TILES_FROM && s.cols < TILE_DIM));
  if (!((s.few_cols || s.few_rows) && (s.on.few_everywhere || !s.tiles_aligned) &&
        !few_waves_tiles))
    return std::nullopt;
  const few_options o{s.on.few_short_runs, s.on.few_waves == rules::FEW_WAVES_ONE_WAVE,
                      s.on.few_cols_sectors, s.on.few_sectors_short};
  return few_runs_plan(s.gpu, s.rows, s.cols, o, s.small, s.few_waves);
}
// A side of at most `narrow` floats, or short output rows off 16-byte boundaries: kernel_narrow.
inline opt narrow(const situation& s) {
  const bool short_odd_rows =
      s.on.narrow > 0 && s.rows % VEC != 0 && s.rows <= s.on.narrow_odd && s.rows <= s.cols;
  return std::min(s.rows, s.cols) <= s.on.narrow || short_odd_rows
             ? opt(narrow_plan(s.rows, s.cols))
             : std::nullopt;
}
// Both sides off: one wave of lines on any GPU; past it, lines for one row of tiles, or down the
// columns (not very tall) on GPUs of much DRAM bandwidth per SM or of few tiles per SM.
inline opt lines_both_off(const situation& s) {
  using namespace tuning;
  if (s.on.lines == rules::LINES_NEVER || s.rows % VEC == 0 || s.cols % VEC == 0)
    return std::nullopt;
  const std::int64_t tiles_per_sm = line_tiles_per_sm(s.gpu, s.rows, s.cols);
  if (s.on.one_wave != rules::ONE_WAVE_NEVER && tiles_per_sm <= LINE_BLOCKS_PER_SM)
    return lines_one_wave_plan(s.rows, s.cols, tiles_per_sm,
                               s.on.one_wave == rules::ONE_WAVE_EIGHT_BLOCKS);
  const bool one_row_of_tiles = s.rows <= TILE_DIM + BELOW;
  if (one_row_of_tiles ||
      (!s.along_first && !s.very_tall && s.rows < TALL_REALIGNED * s.cols &&
       (s.on.lines == rules::LINES_ALWAYS || s.gpu.dram_gbps_per_sm >= LINES_MIN_GBPS_PER_SM ||
        tiles_per_sm <= LINES_ANY_GPU_TILES_PER_SM)))
    return lines_thin_edges_plan(s.rows, s.cols, s.on.lines_absorb);
  return std::nullopt;
}
inline bool whole_sectors_at(const situation& s) { return s.sector_half_rows && !s.absorb_aligned; }
// rows % 8 == 4, aligned loads, along first (or very tall with input rows off 64 bytes).
inline opt sectors_along(const situation& s) {
  const bool applies = s.on.sectors_along && whole_sectors_at(s) && s.cols % VEC == 0 &&
                       (s.along_first || (s.cols % FLOATS_PER_64_BYTES != 0 &&
                                          s.rows >= tuning::SECTORS_ALONG_TALL * s.cols));
  return applies ? opt(whole_sectors_plan(s.rows, s.cols, s.wide, false)) : std::nullopt;
}
inline tile_options tile_options_of(const situation& s, bool whole_bulk) {
  return {s.on.each_side, whole_bulk && s.whole_bulk, s.on.split_chunks, s.on.shifted_bulk,
          s.on.absorb};
}
// A short row of tiles, or input rows off 64 bytes not too wide: along the rows of tiles first.
inline opt along(const situation& s) {
  return s.along_first ? opt(tiles_plan(s.rows, s.cols, false, tile_options_of(s, s.on.along_bulk),
                                        s.row_tiles, s.col_tiles, s.absorb_aligned, s.wide))
                       : std::nullopt;
}
// Very tall, output rows on 64 bytes: along first with bulk stores.
inline opt very_tall(const situation& s) {
  return s.very_tall ? opt(tiles_plan(s.rows, s.cols, false, tile_options_of(s, true), s.row_tiles,
                                      s.col_tiles, s.absorb_aligned, s.wide))
                     : std::nullopt;
}
// rows % 8 == 4 down the columns: whole sectors per block.
inline opt sectors_down(const situation& s) {
  return whole_sectors_at(s) ? opt(whole_sectors_plan(s.rows, s.cols, s.wide_down, true))
                             : std::nullopt;
}
// Everything else: down the columns of tiles first.
inline opt down(const situation& s) {
  return tiles_plan(s.rows, s.cols, true, tile_options_of(s, true), s.row_tiles, s.col_tiles,
                    s.absorb_aligned, s.wide_down);
}
}  // namespace rule_of

//! [table]
// The rules in the order they are tried: the first that applies makes the plan.
inline const rule RULES[] = {
    {"nothing to move", rule_of::empty},
    {"one row or one column: a copy", rule_of::single_row_or_column},
    {"pointers off 16-byte boundaries: aligned lines", rule_of::unaligned_pointers},
    {"only the input rows off: loads in halves", rule_of::halves},
    {"about one wave of few rows or columns: stretches", rule_of::stretch},
    {"one side off, about one wave: aligned lines", rule_of::lines_one_side},
    {"41 to 112 rows of a small wide matrix: few rows", rule_of::few_rows_small},
    {"65 to 113 rows off of a large wide matrix: few rows in runs of 32", rule_of::few_rows_wide},
    {"114 to 127 rows off of a large wide matrix: swizzled few rows",
     rule_of::few_rows_wide_swizzled},
    {"a side of a few dozen floats: the few-side kernels", rule_of::few_side},
    {"a side of at most 16 floats, or short odd rows: narrow", rule_of::narrow},
    {"both sides off: aligned lines", rule_of::lines_both_off},
    {"output rows 16 bytes off a sector: whole sectors along", rule_of::sectors_along},
    {"a short row of tiles: tiles along the rows first", rule_of::along},
    {"very tall: tiles along the rows first, bulk stores", rule_of::very_tall},
    {"output rows 16 bytes off a sector: whole sectors down", rule_of::sectors_down},
    {"the tiles down the columns first", rule_of::down},
};
//! [table]

// The plan for this shape on this GPU with these rules on.
inline plan choose_plan(const matrix_shape& shape, const gpu_facts& gpu, const rules& on = {}) {
  const situation s = situation_of(shape, gpu, on);
  for (const rule& r : RULES)
    if (std::optional<plan> p = r.apply(s)) {
      p->rule = r.name;
      return *p;
    }
  return plan{};  // not reached: the last rule always applies
}

// --- Printing ----------------------------------------------------------------------------------

inline const char* kernel_name(kernel_kind k) {
  switch (k) {
    case kernel_kind::nothing:
      return "none";
    case kernel_kind::copy:
      return "cudaMemcpyAsync";
    case kernel_kind::narrow:
      return "kernel_narrow";
    case kernel_kind::lines:
      return "kernel_lines";
    case kernel_kind::few_cols:
      return "kernel_few_cols";
    case kernel_kind::few_rows:
      return "kernel_few_rows";
    case kernel_kind::stretch_rows:
      return "kernel_stretch_rows";
    case kernel_kind::stretch_cols:
      return "kernel_stretch_cols";
    case kernel_kind::loads_in_halves:
      return "kernel_loads_in_halves";
    case kernel_kind::whole_sectors:
      return "kernel_whole_sectors";
    case kernel_kind::tiles:
      return "kernel (the tiles)";
  }
  return "?";
}

inline std::string describe(const plan& p) {
  std::ostringstream o;
  const auto yes = [](bool b) { return b ? "yes" : "no"; };
  o << "rule:   " << p.rule << "\nkernel: " << kernel_name(p.kernel) << "\n";
  switch (p.kernel) {
    case kernel_kind::nothing:
      return o.str();
    case kernel_kind::copy:
      o << "bytes:  " << p.step * std::int64_t(sizeof(float)) << "\n";
      return o.str();
    case kernel_kind::narrow:
      o << "form:   " << (p.gather ? "gather (the output is contiguous)" : "scatter")
        << (p.index64 ? ", 64-bit indices" : ", 32-bit indices") << "\n";
      break;
    case kernel_kind::lines:
      o << "form:   " << p.rows_in_flight << " rows in flight, " << p.min_blocks
        << " blocks per SM, thin edges absorbed: " << yes(p.absorb) << "\n";
      break;
    case kernel_kind::few_cols:
    case kernel_kind::few_rows:
      o << "run:    " << p.run
        << (p.run_template == ANY_RUN ? " floats (chosen at launch)" : " floats")
        << ", pitch 4 past a multiple of " << p.pitch_mod << ", swizzled: " << yes(p.swizzle)
        << ", whole sectors: " << yes(p.sectors) << "\n";
      break;
    case kernel_kind::stretch_rows:
    case kernel_kind::stretch_cols:
      o << "run:    " << p.run << " floats\n";
      break;
    case kernel_kind::loads_in_halves:
      break;
    case kernel_kind::whole_sectors:
    case kernel_kind::tiles:
      o << "order:  "
        << (p.down ? "down the columns of tiles first" : "along the rows of tiles first")
        << "\nloads:  " << (p.aligned_loads ? "aligned" : "realigned")
        << (p.wide_fetch ? ", wide fetches" : "")
        << "\nstores: " << (p.aligned_stores ? "aligned" : "realigned, whole chunks")
        << (p.whole_bulk ? ", whole tiles by bulk copies" : ", from registers")
        << (p.split_chunks ? ", chunks split at tile edges" : "")
        << "\nthin edges absorbed: " << yes(p.absorb) << "\n";
      break;
  }
  o << "blocks: " << p.step << " x " << p.walk << " (" << (p.walk + MAX_GRID_Y - 1) / MAX_GRID_Y
    << " launch" << (p.walk > MAX_GRID_Y ? "es" : "") << "), " << BLOCK_THREADS << " threads each, "
    << p.shared_bytes << " bytes of dynamic shared memory\n";
  return o.str();
}

}  // namespace transpose_any_shape
