// transpose_any_shape: tests. Host: the window picks the right floats for every shift. GPU: every
// test shape of the part, then each shape class of the issue that asked for this step: every
// combination of rows % 4 and cols % 4 around tile edges, multiples of 4 that are not multiples of
// 64, tall and skinny matrices both ways, a side of a few dozen floats around the edges of a
// block's run, about one wave of few rows or few columns (the stretch kernels), loads in halves
// where only the input rows are off, few rows off a multiple of 4 of large wide matrices, output
// rows 16 bytes off a sector (whole sectors per block, down the columns of tiles, with thin last
// columns in tiles of their own, and along the rows), few columns of output rows off 16-byte
// boundaries (kernel_few_cols with whole sectors, past 64 columns in runs of 64 within the L1's
// share, and the tiles at 116 to 127 columns), the order of the tiles where rows % 16 == 8, past
// 700 tiles across and where rows % 64 is 16, 32 or 48 from 1.5 times as wide as tall, wide fetches
// down columns of up to 28000 rows, single rows and columns, and more rows or columns of tiles than
// a grid has blocks in y. (More than 2^31 elements: the program's tests in CMakeLists.txt.)
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/transpose/testing.hpp"
#include "transpose_any_shape.cuh"

namespace {
using namespace transpose_any_shape;
using shape = std::pair<std::int64_t, std::int64_t>;

// The default and every --sweep variant (the narrow kernel's width, the tiles along rows first
// and down columns first, short rows of tiles with bulk stores, both sides realigned where only
// the input rows need it, the chunks at tile edges split between two blocks, realigned output rows
// stored from registers instead of with bulk copies, the thin last rows and columns in tiles of
// their own, of matrices with realigned and with aligned output rows, no wide fetches, and the
// aligned lines never, on every GPU, without absorbed edges, without one-wave grids and with
// one-wave grids at 8 blocks per SM, short odd rows on tiles, no few-side kernels, the few-side
// kernels where both sides are aligned too, few columns up to 64 and up to 96 only, few columns
// past 64 as before the rule for small matrices, sides of at most 64 in a few waves as before
// their rule, in runs of 64 and without the tiles, small wide matrices of 41 to 112 rows on the
// tiles as before, in long runs only, aligned lines only where both sides are off, no one-wave
// stretches, input rows off at five blocks per SM, wide matrices of 65 to 113 and of 114 to 127
// rows off as before their rules, output rows 16 bytes off a sector as before whole sectors and
// along as before, few columns without whole sectors, and with whole sectors past 64 columns in
// runs of 128 as before, 116 to 127 columns on kernel_few_cols as before the tiles took them, and
// output rows 32 bytes off 64-byte boundaries along the rows of tiles as before, long rows of
// tiles along first as before, wide fetches down columns of at most 20000 rows as before, and
// output rows off 256-byte boundaries along the rows of tiles up to 4 columns long as before, and
// thin last columns absorbed by the tiles beside them where rows % 8 == 4 as before).
const std::vector<common::matrix_variant> VARIANTS = variants();

// The default (VARIANTS[0]), and a variant by its name.
const common::matrix_launch& variant_named(const std::string& name) {
  for (const auto& v : VARIANTS)
    if (v.name == name) return v.launch;
  throw std::invalid_argument("no variant " + name);
}

// One kernel's plan at any shape (the kernels' tests at sizes the rules do not give them).
common::matrix_launch forced(
    std::function<plan(const gpu_facts&, std::int64_t, std::int64_t)> make) {
  return [make](const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols) {
    if (rows == 0 || cols == 0) return;
    gpu_facts gpu;
    CUDA_CHECK(gpu_facts_here(gpu));
    CUDA_CHECK(run(make(gpu, rows, cols), d_in, d_out, rows, cols));
  };
}
// kernel_few_cols or kernel_few_rows in runs of RUN (the few-side kernels' forms the rules use).
common::matrix_launch few_runs(int run, int pitch = FULL_PITCH_MOD, bool swizzle = false,
                               bool sectors = false) {
  return forced([=](const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
    return few_plan(g, rows, cols, run, run, pitch, swizzle, sectors);
  });
}
common::matrix_launch few_cols_l1_share(int pitch) {
  return forced([=](const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
    return few_plan(g, rows, cols, FEW_SECTORS_RUN, FEW_SECTORS_RUN, pitch, false, true,
                    tuning::FEW_L1_SHARE_BYTES);
  });
}
// The stretch kernels at any shape: kernel_stretch_rows (at most 64 rows in runs of 64, at most
// 128 in runs of 32) and kernel_stretch_cols (at most 64 columns), whichever side is longer.
common::matrix_launch stretch_rows(int run) {
  return forced([=](const gpu_facts&, std::int64_t, std::int64_t cols) {
    plan p = stretch_plan(1, 2, run);
    p.step = (cols + run - 1) / run;
    return p;
  });
}
common::matrix_launch stretch_cols() {
  return forced([](const gpu_facts&, std::int64_t rows, std::int64_t) {
    plan p = stretch_plan(2, 1, TILE_DIM);
    p.step = (rows + TILE_DIM - 1) / TILE_DIM;
    return p;
  });
}

// Exact comparison with the CPU transpose at each shape, a different seed per shape, for each
// variant (common::testing::check_shapes: each shape's input and CPU transpose made once).
void check_shapes(const std::vector<shape>& shapes,
                  const std::vector<common::matrix_variant>& variants) {
  common::testing::check_shapes(variants, common::matrix_result::transpose, shapes, 100);
}

void check_shapes(const std::vector<shape>& shapes,
                  const common::matrix_launch& launch = VARIANTS[0].launch) {
  check_shapes(shapes, {common::matrix_variant{"", launch, VARIANTS[0].limits}});  // any shape
}

// check_shapes for the default and every --sweep variant.
void check_every_variant(const std::vector<shape>& shapes) { check_shapes(shapes, VARIANTS); }

// check_shapes for the default and the --sweep variants whose names contain `fragment` (the rules
// before a rule, and its other forms).
void check_default_and_variants(const std::vector<shape>& shapes, const std::string& fragment) {
  std::vector<common::matrix_variant> chosen;
  for (const auto& variant : VARIANTS)
    if (variant.name.empty() || variant.name.find(fragment) != std::string::npos)
      chosen.push_back(variant);
  check_shapes(shapes, chosen);
}

// Every (rows, cols) of the two lists, rows in the outer loop.
std::vector<shape> every_pair(const std::vector<std::int64_t>& rows,
                              const std::vector<std::int64_t>& cols) {
  std::vector<shape> shapes;
  for (const std::int64_t r : rows)
    for (const std::int64_t c : cols) shapes.push_back({r, c});
  return shapes;
}
}  // namespace

