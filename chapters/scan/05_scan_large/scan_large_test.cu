// scan_large: tests. Host: the workspace of the recursion. GPU: every size of the issue (tile^2
// +- 1 needs three levels), both types, poisoned output and workspace; in place (d_in == d_out).
#include <cstdint>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "scan_large.cuh"

namespace {
const common::scan_variant large = common::variant_of(
    "", scan_large::launch<std::int32_t>, scan_large::launch<float>, scan_large::workspace_bytes);
}  // namespace

HOST_TEST_CASE("scan_large keeps the tile sums of every level of the recursion") {
  constexpr std::int64_t T = scan_large::TILE_ELEMENTS;
  CHECK(scan_large::workspace_elements_for(0, T) == 1);
  CHECK(scan_large::workspace_elements_for(T, T) == 1);
  CHECK(scan_large::workspace_elements_for(T + 1, T) == 2 + 1);
  CHECK(scan_large::workspace_elements_for(T * T, T) == T + 1);
  CHECK(scan_large::workspace_elements_for(T * T + 1, T) == (T + 1) + 2 + 1);
}

GPU_TEST_CASE("scan_large scans int32 and float at every size") {
  common::testing::check_scan_sizes(
      large, common::testing::scan_sizes(scan_large::BLOCK_THREADS, scan_large::TILE_ELEMENTS,
                                         common::MAX_N));
}

GPU_TEST_CASE("scan_large scans in place") {
  common::testing::check_scan_in_place(large, (std::int64_t(1) << 22) + 5);
}
