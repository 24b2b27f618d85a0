// transpose_fast: tests. Host: the swizzle keeps both shared-memory phases conflict-free and
// loses no element. GPU: every test shape, for the default and the --sweep variants, plus shapes
// with more rows of tiles than a grid has blocks in y.
#include <set>

#include "common/transpose_testing.hpp"
#include "transpose_fast.cuh"

namespace {
constexpr int BANKS = 32;
int bank(int offset) { return offset % BANKS; }
}  // namespace

HOST_TEST_CASE("the swizzled tile is a permutation of its floats") {
  for (const int tile : {32, 64}) {
    std::set<int> offsets;
    for (int r = 0; r < tile; ++r)
      for (int c = 0; c < tile; ++c) offsets.insert(transpose_fast::tile_offset(r, c, tile));
    CHECK(offsets.size() == std::size_t(tile) * tile);
    CHECK(*offsets.rbegin() == tile * tile - 1);
  }
}

HOST_TEST_CASE("a warp reading 4 tile columns x 8 row quads touches 32 different banks") {
  constexpr int TILE = transpose_fast::TILE_DIM;
  for (int col_quad = 0; col_quad < TILE / 4; ++col_quad)
    for (int quad_group = 0; quad_group < TILE / 32; ++quad_group)
      for (int e = 0; e < 4; ++e) {  // the 4 loads w.x .. w.w of the store phase
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane) {
          const int row = 4 * (quad_group * 8 + lane % 8) + e;
          const int col = 4 * col_quad + lane / 8;
          banks.insert(bank(transpose_fast::tile_offset(row, col, TILE)));
        }
        CHECK(banks.size() == 32);
      }
}

HOST_TEST_CASE("8 threads storing a float4 each into one tile row cover 32 banks") {
  constexpr int TILE = transpose_fast::TILE_DIM;
  for (int row = 0; row < TILE; ++row)
    for (int group = 0; group < TILE / 32; ++group) {
      std::set<int> banks;
      for (int s = 8 * group; s < 8 * group + 8; ++s)
        for (int e = 0; e < 4; ++e)
          banks.insert(bank(transpose_fast::tile_offset(row, 4 * s + e, TILE)));
      CHECK(banks.size() == 32);
    }
}

GPU_TEST_CASE("transpose_fast and its sweep variants equal the CPU transpose at every test shape") {
  const common::matrix_limits any_shape{0, false, 64, false};
  const common::matrix_launch variants[] = {
      transpose_fast::launch, transpose_fast::launch_variant<64, false>,
      transpose_fast::launch_variant<64, true, true>, transpose_fast::launch_variant<32>,
      transpose_fast::launch_variant<64, true, false, false>};
  for (const auto& launch : variants)
    common::testing::check_matrix_shapes(launch, common::matrix_result::transpose, any_shape);
}

GPU_TEST_CASE("transpose_fast loops over rows of tiles past the grid limit") {
  // 65535 * 64 + 3 rows are 65537 rows of 64-row tiles: more than gridDim.y can hold without the
  // pipeline's TILES_PER_BLOCK, and several per block with it.
  const common::matrix_launch launches[] = {transpose_fast::launch,
                                            transpose_fast::launch_variant<64, false>};
  for (const auto& launch : launches)
    for (const std::int64_t rows : {std::int64_t(65535) * 64 + 3, std::int64_t(65536) * 64}) {
      CAPTURE(rows);
      const common::check_result r =
          common::check_launch(launch, common::matrix_result::transpose, rows, 4, 9);
      INFO(common::describe(r));
      CHECK(r.ok());
    }
}