HOST_TEST_CASE("window(lo hi shift) is floats shift .. shift + 3 of the pair lo hi") {
  const float4 lo = make_float4(0, 1, 2, 3), hi = make_float4(4, 5, 6, 7);
  for (int shift = 0; shift <= VEC; ++shift) {
    CAPTURE(shift);
    const float4 v = window(lo, hi, shift);
    for (int i = 0; i < VEC; ++i) CHECK(float_of(v, i) == float(shift + i));
  }
}

GPU_TEST_CASE(
    "transpose_any_shape and its sweep variants equal the CPU transpose at every test "
    "shape") {
  common::testing::check_matrix_shapes(VARIANTS, common::matrix_result::transpose);
}

GPU_TEST_CASE("sides that are not multiples of 4: every rows % 4 x cols % 4 around tile edges") {
  // 2 .. 5 floats, one tile minus/plus a few, two tiles plus a few: each residue mod 4, whole and
  // partial tiles, rows that start at every offset from a 16-byte boundary.
  const std::vector<std::int64_t> sides = {2, 3, 5, 6, 61, 62, 63, 65, 66, 67, 129, 130, 131, 197};
  std::vector<shape> shapes = every_pair(sides, sides);
  shapes.push_back({4097, 4099});
  shapes.push_back({4099, 4097});
  shapes.push_back({1001, 1001});
  // Both sides odd (kernel_lines' shapes): one wave of tiles at up to 4, 5 and 8 blocks per SM on a
  // GPU of 132 SMs (1001 x 1001 and 131 x 1101 at 4 or fewer; 2051 x 1103 at 5; 2049 x 2047 at 8),
  // and more than one wave with a thin side of few tiles, taken into the tiles beside it (129 and
  // 257 rows: about 10 tiles per SM, lines on every GPU).
  for (const shape& s : {shape{131, 1101}, shape{2051, 1103}, shape{2049, 2047}, shape{129, 40001},
                         shape{257, 20003}})
    shapes.push_back(s);
  check_every_variant(shapes);
}

GPU_TEST_CASE("rows at every residue mod 8 with several tiles of rows and columns") {
  // Output rows that start at every offset from a 32-byte sector, 2 .. 4 tiles of rows (whole and
  // partial), cols at each residue mod 4.
  std::vector<shape> shapes =
      every_pair({128, 129, 130, 131, 132, 133, 134, 135, 136}, {64, 65, 66, 67, 130});
  for (std::int64_t rows : {193, 196, 199, 250, 255}) shapes.push_back({rows, 131});
  check_every_variant(shapes);
}

GPU_TEST_CASE("multiples of 4 that are not multiples of 64: partial tiles on the 16-byte path") {
  check_every_variant({{4, 4},
                       {4, 68},
                       {68, 4},
                       {60, 60},
                       {68, 68},
                       {132, 200},
                       {136, 200},
                       {4100, 4100},
                       {1028, 3076},
                       {3076, 1028},
                       {1032, 1028}});
  // The order for rows % 16 == 8 with input rows off 64-byte boundaries, more than 16 tiles across:
  // down first from cols >= 15 / 16 rows (1048 x 1100, 1160 x 1100), along just under it
  // (1176 x 1100); rows % 16 == 0 (1056), input rows on 64-byte boundaries (1104), short rows of
  // tiles (300) and rows of tiles past ALONG_WIDE columns' lengths (4420); on the default and on
  // the order before.
  check_default_and_variants({{1048, 1100},
                              {1160, 1100},
                              {1176, 1100},
                              {1056, 1100},
                              {1048, 1104},
                              {1048, 300},
                              {1048, 4420}},
                             "32 bytes off 64");
}

