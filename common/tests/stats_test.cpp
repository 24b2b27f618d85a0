#include "common/bandwidth.hpp"
#include "common/stats.hpp"
#include "common/testing.hpp"

HOST_TEST_CASE("summarize gives median of odd and even counts and min and max and mean") {
  auto s = common::summarize({5, 1, 3});
  CHECK(s.median_ms == 3);
  CHECK(s.min_ms == 1);
  CHECK(s.max_ms == 5);
  CHECK(s.mean_ms == doctest::Approx(3));
  CHECK(s.reps == 3);
  s = common::summarize({4, 1, 3, 2});
  CHECK(s.median_ms == 2.5);
  CHECK(common::summarize({}).reps == 0);
}

HOST_TEST_CASE("bandwidth arithmetic uses 1e9 bytes per GB") {
  CHECK(common::gb_per_s(1e9, 1000) == doctest::Approx(1.0));
  CHECK(common::gb_per_s(2.0 * (1 << 28) * 4, 1.0) == doctest::Approx(2147.483648));
  CHECK(common::gb_per_s(100, 0) == 0);
  CHECK(common::percent(50, 200) == 25);
  CHECK(common::percent(1, 0) == 0);
  // H100 SXM: 2619 MHz HBM3 on a 5120-bit bus -> 3352 GB/s.
  CHECK(common::theoretical_gb_per_s(2619000, 5120) == doctest::Approx(3352.32));
}
