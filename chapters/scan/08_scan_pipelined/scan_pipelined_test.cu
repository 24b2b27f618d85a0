// scan_pipelined: tests. GPU: every size of the issue, exclusive and inclusive, both types, for the
// default (and either side of its switch to large tiles at 2^24 elements and of its band of one
// large tile per block, last tiles of every length that the partial bulk copy distinguishes) and
// the sweep's others; the band's bounds on the host;
// the look-back's stress tests (a poisoned or stale workspace, launches repeated and back to back);
// unaligned arrays (the guarded loads instead of bulk copies); in place (also with the single
// block); and n > 2^31.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "scan_pipelined.cuh"

namespace {

const std::vector<common::scan_variant> variants = scan_pipelined::variants();
const common::scan_variant& pipelined = variants[0];  // the default

}  // namespace

GPU_TEST_CASE("scan_pipelined scans int32 and float exclusive and inclusive at every size") {
  common::testing::check_scan_sizes(
      pipelined, common::testing::scan_sizes(scan_pipelined::BLOCK_THREADS,
                                             scan_pipelined::TILE_ELEMENTS, common::MAX_N));
}

GPU_TEST_CASE(
    "scan_pipelined's default scans with small tiles below 2^24 elements and large from 2^24") {
  using scan_pipelined::SMALL_N_LIMIT;
  constexpr std::int64_t SMALL_TILE = scan_pipelined::small_n_shape::TILE_ELEMENTS;
  common::testing::check_scan_sizes(
      pipelined, {SMALL_TILE - 1, SMALL_TILE, SMALL_TILE + 1, SMALL_N_LIMIT - 1, SMALL_N_LIMIT,
                  SMALL_N_LIMIT + 1});
}

TEST_CASE("scan_pipelined takes one large tile per block from a quarter of the blocks that fit") {
  using scan_pipelined::one_large_tile_per_block;
  constexpr std::int64_t LARGE_TILE = scan_pipelined::default_shape::TILE_ELEMENTS;
  constexpr int FIT = 264;  // two blocks per SM of 132 SMs (the H100's and the H200's)
  CHECK_FALSE(
      one_large_tile_per_block(66 * LARGE_TILE, FIT));  // 4 x 66 tiles = the blocks that fit
  CHECK(one_large_tile_per_block(66 * LARGE_TILE + 1, FIT));
  CHECK(one_large_tile_per_block(264 * LARGE_TILE, FIT));
  CHECK_FALSE(one_large_tile_per_block(264 * LARGE_TILE + 1, FIT));  // more tiles than blocks
  // Never for the single block's sizes, nor from SMALL_N_LIMIT on, however many blocks fit.
  CHECK_FALSE(one_large_tile_per_block(scan_pipelined::SINGLE_TILE_LIMIT, 2));
  CHECK(one_large_tile_per_block(scan_pipelined::SINGLE_TILE_LIMIT + 1, 2));
  CHECK(one_large_tile_per_block(scan_pipelined::SMALL_N_LIMIT - 1, 4096));
  CHECK_FALSE(one_large_tile_per_block(scan_pipelined::SMALL_N_LIMIT, 4096));
}

GPU_TEST_CASE(
    "scan_pipelined's default scans at the edges of its band of one large tile per block") {
  using namespace scan_pipelined;
  constexpr std::int64_t LARGE_TILE = default_shape::TILE_ELEMENTS;
  const int fit = resident_blocks<default_shape, MIDDLE_STAGES, DEFAULT_WINDOW, false, float>();
  CAPTURE(fit);
  const std::int64_t first = std::int64_t(fit / 4) * LARGE_TILE + 1;  // the band's first size
  const std::int64_t last = std::int64_t(fit) * LARGE_TILE;           // and its last
  REQUIRE(!one_large_tile_per_block(first - 1, fit));
  REQUIRE(one_large_tile_per_block(first + LARGE_TILE - 1, fit));
  REQUIRE(one_large_tile_per_block(last, fit));
  REQUIRE(!one_large_tile_per_block(last + 1, fit));
  common::testing::check_scan_sizes(
      pipelined, {first - 1, first, first + 3, first + LARGE_TILE - 1, last - 1, last, last + 1});
}

GPU_TEST_CASE(
    "scan_pipelined scans a last tile of any length: 1 to 5 elements or 3 to 1 short of whole") {
  using scan_pipelined::SMALL_N_LIMIT;
  constexpr std::int64_t SMALL_TILE = scan_pipelined::small_n_shape::TILE_ELEMENTS;
  constexpr std::int64_t LARGE_TILE = scan_pipelined::default_shape::TILE_ELEMENTS;
  std::vector<std::int64_t> sizes;
  for (std::int64_t r = 1; r <= 5; ++r) sizes.push_back(2 * SMALL_TILE + r);  // 0 or 4 staged
  for (std::int64_t r = 1; r <= 3; ++r) sizes.push_back(3 * SMALL_TILE - r);
  for (std::int64_t r : {1, 3, 5}) sizes.push_back(SMALL_N_LIMIT + r);  // the large tiles
  sizes.push_back(SMALL_N_LIMIT + LARGE_TILE - 1);
  common::testing::check_scan_sizes(pipelined, sizes);
}

GPU_TEST_CASE("scan_pipelined scans correctly with its other shapes and stage counts and windows") {
  for (std::size_t i = 1; i < variants.size(); ++i) {
    CAPTURE(variants[i].name);
    common::testing::check_scan_sizes(variants[i], common::testing::tile_edge_sizes());
  }
}

GPU_TEST_CASE("scan_pipelined ignores whatever its workspace held before the launch") {
  common::testing::check_scan_ignores_workspace(pipelined);
}

GPU_TEST_CASE(
    "scan_pipelined survives 200 launches in a row on one workspace (checked at the end)") {
  common::testing::check_scan_back_to_back(pipelined);
}

GPU_TEST_CASE("scan_pipelined loads arrays not 16-byte aligned without bulk copies") {
  common::testing::check_scan_offset(pipelined, (std::int64_t(1) << 20) + 7, 1);
  common::testing::check_scan_offset(pipelined, 4096 * 3, 3);
  common::testing::check_scan_offset(pipelined, 4096 * 300, 2);
  common::testing::check_scan_offset(pipelined, 4000, 1);  // the single block
}

GPU_TEST_CASE("scan_pipelined scans in place") {
  common::testing::check_scan_in_place(pipelined, (std::int64_t(1) << 22) + 5);
  common::testing::check_scan_in_place(pipelined, std::int64_t(1) << 24);
  common::testing::check_scan_in_place(pipelined, 4093);  // the single block
}

GPU_TEST_CASE("scan_pipelined scans n > 2^31 int32 elements exclusive and inclusive") {
  common::testing::check_scan_past_2_31(pipelined);
}