GPU_TEST_CASE("rows of tiles past ALONG_MAX_TILES and wide fetches down taller columns") {
  // Input rows off 64-byte boundaries with aligned loads, output rows on 256-byte boundaries:
  // along the rows of tiles up to 700 tiles across (11264 x 44740), down first past it
  // (11264 x 44804, along before).
  check_default_and_variants({{11264, 44740}, {11264, 44804}}, "long rows of tiles");
  // Wide fetches down the columns (whole sectors, rows % 8 == 4): up to 20000 rows at any cols
  // (19996), up to 28000 with aligned loads (20004 and 27996, plain loads before), plain loads
  // past it (28004) and with realigned loads past 20000 (20004 x 3117, 28004 x 3117).
  check_default_and_variants(
      {{19996, 3116}, {20004, 3116}, {27996, 3116}, {28004, 3116}, {20004, 3117}, {28004, 3117}},
      "20000 rows at most");
}

GPU_TEST_CASE("output rows off 256-byte boundaries down first from 1.5 columns wide") {
  // Input rows off 64-byte boundaries with aligned loads, output rows on 64-byte boundaries but off
  // 256-byte ones (rows % 64 == 16, 32, 48) in columns of at least 4096 rows: down first where
  // cols >= 1.5 rows (6172, 6196, 6220; cols % 16 == 12, 4, 12), along first just under it (6164,
  // 6188, 6212: along before on both sides of the line). Along first below 4096 rows (4080,
  // 1040) and with rows % 64 == 0 (4096 x 8196). Partial last tiles both ways.
  check_default_and_variants({{4112, 6172},
                              {4112, 6164},
                              {4128, 6196},
                              {4128, 6188},
                              {4144, 6220},
                              {4144, 6212},
                              {4080, 6124},
                              {1040, 1564},
                              {4096, 8196}},
                             "off 256");
}

GPU_TEST_CASE("tall and skinny matrices both ways") {
  // Sides 2 .. 17 (the narrow kernel up to 16 floats, or 8, or none), then wider ones.
  std::vector<shape> shapes;
  for (std::int64_t side = 2; side <= 17; ++side) {
    shapes.push_back({100003, side});
    shapes.push_back({side, 100003});
  }
  // 17 .. 40 rows of more than 64 columns: kernel_few_rows (18, 37, 39; 40 rows of 100001 too,
  // whose columns are odd), not at 41 rows; at most 64 columns, rows % 4 != 0: the narrow kernel
  // (39 x 39, 39 x 45). ('no few-side kernels' takes the first to the narrow kernel, 'short odd
  // rows on tiles' all of them to the tiles.) 17 .. 64 columns of more rows: kernel_few_cols
  // (100003 x 17 and 37), not where both sides are aligned (100000 x 40, 65536 x 64).
  for (const shape& s : {shape{18, 100003}, shape{39, 100001}, shape{40, 100001}, shape{41, 100001},
                         shape{39, 39}, shape{39, 45}})
    shapes.push_back(s);
  for (const shape& s : {shape{100000, 40}, shape{40, 100000}, shape{100003, 37}, shape{37, 100003},
                         shape{65536, 64}, shape{64, 65536}, shape{4096, 4}, shape{4, 4096}})
    shapes.push_back(s);
  // Rows of 2 .. 17 tiles, whole and partial: the default takes them along the rows of tiles first
  // up to 16 tiles, down the columns first from 17. (The sides of the test of every rows % 4 x
  // cols % 4 are at most 4 tiles across: along the rows, and down the columns in the sweep's
  // variant.)
  for (const shape& s : {shape{20003, 100}, shape{20000, 130}, shape{10001, 301}, shape{10000, 512},
                         shape{4099, 1023}, shape{4096, 1024}, shape{4097, 1025}, shape{4100, 1088},
                         shape{100, 20003}, shape{1023, 4099}})
    shapes.push_back(s);
  // Output rows on 64-byte boundaries, input rows off them, more than 16 tiles across: the default
  // takes them along the rows of tiles first with aligned loads and down the columns with realigned
  // loads (and thin last columns).
  for (const shape& s : {shape{1024, 1028}, shape{1040, 1030}, shape{2048, 1089}, shape{1104, 1096},
                         shape{2064, 2052}})
    shapes.push_back(s);
  // Output rows on sectors but off 64-byte boundaries (rows % 16 == 8); rows of tiles more than 4
  // columns' lengths long (down first); very tall matrices with both sides on 64-byte boundaries
  // and with realigned loads (along first with the bulk stores).
  for (const shape& s : {shape{1032, 1028}, shape{1048, 1089}, shape{1040, 4420},
                         shape{49920, 1040}, shape{9216, 1089}})
    shapes.push_back(s);
  check_every_variant(shapes);
}

GPU_TEST_CASE("thin last rows and columns and whole tiles at the last rows") {
  // Where the output rows are realigned (rows % 4 != 0), the last 1 .. 3 rows (rows = 64 k + 1 ..
  // 3) are taken by the tiles above them (height 65 .. 67) and the last 1 .. 3 columns by the tiles
  // beside them (width 65 .. 67); 'last rows in tiles of their own' in the variants gives them
  // tiles of their own. Whole tiles with such output rows leave by bulk copies only where the 3
  // input rows below them are inside the matrix; 64 k + 5 and 7 leave a partial tile below whole
  // ones; 132 rows keep aligned output rows. Down the columns of tiles (1100 or more columns) and
  // along them (up to 16 tiles across).
  check_every_variant(every_pair({65, 66, 67, 129, 130, 131, 132, 133, 135, 193, 194, 195},
                                 {65, 67, 131, 200, 203, 1027, 1089, 1100, 1101}));
}

