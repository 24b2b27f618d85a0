// transpose_fast: tests. Host: the swizzle and the 4 x 4 block assignment keep every shared-memory
// access conflict-free, lose no element, and give each warp whole output rows. GPU: every test
// shape for the default and the --sweep variants, plus shapes with more rows of tiles than a grid
// has blocks in y.
#include <set>
#include <vector>

#include "common/transpose/testing.hpp"
#include "transpose_fast.cuh"

namespace {
using namespace transpose_fast;
constexpr int BANKS = 32;
int bank(int float_offset) { return float_offset % BANKS; }

// The banks that the 8 threads of one quarter-warp touch with one float4 access each (a 16-byte
// warp access is served a quarter-warp at a time; 32 different banks = one wavefront).
template <typename Offset>
std::set<int> quarter_warp_banks(int first_thread, Offset float4_offset) {
  std::set<int> banks;
  for (int t = first_thread; t < first_thread + 8; ++t)
    for (int e = 0; e < VEC; ++e) banks.insert(bank(float4_offset(t) + e));
  return banks;
}
// The variants that ship whole tiles by bulk copies (Hopper and newer, sm_90 code).
bool uses_bulk_stores(const common::matrix_variant& v) { return v.name.empty(); }
}  // namespace

HOST_TEST_CASE("the swizzled tile is a permutation of its floats") {
  std::set<int> offsets;
  for (int r = 0; r < TILE_DIM; ++r)
    for (int c = 0; c < TILE_DIM; ++c) offsets.insert(tile_offset(r, c));
  CHECK(offsets.size() == std::size_t(TILE_DIM) * TILE_DIM);
  CHECK(*offsets.rbegin() == TILE_DIM * TILE_DIM - 1);
}

HOST_TEST_CASE(
    "the 4 x 4 blocks of the 256 threads cover the tile once and a warp owns 8 output rows") {
  std::set<std::pair<int, int>> blocks;
  for (int t = 0; t < BLOCK_THREADS; ++t) blocks.insert({block_of(t).rho, block_of(t).quad});
  CHECK(blocks.size() == std::size_t(SLOTS) * SLOTS);
  CHECK(blocks.begin()->first == 0);
  CHECK(blocks.rbegin()->first == SLOTS - 1);
  CHECK(blocks.rbegin()->second == SLOTS - 1);
  for (int warp = 0; warp < BLOCK_THREADS / 32; ++warp) {
    // Every input row quad (all 64 floats of an output row) of output rows 8 warp .. 8 warp + 7.
    std::set<std::pair<int, int>> owned;
    for (int t = 32 * warp; t < 32 * warp + 32; ++t) {
      CHECK(block_of(t).quad / 2 == warp);
      owned.insert({block_of(t).rho, block_of(t).quad});
    }
    CHECK(owned.size() == std::size_t(2) * SLOTS);
  }
}

HOST_TEST_CASE("load phase: 8 threads storing a float4 each into one tile row cover 32 banks") {
  for (int row = 0; row < TILE_DIM; ++row)
    for (int group = 0; group < SLOTS / 8; ++group) {
      // Threads t .. t + 7 of the load phase store slots 8 group .. 8 group + 7 of one row.
      const auto banks =
          quarter_warp_banks(8 * group, [&](int slot) { return tile_offset(row, VEC * slot); });
      CHECK(banks.size() == BANKS);
    }
}

HOST_TEST_CASE("transpose phase: each quarter-warp's float4 reads and writes cover 32 banks") {
  for (int first = 0; first < BLOCK_THREADS; first += 8)
    for (int e = 0; e < VEC; ++e) {
      CAPTURE(first);
      CAPTURE(e);
      // Read row e of each thread's block from the swizzled input tile.
      const auto reads = quarter_warp_banks(first, [&](int t) {
        return tile_offset(VEC * block_of(t).rho + e, VEC * block_of(t).quad);
      });
      CHECK(reads.size() == BANKS);
      // Write output row e of each thread's block into the dense output tile.
      const auto writes = quarter_warp_banks(first, [&](int t) {
        return (VEC * block_of(t).quad + e) * TILE_DIM + VEC * block_of(t).rho;
      });
      CHECK(writes.size() == BANKS);
    }
}

GPU_TEST_CASE("transpose_fast and its sweep variants equal the CPU transpose at every test shape") {
  for (const common::matrix_variant& v : variants()) {
    CAPTURE(v.name);
    if (uses_bulk_stores(v) && !bulk_stores_here()) {
      MESSAGE("skipped without bulk stores on this GPU or build: " << v.name);
      continue;
    }
    common::testing::check_matrix_shapes(v.launch, common::matrix_result::transpose, v.limits);
  }
}

GPU_TEST_CASE("transpose_fast loops over rows of tiles past the grid limit") {
  // 65537 rows of 64-row tiles, two more than gridDim.y holds, so two blocks of each column walk a
  // second row of tiles: partial tiles (the guarded path) with 65535 * 64 + 3 rows x 4 columns;
  // whole ones (16-byte loads, bulk stores) with 65537 * 64 rows x 64 columns.
  std::vector<common::matrix_launch> launches = {launch_variant<true, STREAMING_STORES>};
  if (bulk_stores_here()) launches.push_back(launch);
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{std::int64_t(65535) * 64 + 3, 4},
                                                          {std::int64_t(65537) * 64, 64}};
  for (const auto& variant : launches)
    for (const auto& shape : shapes) {
      const std::int64_t rows = shape.first, cols = shape.second;
      CAPTURE(rows);
      CAPTURE(cols);
      const common::check_result r =
          common::check_launch(variant, common::matrix_result::transpose, rows, cols, 9);
      INFO(common::describe(r));
      CHECK(r.ok());
    }
}
