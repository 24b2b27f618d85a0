// scan_lookback: tests. GPU: every size of the issue, exclusive and inclusive, both types, for the
// default shape and the sweep's others; a workspace poisoned with 0xFF (every flag "PREFIX") and a
// workspace left as the previous launch left it (every flag set); many launches in a row, each
// checked; unaligned arrays; in place; and n > 2^31, where tile offsets and indices need 64 bits.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "scan_lookback.cuh"

namespace {

const std::vector<common::scan_variant> variants = scan_lookback::variants();
const common::scan_variant& lookback = variants[0];  // the default

}  // namespace

GPU_TEST_CASE("scan_lookback scans int32 and float exclusive and inclusive at every size") {
  common::testing::check_scan_sizes(
      lookback, common::testing::scan_sizes(scan_lookback::BLOCK_THREADS,
                                            scan_lookback::TILE_ELEMENTS, common::MAX_N));
}

GPU_TEST_CASE("scan_lookback's other tile shapes and windows scan correctly") {
  for (std::size_t i = 1; i < variants.size(); ++i) {
    CAPTURE(variants[i].name);
    common::testing::check_scan_sizes(variants[i], common::testing::tile_edge_sizes());
  }
}

GPU_TEST_CASE("scan_lookback ignores whatever its workspace held before the launch") {
  common::testing::check_scan_ignores_workspace(lookback);
}

GPU_TEST_CASE(
    "scan_lookback survives 200 launches in a row on one workspace (checked at the end)") {
  common::testing::check_scan_back_to_back(lookback);
}

GPU_TEST_CASE("scan_lookback takes the scalar path for arrays not 16-byte aligned") {
  common::testing::check_scan_offset(lookback, (std::int64_t(1) << 20) + 7, 1);
  common::testing::check_scan_offset(lookback, 4096 * 3, 3);
}

GPU_TEST_CASE("scan_lookback scans in place") {
  common::testing::check_scan_in_place(lookback, (std::int64_t(1) << 22) + 5);
}

GPU_TEST_CASE("scan_lookback scans n > 2^31 int32 elements exclusive and inclusive") {
  common::testing::check_scan_past_2_31(lookback);
}