GPU_TEST_CASE("thin last rows and columns of matrices with aligned output rows") {
  // rows % 4 == 0: the last 4 or 8 rows (64 k + 4, 64 k + 8) and 1 .. 3 columns (64 k + 1 .. 3)
  // are taken by the tiles above and beside them (height up to 72, width up to 67; the sweep's
  // 'thin aligned edges in tiles of their own' gives them tiles of their own); 76 and 80 rows and
  // 68 and 79 columns keep a partial tile. Below 17 rows of tiles (1092, 1096 rows) the last rows
  // are taken by the tiles above only where the last columns are thin too.
  // Whole and partial tiles around them, aligned and realigned input rows, both orders of the
  // tiles.
  check_every_variant(every_pair({68, 72, 76, 80, 132, 136, 196, 1092, 1096},
                                 {65, 66, 67, 68, 79, 129, 1028, 1089, 1091}));
}

GPU_TEST_CASE("the few-side kernels at every residue around the edges of a block's run") {
  // A side of 17 .. 64 floats (2 .. 16 too, which the default gives the narrow kernel; 65 .. 128,
  // whose shared rows pass 48 KB, and which up to FEW_COLS_ODD_ROWS columns of output rows off
  // 16-byte boundaries take kernel_few_cols in the default, in matrices as small as these in runs
  // of 32 up to FEW_SMALL_SHORT_UP_TO columns and the tiles past it) against a long side of one
  // run, a run and 1 .. 3 floats (the 3 rows each block loads past its own), two runs and more, at
  // every residue mod 4 (output chunks shared by the long rows' ends): both ways, on the few-side
  // kernels in runs of 128 and of 32 floats (for which these long sides are several runs), at both
  // pitches, then on the default and every variant.
  const std::vector<std::int64_t> few = {2,  3,  5,  8,  16, 17, 18, 19, 20,  21,  33, 40,
                                         63, 64, 65, 67, 72, 79, 80, 96, 100, 127, 128};
  const std::vector<std::int64_t> longs = {65,  66,  67,  68,  127, 128, 129,  130,  131,
                                           132, 255, 257, 258, 259, 260, 1001, 1002, 1003};
  std::vector<shape> shapes = every_pair(longs, few);
  for (const shape& s : every_pair(few, longs)) shapes.push_back(s);
  check_shapes(shapes, few_runs(FEW_RUN));
  check_shapes(shapes, few_runs(FEW_SHORT_RUN));
  check_shapes(shapes, few_runs(FEW_RUN, COMPACT_PITCH_MOD));
  check_shapes(shapes, few_runs(FEW_SHORT_RUN, COMPACT_PITCH_MOD));
  check_shapes(shapes, few_runs(FEW_WAVES_RUN));
  for (const int run : {32, 36, 40, 60, 76, 124}) {  // runs chosen at launch, up to FEW_SIDE floats
    CAPTURE(run);
    check_shapes(shapes, forced([run](const gpu_facts& g, std::int64_t rows, std::int64_t cols) {
                   return std::min(rows, cols) <= FEW_SIDE
                              ? few_plan(g, rows, cols, ANY_RUN, run)
                              : choose_plan(matrix_shape{rows, cols}, g);
                 }));
  }
  check_every_variant(shapes);
}

GPU_TEST_CASE("a side of a few dozen floats in a few waves: runs that fill one wave or the tiles") {
  // Long sides whose runs of 128 are one to four blocks per SM (on a GPU of 132 SMs; other GPUs
  // take other kernels at some of these, and every kernel is checked): few columns of rows off a
  // multiple of 4 up to 60 (runs that fill one wave), 61 .. 63 and 64 of few or many tiles per SM
  // (the tiles or such runs), few columns of rows a multiple of 4 (the tiles), and few rows (such
  // runs), on the default and on every variant of the few-waves rule (the rule before it, runs of
  // 64).
  std::vector<shape> shapes =
      every_pair({20001, 30001, 30004, 50003, 60002}, {17, 33, 40, 60, 61, 63, 64});
  for (const shape& s : every_pair({17, 33, 40}, {20001, 60003})) shapes.push_back(s);
  check_default_and_variants(shapes, "few waves");
}

GPU_TEST_CASE("small wide matrices of 41 to 112 rows on kernel_few_rows") {
  // Either side of each edge of the rule (40 / 41 rows, 64 / 65: the run that fills one wave or
  // runs of 32, 96 / 97: the full or the compact pitch, 112 / 113: the tiles), rows and columns
  // not both multiples of 4, and columns whose runs of 128 are fewer than one, one to four and
  // more than four per SM on a GPU of 132 SMs (the rule takes the middle ones), on the default and
  // on the kernels before the rule.
  const std::vector<shape> shapes =
      every_pair({40, 41, 44, 63, 64, 65, 80, 96, 97, 112, 113}, {15001, 30003, 60001, 70001});
  check_default_and_variants(shapes, "small wide");
}

