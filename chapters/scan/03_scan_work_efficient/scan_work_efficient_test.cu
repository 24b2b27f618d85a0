// scan_work_efficient: tests. GPU: every size up to its limit (2048), both types, poisoned output.
#include <cstdint>

#include "common/scan/testing.cuh"
#include "scan_work_efficient.cuh"

namespace {
const common::scan_variant work_efficient = common::variant_of(
    "", scan_work_efficient::launch<std::int32_t>, scan_work_efficient::launch<float>);
}  // namespace

GPU_TEST_CASE("scan_work_efficient scans int32 and float at every size up to one tile") {
  common::testing::check_scan_sizes(
      work_efficient,
      common::testing::scan_sizes(scan_work_efficient::BLOCK_THREADS,
                                  scan_work_efficient::TILE_ELEMENTS, scan_work_efficient::MAX_N));
}
