// Host tests of Part III's references and checks: the slides' example, int32 wrap-around, the
// float tolerance (accepts another order of the same additions, rejects a dropped element).
#include <cstdint>
#include <limits>
#include <vector>

#include "common/scan/program.cuh"
#include "common/scan/reference.hpp"
#include "common/testing.hpp"

HOST_TEST_CASE("sequential_scan gives the exclusive and inclusive scans of the slides' example") {
  const std::vector<std::int32_t> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<std::int32_t> out(in.size());
  common::sequential_scan(in.data(), out.data(), in.size(), false);
  CHECK(out == std::vector<std::int32_t>{0, 3, 4, 11, 11, 15, 16, 22});
  common::sequential_scan(in.data(), out.data(), in.size(), true);
  CHECK(out == std::vector<std::int32_t>{3, 4, 11, 11, 15, 16, 22, 25});
  CHECK(common::check_scan("x", in.data(), out.data(), in.size(), true).ok());
  CHECK_FALSE(common::check_scan("x", in.data(), out.data(), in.size(), false).ok());
}

HOST_TEST_CASE("the int32 scan wraps modulo 2^32 as the GPU's adds do") {
  const std::int32_t max = std::numeric_limits<std::int32_t>::max();
  const std::vector<std::int32_t> in = {max, 1, max, 2};
  std::vector<std::int32_t> out(in.size());
  common::sequential_scan(in.data(), out.data(), in.size(), false);
  CHECK(out[1] == max);
  CHECK(out[2] == std::numeric_limits<std::int32_t>::min());
  CHECK(out[3] == -1);
  CHECK(common::check_scan("x", in.data(), out.data(), in.size(), false).ok());
}

HOST_TEST_CASE("the float check accepts the scan added in another order and rejects a drop") {
  const std::size_t n = 100003;
  const std::vector<float> in = common::scan_input<float>(n, 7);
  std::vector<float> sequential(n), tiled(n);
  common::sequential_scan(in.data(), sequential.data(), n, false);
  CHECK(common::check_scan("sequential", in.data(), sequential.data(), n, false).ok());
  // Tiles of 1024 scanned alone, then their prefixes added: the order of a GPU scan.
  float carry = 0;
  for (std::size_t base = 0; base < n; base += 1024) {
    const std::size_t len = std::min<std::size_t>(1024, n - base);
    common::sequential_scan(in.data() + base, tiled.data() + base, len, false);
    float tile_sum = tiled[base + len - 1] + in[base + len - 1];
    for (std::size_t i = base; i < base + len; ++i) tiled[i] += carry;
    carry += tile_sum;
  }
  CHECK(common::check_scan("tiled", in.data(), tiled.data(), n, false).ok());
  // Element 5 left out of every prefix after it: caught where the prefixes are still short.
  std::vector<float> dropped = sequential;
  for (std::size_t i = 6; i < n; ++i) dropped[i] -= in[5];
  const common::check_result r = common::check_scan("dropped", in.data(), dropped.data(), n, false);
  CHECK_FALSE(r.ok());
  REQUIRE(!r.first.empty());
  CHECK(r.first[0].index == 6);
  // The first exclusive element must be exactly 0 (no terms, no tolerance).
  std::vector<float> first = sequential;
  first[0] = 1e-30f;
  CHECK_FALSE(common::check_scan("first", in.data(), first.data(), n, false).ok());
}

HOST_TEST_CASE("the float tolerance grows with the terms and the absolute sum") {
  CHECK(common::scan_tolerance(0, 0) == 0);
  CHECK(common::scan_tolerance(1000, 500) > common::scan_tolerance(10, 500));
  CHECK(common::scan_tolerance(1000, 500) > common::scan_tolerance(1000, 5));
  // 2^28 terms of magnitude ~1: about 1e-3 relative to the absolute sum.
  const double n = double(1 << 28);
  CHECK(common::scan_tolerance(1 << 28, n) / n < 2e-3);
}

HOST_TEST_CASE(
    "the sequential float loop drifts past the tree tolerance at 2^26 but not past its own") {
  // One float running sum of 2^26 inputs in [-1, 2) passes 2^24, where float's spacing is 2 and
  // most adds round: the error grows with n, not with its square root.
  const std::size_t n = std::size_t(1) << 26;
  const std::vector<float> in = common::scan_input<float>(n, 3);
  std::vector<float> out(n);
  common::sequential_scan(in.data(), out.data(), n, false);
  CHECK_FALSE(common::check_scan("tree bound", in.data(), out.data(), n, false).ok());
  CHECK(common::check_sequential_scan("sequential bound", in.data(), out.data(), n, false).ok());
  CHECK(common::sequential_scan_tolerance(1000, 2.0) == doctest::Approx(1000 * 2.0 * 0x1p-23));
}