GPU_TEST_CASE("large wide matrices of 65 to 127 rows off on kernel_few_rows") {
  // The swizzled form on its own at every few side it can take (its shared rows fit up to 127 rows
  // of runs of 32 at the compact pitch), long sides of one to many blocks, partial last blocks and
  // every residue mod 4 among them.
  check_shapes(
      every_pair({2, 3, 5, 31, 33, 64, 65, 97, 114, 119, 127}, {129, 130, 1001, 4099, 67457}),
      few_runs(FEW_SHORT_RUN, COMPACT_PITCH_MOD, true));
  // Either side of each edge of the rules: 63 / 65 rows (at most 64: aligned lines in one row of
  // tiles), 96 / 97 (the full or the compact pitch), 113 / 114 (swizzled past it), 115 / 117 (past
  // it swizzled only with input rows aligned), 127 / 129, rows a multiple of 4 among them (64, 68,
  // 100, 116, 128: the kernels before); on a GPU of 132 SMs columns whose runs of 128 are one block
  // fewer than four per SM (67456: the rule for small wide matrices up to 112 rows) or four per SM
  // (67457, 67460), and more, at every residue mod 4 (input rows off or not); on the default and on
  // the kernels before each rule.
  const std::vector<shape> shapes =
      every_pair({63, 64, 65, 67, 68, 69, 96, 97, 100, 113, 114, 115, 116, 117, 119, 127, 128, 129},
                 {67456, 67457, 67460, 70001, 100002, 130003, 140000});
  check_default_and_variants(shapes, "rows off as before");
  // Past 115 rows with input rows aligned, either side of 100 runs of 32 per SM on 132 SMs.
  check_default_and_variants({{119, 422368}, {119, 422372}, {127, 422372}}, "rows off as before");
}

GPU_TEST_CASE("output rows 16 bytes off a sector: whole sectors per block") {
  // The kernel on its own at rows % 8 == 4: one tile of rows or several, the last one whole or of
  // 4 .. 60 rows (rows below a tile or none), cols at each residue mod 4 and whole or partial last
  // columns of tiles, with and without wide fetches.
  const std::vector<shape> shapes =
      every_pair({4, 12, 60, 68, 76, 132, 196, 1028}, {4, 5, 63, 64, 66, 67, 131, 1100, 1103});
  for (const bool wide : {false, true})
    for (const bool down : {true, false})
      check_shapes(shapes,
                   forced([wide, down](const gpu_facts&, std::int64_t rows, std::int64_t cols) {
                     return whole_sectors_plan(rows, cols, wide, down);
                   }));
  // The rule's shapes (down the columns of tiles, more than 16 tiles across) and either side of
  // its edges: rows % 8 == 0 (14792), thin last columns (cols % 64 == 1: in tiles of their own
  // since the rule for them below, taken by the tiles beside them before), input rows off (cols
  // odd), more rows than wide fetches are used for (20004), on the default and on the kernels
  // before.
  check_default_and_variants({{2052, 1100},
                              {2060, 1100},
                              {2052, 1101},
                              {2052, 1089},
                              {4100, 4100},
                              {2056, 1100},
                              {12004, 1380},
                              {20004, 1092}},
                             "off a sector as before");
  // Thin last columns (cols % 64 of 1 .. 3) in tiles of their own where the rows of tiles are
  // longer than 16 tiles (1089 .. 1091 columns: whole sectors), absorbed where they are not (1025)
  // and where the thin last rows of a short column are absorbed too (1028 x 1153); 1092 columns
  // (not thin) as a control; on the default and on the rule before.
  check_default_and_variants({{1100, 1089},
                              {1100, 1090},
                              {1100, 1091},
                              {1100, 1092},
                              {1100, 1025},
                              {1028, 1153},
                              {14788, 1153}},
                             "thin last columns absorbed");
  // The rule along the rows of tiles and either side of its edges: short rows of tiles (at most
  // 16 tiles across) with input rows off 64-byte boundaries or on them (320, 1024), or off 16-byte
  // boundaries (301: the kernels before along), thin last rows that the tiles above take (1028
  // rows: 16 tiles of rows and 4 rows); longer rows of tiles at least 9 times as tall as wide (9828
  // x 1092) or just under it (9820 x 1092), input rows on 64-byte boundaries (1104) or off 16-byte
  // ones (1101: down the columns); on the default and on the kernels before, down and along.
  check_default_and_variants({{2052, 300},
                              {2060, 1000},
                              {2052, 320},
                              {2052, 1024},
                              {2052, 301},
                              {1028, 300},
                              {9828, 1092},
                              {9820, 1092},
                              {9028, 1104},
                              {9028, 1101}},
                             "off a sector");
}

GPU_TEST_CASE("few columns of rows off a multiple of 4: kernel_few_cols with whole sectors") {
  // The kernel on its own at 17 .. 127 columns, at both pitches, against long sides of one run and
  // 1 .. 9 rows (the 7 rows each block loads past its own), two runs and more, at every residue
  // mod 8 (rows % 4 == 0 too, which the rule does not give it).
  const std::vector<shape> shapes =
      every_pair({129, 130, 131, 132, 133, 134, 135, 136, 137, 255, 257, 263, 1001, 1004, 1007},
                 {17, 19, 33, 63, 64, 65, 96, 97, 100, 127});
  check_shapes(shapes, few_runs(FEW_RUN, FULL_PITCH_MOD, false, true));
  check_shapes(shapes, few_runs(FEW_RUN, COMPACT_PITCH_MOD, false, true));
  // The rule and either side of its edges: on a GPU of 132 SMs runs of 128 rows just under four
  // blocks per SM (67455 rows: short runs past 64 columns, the few-side kernels before at 64 and
  // fewer) or four (67457), 96 / 97 columns (the full or the compact pitch), 127 / 128 (the tiles
  // past it), rows a multiple of 4 (70004: the kernel before, or the tiles); on the default and on
  // the kernel before.
  const std::vector<shape> rule =
      every_pair({67455, 67457, 70001, 70004, 200003}, {17, 33, 64, 65, 96, 97, 127, 128});
  check_default_and_variants(rule, "few columns without whole sectors");
}

