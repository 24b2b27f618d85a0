// scan_reduce_then_scan: tests. GPU: every size of the issue, both types, poisoned output and
// workspace; unaligned arrays (the scalar path); in place.
#include <cstdint>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "scan_reduce_then_scan.cuh"

namespace {
using namespace scan_reduce_then_scan;
const common::scan_variant reduce_then_scan =
    common::variant_of("", launch<std::int32_t>, launch<float>, workspace_bytes);
}  // namespace

GPU_TEST_CASE("scan_reduce_then_scan scans int32 and float at every size") {
  common::testing::check_scan_sizes(
      reduce_then_scan, common::testing::scan_sizes(BLOCK_THREADS, TILE_ELEMENTS, common::MAX_N));
}

GPU_TEST_CASE("scan_reduce_then_scan takes the scalar path for arrays not 16-byte aligned") {
  common::testing::check_scan_offset(reduce_then_scan, (std::int64_t(1) << 20) + 7, 1);
}

GPU_TEST_CASE("scan_reduce_then_scan scans in place") {
  common::testing::check_scan_in_place(reduce_then_scan, (std::int64_t(1) << 22) + 5);
}
