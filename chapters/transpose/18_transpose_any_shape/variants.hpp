// variants.hpp: the --sweep's variants of transpose_any_shape, a table of named entries: each
//   turns one rule of the plan off (or changes one choice) and says what that measures. The
//   names are the result rows' variant column (committed CSVs join on them): never rename one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plan.hpp"

namespace transpose_any_shape {

struct variant {
  std::string name;  // empty: the default
  rules on;
  std::string measures;  // what the comparison with the default measures (--list-variants)
};

constexpr std::size_t VARIANT_COUNT = 43;

inline std::vector<variant> make_variant_table() {
  std::vector<variant> t;
  const auto add = [&](const char* name, const char* measures, auto change) {
    rules on;
    change(on);
    t.push_back({name, on, measures});
  };
  using R = rules;
  add("", "the default", [](R&) {});
  add("narrow kernel up to 8", "the narrow kernel for sides of at most 8 floats instead of 16",
      [](R& r) { r.narrow = 8; });
  add("no narrow kernel", "64 x 64 tiles for every shape", [](R& r) { r.narrow = 0; });
  add("tiles along rows first", "transpose_fast's order (along the rows of tiles, bulk stores)",
      [](R& r) { r.along_up_to = R::ALONG_FIRST, r.along_bulk = true; });
  add("tiles down columns first", "always down the columns of tiles first",
      [](R& r) { r.along_up_to = R::DOWN_FIRST; });
  add("short rows with bulk stores", "short rows of tiles with bulk stores, not from registers",
      [](R& r) { r.along_bulk = true; });
  add("both sides realigned", "both sides realigned where only the input rows need it",
      [](R& r) { r.each_side = false; });
  add("chunks split at tile edges", "output chunks at tile edges split between two blocks",
      [](R& r) { r.split_chunks = true; });
  add("realigned rows from registers", "whole tiles of realigned output rows from registers",
      [](R& r) { r.shifted_bulk = false; });
  add("last rows in tiles of their own", "realigned thin edges in tiles of their own",
      [](R& r) { r.absorb = false; });
  add("thin aligned edges in tiles of their own", "aligned thin edges in tiles of their own",
      [](R& r) { r.absorb_aligned = false; });
  add("no wide fetches", "input loads without the .L2::256B prefetch size",
      [](R& r) { r.wide_fetches = false; });
  add("no aligned lines", "both sides odd on the realigning tiles on every GPU",
      [](R& r) { r.lines = R::LINES_NEVER; });
  add("aligned lines on every GPU", "both sides odd on aligned lines on every GPU",
      [](R& r) { r.lines = R::LINES_ALWAYS; });
  add("lines with thin tiles of their own", "aligned lines with thin edges in tiles of their own",
      [](R& r) { r.lines_absorb = false; });
  add("no one-wave lines", "no one-wave aligned lines for small matrices",
      [](R& r) { r.one_wave = R::ONE_WAVE_NEVER; });
  add("one-wave lines at 8 blocks per SM", "one-wave lines at 8 blocks per SM always",
      [](R& r) { r.one_wave = R::ONE_WAVE_EIGHT_BLOCKS; });
  add("short odd rows on tiles", "up to 40 odd rows on the tiles, not narrow or few-side kernels",
      [](R& r) { r.narrow_odd = 0, r.few = 0; });
  add("no few-side kernels", "a side of 17 to 64 floats on the kernels before the few-side ones",
      [](R& r) { r.few = 0; });
  add("few-side kernels at aligned sides too", "the few-side kernels where the tiles are aligned",
      [](R& r) { r.few_everywhere = true; });
  add("few columns up to 64 only", "65 to 127 columns of odd rows on the tiles",
      [](R& r) { r.few_odd = FEW_SIDE; });
  add("few columns up to 96 only", "97 to 127 columns of odd rows on the tiles",
      [](R& r) { r.few_odd = tuning::FEW_FULL_PITCH_UP_TO; });
  add("few columns past 64 as before", "small matrices of 65 to 127 odd-row columns in runs of 128",
      [](R& r) { r.few_small = false; });
  add("few-side kernels in a few waves as before", "a few waves in runs of 128, never the tiles",
      [](R& r) { r.few_waves = R::FEW_WAVES_NEVER; });
  add("few-side runs of 64 in a few waves", "a few waves in runs of 64 only",
      [](R& r) { r.few_waves = R::FEW_WAVES_RUNS_OF_64; });
  add("few-side runs in a few waves without the tiles", "a few waves never on the tiles",
      [](R& r) { r.few_waves_tiles = false; });
  add("small wide matrices of 41 to 112 rows on the tiles as before",
      "small wide matrices of 41 to 112 rows on the tiles", [](R& r) { r.few_rows_small = false; });
  add("few-side runs of 128 only", "runs of 128 where they are fewer blocks than SMs",
      [](R& r) { r.few_short_runs = false; });
  add("aligned lines only where both sides are off", "no one-wave lines where one side is off",
      [](R& r) { r.lines_one_side = false; });
  add("no one-wave stretches", "about one wave of few rows or columns without the stretches",
      [](R& r) { r.stretch = false; });
  add("input rows off at five blocks per SM", "only the input rows off without loads in halves",
      [](R& r) { r.halves = false; });
  add("wide matrices of 65 to 113 rows off as before", "65 to 113 odd rows of wide matrices",
      [](R& r) { r.few_rows_wide = false; });
  add("wide matrices of 114 to 127 rows off as before", "114 to 127 odd rows of wide matrices",
      [](R& r) { r.few_rows_wide_swizzled = false; });
  add("output rows 16 bytes off a sector as before", "rows % 8 == 4 without whole sectors",
      [](R& r) { r.whole_sectors = false; });
  add("output rows 16 bytes off a sector along as before", "rows % 8 == 4 along, no whole sectors",
      [](R& r) { r.sectors_along = false; });
  add("few columns without whole sectors", "few odd-row columns without whole sectors",
      [](R& r) { r.few_cols_sectors = false; });
  add("few columns with whole sectors in runs of 128 as before",
      "whole sectors past 64 columns in runs of 128, not 64 within the L1's share",
      [](R& r) { r.few_sectors_short = false; });
  add("tall matrices of 116 to 127 columns on kernel_few_cols as before",
      "116 to 127 odd-row columns at 7 to 11 runs per SM on kernel_few_cols",
      [](R& r) { r.few_cols_tiled = false; });
  add("output rows 32 bytes off 64 along as before", "rows % 16 == 8 along the rows of tiles",
      [](R& r) { r.half_line_rows_down = false; });
  add("long rows of tiles along first as before", "rows of more than 700 tiles along first",
      [](R& r) { r.along_short_rows = false; });
  add("wide fetches down 20000 rows at most as before", "wide fetches down columns of 20000 rows",
      [](R& r) { r.wide_down_taller = false; });
  add("output rows off 256 along up to 4 columns as before",
      "rows % 64 of 16, 32 or 48 along up to 4 columns' lengths",
      [](R& r) { r.off_256_rows_down = false; });
  add("thin last columns absorbed off a sector as before",
      "rows % 8 == 4 with thin last columns on the tiles that absorb them",
      [](R& r) { r.thin_cols_sectors = false; });
  return t;
}
inline const std::vector<variant>& variant_table() {
  static const std::vector<variant> table = make_variant_table();
  return table;
}

}  // namespace transpose_any_shape