GPU_TEST_CASE("few columns past 64 of rows off a multiple of 4: runs of 64 within the L1's share") {
  // The kernel on its own (runs of 64, no more blocks per SM than hold their shared rows in
  // 196 KB) at 65 .. 127 columns, at both pitches (widths whose blocks are padded and widths whose
  // are not), against long sides of two runs and 1 .. 9 rows (the 7 rows each block loads past its
  // own), three runs and more, at every residue mod 8 (more rows than columns: kernel_few_cols);
  // and at 65 columns one run and 2 .. 9 rows.
  std::vector<shape> shapes =
      every_pair({129, 130, 131, 132, 133, 134, 135, 136, 137, 191, 193, 199, 1001, 1004, 1007},
                 {65, 72, 80, 88, 96, 97, 104, 108, 124, 127});
  for (const shape& s : every_pair({66, 67, 68, 69, 70, 71, 72, 73}, {65})) shapes.push_back(s);
  check_shapes(shapes, few_cols_l1_share(FULL_PITCH_MOD));
  check_shapes(shapes, few_cols_l1_share(COMPACT_PITCH_MOD));
  // The rule and either side of its edges: on a GPU of 132 SMs runs of 128 rows just under 7
  // blocks per SM (118143 rows: runs of 128 with whole sectors) or 7 (118145), just under 11
  // (185727) or 11 (185729), 64 / 65 columns (FEW_SIDE), 80 / 81 (the line at 11 or at 7), 96 / 97
  // (the full or the compact pitch), 115 / 116 (kernel_few_cols or the tiles from 7 to 11 runs per
  // SM), 127 / 128 (the tiles past it), rows a multiple of 4 (118148: the kernel before, or the
  // tiles); on the default, on runs of 128 and on kernel_few_cols at 116 to 127 columns.
  const std::vector<shape> rule = every_pair({118143, 118145, 118148, 185727, 185729},
                                             {64, 65, 80, 81, 88, 96, 97, 108, 115, 116, 127, 128});
  check_default_and_variants(rule, "in runs of 128 as before");
  check_default_and_variants(rule, "116 to 127 columns on kernel_few_cols as before");
}

GPU_TEST_CASE("one-wave lines where one side is off: either side of the rule's edges") {
  // One side off 16-byte boundaries (output rows: rows % 4 != 0; input rows: cols % 4 != 0) or
  // both, either side of each edge of one_wave_lines_off: few columns of a tall matrix (63 / 64,
  // 72 / 80, 127 / 128 and 129), few rows of a wide one (48 / 49, 96 / 97, 127 / 128 and 129),
  // both sides of 128 or more with output or input rows off; and on a GPU of 132 SMs up to 8 tiles
  // per SM (one wave: aligned lines) or 9 (the kernels before the rule), and with output rows off
  // and both sides of 128 or more 9, 12 and 13 (lines up to 12). On the default and on the rule
  // before it.
  std::vector<shape> shapes =
      every_pair({30003, 30004, 30001}, {48, 49, 63, 64, 72, 80, 96, 97, 127, 128, 129});
  for (const shape& s : every_pair({48, 49, 64, 96, 97, 127, 128, 129}, {30003, 30004}))
    shapes.push_back(s);
  for (const shape& s : {shape{67583, 64}, shape{67649, 64}, shape{64, 67583}, shape{64, 67649},
                         shape{1001, 4096}, shape{4096, 1001}, shape{2049, 1000}, shape{1025, 1024},
                         shape{1024, 1025}, shape{4097, 200}, shape{255, 16384}, shape{12289, 333},
                         shape{2001, 3000}, shape{2001, 3300}})
    shapes.push_back(s);
  check_default_and_variants(shapes, "aligned lines only");
}

GPU_TEST_CASE("the stretch kernels at any size and either side of their rule's edges") {
  // The kernels on their own at every short side they take (1 .. 64 both ways in runs of 64, 65 ..
  // 128 rows in runs of 32), long sides of one to many blocks, partial last blocks among them.
  const std::vector<std::int64_t> longs = {1, 2, 3, 31, 32, 33, 63, 64, 65, 1000, 1001, 4099};
  check_shapes(every_pair({1, 2, 3, 19, 20, 33, 63, 64}, longs), stretch_rows(TILE_DIM));
  check_shapes(every_pair({65, 97, 127, 128}, longs), stretch_rows(TILE_DIM / 2));
  check_shapes(every_pair(longs, {1, 2, 3, 19, 20, 33, 63, 64}), stretch_cols());
  // The rule's edges on a GPU of 132 SMs (more than 4 blocks per SM in runs of 64, more than 6 in
  // runs of 32, at most 8: 528, 792 and 1056 blocks), short sides of 19 / 20, 64 / 65, 96 / 97
  // and 128 / 129, both ways; on the default and on the rules before it.
  std::vector<shape> shapes;
  for (const std::int64_t s : {19, 20, 41, 64})
    for (const std::int64_t l : {33792, 33793, 50001, 67584, 67585}) {
      shapes.push_back({s, l});
      shapes.push_back({l, s});
    }
  for (const std::int64_t s : {65, 96, 97, 128, 129})
    for (const std::int64_t l : {25344, 25345, 30003, 33792, 33793}) {
      shapes.push_back({s, l});
      shapes.push_back({l, s});
    }
  check_default_and_variants(shapes, "stretches");
}

