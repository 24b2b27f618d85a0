// scan_conflict_free: tests. Host: the padding formulas: the miscopied macro as written parses
// and evaluates to 0 (shown where C++ defines it: the G80's 16 banks, n < 16); the correct padding
// makes every access of both sweeps conflict-free, no padding gives up to 32-way conflicts.
// GPU: every size up to its limit, both types, each padding.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "common/scan/testing.cuh"
#include "scan_conflict_free.cuh"

namespace {
// The macro exactly as it is copied, with the G80's constants of the original text.
#define G80_NUM_BANKS 16
#define G80_LOG_NUM_BANKS 4
#define MISCOPIED_CONFLICT_FREE_OFFSET(n) ((n) >> G80_NUM_BANKS + (n) >> (2 * G80_LOG_NUM_BANKS))
#define INTENDED_CONFLICT_FREE_OFFSET(n) \
  (((n) >> G80_LOG_NUM_BANKS) + ((n) >> (2 * G80_LOG_NUM_BANKS)))

// The worst bank-conflict degree (distinct addresses in one bank, within one warp) of one sweep
// level's left or right accesses, over every warp: what the shared-memory unit serializes.
template <scan_conflict_free::padding P>
int worst_degree(int stride, int active, bool right) {
  int worst = 1;
  for (int warp = 0; warp * 32 < active; ++warp) {
    std::map<int, std::set<int>> banks;
    for (int k = warp * 32; k < std::min(active, warp * 32 + 32); ++k) {
      const int i = right ? stride * (2 * k + 2) - 1 : stride * (2 * k + 1) - 1;
      const int address = scan_conflict_free::padded_index<P>(i);
      banks[address % scan_conflict_free::NUM_BANKS].insert(address);
    }
    for (const auto& [bank, addresses] : banks) worst = std::max(worst, int(addresses.size()));
  }
  return worst;
}

// The worst degree over every level of the up-sweep (the down-sweep visits the same levels).
template <scan_conflict_free::padding P>
int worst_degree_of_sweep() {
  int worst = 1;
  for (int stride = 1, active = scan_conflict_free::TILE_ELEMENTS / 2; active > 0;
       stride *= 2, active /= 2)
    worst = std::max(
        {worst, worst_degree<P>(stride, active, false), worst_degree<P>(stride, active, true)});
  return worst;
}
}  // namespace

HOST_TEST_CASE("the miscopied CONFLICT_FREE_OFFSET parses as (n >> (NUM_BANKS + n)) >> 2 LOG") {
  // Where C++ defines the shifts (NUM_BANKS + n < 32 bits), the macro equals the misparse, is 0
  // everywhere, and differs from the intended formula from n = 16 on.
  for (int n = 0; n < 32 - G80_NUM_BANKS; ++n) {
    CAPTURE(n);
    CHECK(MISCOPIED_CONFLICT_FREE_OFFSET(n) ==
          ((n >> (G80_NUM_BANKS + n)) >> (2 * G80_LOG_NUM_BANKS)));
    CHECK(MISCOPIED_CONFLICT_FREE_OFFSET(n) == 0);
  }
  CHECK(INTENDED_CONFLICT_FREE_OFFSET(16) == 1);
  CHECK(INTENDED_CONFLICT_FREE_OFFSET(256) == 17);
}

HOST_TEST_CASE("the book's miscopied_offset is 0 for every tree index and the correct one is not") {
  for (int i = 0; i < scan_conflict_free::TILE_ELEMENTS; ++i) {
    CHECK(scan_conflict_free::miscopied_offset(i) == 0);
    CHECK(scan_conflict_free::conflict_free_offset(i) == i / 32 + i / 1024);
  }
  CHECK(scan_conflict_free::tree_words<scan_conflict_free::padding::correct>() ==
        2047 + 63 + 1 + 1);
  CHECK(scan_conflict_free::tree_words<scan_conflict_free::padding::miscopied>() == 2048);
}

HOST_TEST_CASE("the correct padding makes both sweeps conflict-free and none leaves 32-way") {
  using scan_conflict_free::padding;
  CHECK(worst_degree_of_sweep<padding::correct>() == 1);
  CHECK(worst_degree_of_sweep<padding::none>() == 32);
  CHECK(worst_degree_of_sweep<padding::miscopied>() == 32);
  // The stride-1 level: 2-way without padding, as the text says; 32-way from stride 16 on.
  CHECK(worst_degree<padding::none>(1, 1024, true) == 2);
  CHECK(worst_degree<padding::none>(16, 64, true) == 32);
}

GPU_TEST_CASE("scan_conflict_free scans int32 and float at every size with each padding") {
  using scan_conflict_free::launch;
  using scan_conflict_free::padding;
  const auto sizes =
      common::testing::scan_sizes(scan_conflict_free::BLOCK_THREADS,
                                  scan_conflict_free::TILE_ELEMENTS, scan_conflict_free::MAX_N);
  common::testing::check_scan_sizes(
      common::variant_of("correct", launch<std::int32_t, padding::correct>,
                         launch<float, padding::correct>),
      sizes);
  common::testing::check_scan_sizes(
      common::variant_of("none", launch<std::int32_t, padding::none>, launch<float, padding::none>),
      sizes);
  common::testing::check_scan_sizes(
      common::variant_of("miscopied", launch<std::int32_t, padding::miscopied>,
                         launch<float, padding::miscopied>),
      sizes);
}