GPU_TEST_CASE("loads in halves at any size and either side of their rule's edges") {
  // The kernel on its own at output rows of 4 to 132 floats (a multiple of 4, as it needs) and
  // input rows at every residue mod 4, partial tiles among them.
  check_shapes(
      every_pair({4, 8, 60, 64, 68, 128, 132}, {1, 2, 3, 5, 63, 64, 65, 66, 67, 129, 1001, 4099}),
      forced([](const gpu_facts&, std::int64_t rows, std::int64_t cols) {
        return halves_plan(rows, cols);
      }));
  // The rule's edges on a GPU of 132 SMs: down the columns of tiles, 1 tile per SM (129 / 132
  // tiles), one wave of 8 per SM (1056 / 1064), 32 per SM (4224 / 4288), rows under and at 8 times
  // the columns past one wave (2466 tiles); rows of at most 16 tiles (along them before the rule),
  // 4 per SM (512 / 528) and one wave (1056 / 1072, a very tall matrix among them); a short side of
  // 92 / 96 floats; and the shapes next to them with aligned input rows or both sides off. On the
  // default and on the rules before it.
  check_default_and_variants({{192, 2689},
                              {192, 2753},
                              {512, 8447},
                              {512, 8449},
                              {4096, 4161},
                              {4096, 4225},
                              {8708, 1089},
                              {8712, 1089},
                              {2048, 1001},
                              {2112, 1001},
                              {4224, 1001},
                              {4288, 1001},
                              {8448, 501},
                              {8512, 501},
                              {92, 30001},
                              {96, 30001},
                              {30001, 96},
                              {512, 8192},
                              {513, 8191}},
                             "five blocks");
}

GPU_TEST_CASE("the narrow kernel with 64-bit indices") {
  // The default takes them past 2^32 floats only; the same code at small sizes.
  check_shapes({{5, 1001}, {1001, 5}, {8, 8}, {2, 3}, {3, 2}},
               forced([](const gpu_facts&, std::int64_t rows, std::int64_t cols) {
                 plan p = narrow_plan(rows, cols);
                 p.index64 = true;
                 return p;
               }));
}

GPU_TEST_CASE("single rows and single columns are copies") {
  check_shapes({{1, 1}, {1, 2}, {2, 1}, {1, 1000003}, {1000003, 1}, {1, 4096}, {4096, 1}});
}

GPU_TEST_CASE("more rows of tiles than a grid has blocks in y in either order") {
  // 65537 rows of 64-row tiles: 65535 * 64 + 3 rows x 5 columns (the narrow kernel) and x 67
  // columns (the realigning kernel), the aligned one with 65537 * 64 rows x 64 columns. Down the
  // columns of tiles first, blockIdx.x counts rows of tiles (one launch); along the rows first
  // (the default's order for these rows of one tile) they are two more than gridDim.y holds.
  const std::int64_t tall = std::int64_t(65535) * 64 + 3;
  check_shapes({{tall, 5}, {tall, 67}, {std::int64_t(65537) * 64, 64}});
  check_shapes({{tall, 67}, {std::int64_t(65537) * 64, 64}},
               variant_named("tiles down columns first"));
}

GPU_TEST_CASE("more columns of tiles than a grid has blocks in y take several launches") {
  // Down the columns of tiles first (the default), blockIdx.y counts columns of tiles: 65537 of
  // them, on the realigning kernel (41 rows: up to 40 rows take kernel_few_rows) and the aligned
  // one (64 rows), and kernel_lines (65 rows). 20 rows, both sides multiples of 4, were the aligned
  // kernel too until aligned few rows below FEW_ROWS_TILED_FROM took kernel_few_rows: now they
  // check it over 32769 runs of 128 floats.
  const std::int64_t wide = std::int64_t(65537) * 64;
  check_shapes({{41, wide}, {20, wide}, {64, wide}});
  // One row of tiles with both sides odd: kernel_lines on every GPU, the last column absorbed.
  check_shapes({{65, wide + 1}});
}

namespace {
// transpose_any_shape::launch on `stream` of the rows x cols matrix at float `in_offset` of one
// allocation into float `out_offset` of another (any alignment), then the CPU's answer for it.
struct offset_run {
  std::int64_t rows, cols;
  std::size_t in_offset, out_offset;
  std::vector<float> input, got;
  common::device_buffer<float> d_in, d_out;
  offset_run(std::int64_t r, std::int64_t c, std::size_t in_off, std::size_t out_off,
             std::uint64_t seed)
      : rows(r),
        cols(c),
        in_offset(in_off),
        out_offset(out_off),
        input(common::random_floats(std::size_t(r * c), seed, -1.0f, 1.0f)),
        d_in(std::size_t(r * c) + in_off),
        d_out(std::size_t(r * c) + out_off) {
    CUDA_CHECK(cudaMemcpy(d_in.data() + in_offset, input.data(), input.size() * sizeof(float),
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out.data(), 0xff, (input.size() + out_offset) * sizeof(float)));
  }
  cudaError_t start(cudaStream_t stream) {
    return launch(d_in.data() + in_offset, d_out.data() + out_offset, rows, cols, stream);
  }
  bool right() {
    got.resize(input.size());
    CUDA_CHECK(cudaMemcpy(got.data(), d_out.data() + out_offset, got.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    std::vector<float> want(input.size());
    common::transpose_reference(input.data(), want.data(), rows, cols);
    return got == want;
  }
};
}  // namespace

GPU_TEST_CASE("two streams at once each get their own matrix transposed") {
  offset_run a(4097, 4099, 0, 0, 1), b(1000003, 65, 0, 0, 2);
  cudaStream_t s1 = nullptr, s2 = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(a.start(s1) == cudaSuccess);
  CHECK(b.start(s2) == cudaSuccess);
  CUDA_CHECK(cudaStreamSynchronize(s1));
  CUDA_CHECK(cudaStreamSynchronize(s2));
  CHECK(a.right());
  CHECK(b.right());
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
}

GPU_TEST_CASE("pointers off 256-byte and 16-byte boundaries still give the transpose") {
  // Offsets of 1 and 3 floats (off 16 bytes: aligned lines), 4 and 36 (on 16 bytes, off 256).
  for (const std::size_t in_offset : {0, 1, 3, 4, 36})
    for (const std::size_t out_offset : {0, 1, 4}) {
      for (const shape& s : {shape{257, 131}, shape{4096, 4096}, shape{1000, 40}, shape{64, 65},
                             shape{4100, 4100}, shape{67585, 113}}) {
        CAPTURE(in_offset);
        CAPTURE(out_offset);
        CAPTURE(s.first);
        CAPTURE(s.second);
        offset_run r(s.first, s.second, in_offset, out_offset, 7);
        CHECK(r.start(0) == cudaSuccess);
        CUDA_CHECK(cudaDeviceSynchronize());
        CHECK(r.right());
      }
    }
}

GPU_TEST_CASE("overlapping buffers and null pointers and negative sides are invalid values") {
  common::device_buffer<float> d(std::size_t(3000));
  CHECK(launch(d.data(), d.data() + 64, 32, 32) == cudaErrorInvalidValue);
  CHECK(launch(d.data() + 64, d.data(), 32, 32) == cudaErrorInvalidValue);
  CHECK(launch(d.data(), d.data(), 1, 1) == cudaErrorInvalidValue);
  CHECK(launch(d.data(), d.data() + 1024, 32, 32) == cudaSuccess);  // adjacent: fine
  CHECK(launch(nullptr, d.data(), 4, 4) == cudaErrorInvalidValue);
  CHECK(launch(d.data(), d.data() + 1024, -1, 4) == cudaErrorInvalidValue);
  CHECK(launch(d.data(), d.data(), 0, 4) == cudaSuccess);  // nothing to move
  CUDA_CHECK(cudaDeviceSynchronize());
}

GPU_TEST_CASE("a device reset between launches: the facts and shared-memory permissions again") {
  {
    offset_run r(100001, 90, 0, 0, 3);  // kernel_few_cols with 59040 bytes of shared rows
    CHECK(r.start(0) == cudaSuccess);
    CHECK(r.right());
  }
  CUDA_CHECK(cudaDeviceReset());
  offset_run r(100001, 90, 0, 0, 4);
  CHECK(r.start(0) == cudaSuccess);
  CHECK(r.right());
}

GPU_TEST_CASE("the plan's occupancy is the driver's at every shared size the rules ask") {
  gpu_facts g;
  CUDA_CHECK(gpu_facts_here(g));
  const auto driver = [](auto kernel, std::size_t bytes) {
    int blocks = 0;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(tuning::FEW_SHARED_MAX_BYTES)));
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, BLOCK_THREADS, bytes));
    return std::max(blocks, 1);
  };
  for (int few = 32; few <= FEW_SIDE; ++few)
    for (int run = FEW_SHORT_RUN; run < FEW_RUN; run += VEC) {
      const std::size_t bytes = std::size_t(few) * few_pitch(run) * sizeof(float);
      CAPTURE(few);
      CAPTURE(run);
      CHECK(blocks_per_sm(g, g.few_cols_any_run_blocks, bytes) ==
            driver(kernel_few_cols<ANY_RUN, FULL_PITCH_MOD, false>, bytes));
      CHECK(blocks_per_sm(g, g.few_rows_any_run_blocks, bytes) ==
            driver(kernel_few_rows<ANY_RUN, FULL_PITCH_MOD, false>, bytes));
    }
  for (int few = FEW_SIDE + 1; few <= tuning::FEW_COLS_ODD_ROWS; ++few) {
    const int pitch = few > tuning::FEW_FULL_PITCH_UP_TO ? COMPACT_PITCH_MOD : FULL_PITCH_MOD;
    const std::size_t bytes = std::size_t(few) * few_pitch(FEW_SECTORS_RUN, pitch) * sizeof(float);
    CAPTURE(few);
    if (pitch == FULL_PITCH_MOD)
      CHECK(blocks_per_sm(g, g.few_sectors_full_blocks, bytes) ==
            driver(kernel_few_cols<FEW_SECTORS_RUN, FULL_PITCH_MOD, true>, bytes));
    else
      CHECK(blocks_per_sm(g, g.few_sectors_compact_blocks, bytes) ==
            driver(kernel_few_cols<FEW_SECTORS_RUN, COMPACT_PITCH_MOD, true>, bytes));
  }
}

HOST_TEST_CASE(
    "the variant table has the default first and every name once and its declared size") {
  const auto& table = variant_table();
  CHECK(table.size() == VARIANT_COUNT);
  CHECK(table.front().name.empty());
  std::set<std::string> names;
  for (const variant& v : table) names.insert(v.name);
  CHECK(names.size() == table.size());
}
