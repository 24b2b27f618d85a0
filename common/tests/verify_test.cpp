#include <cmath>
#include <limits>

#include "common/testing.hpp"
#include "common/verify.hpp"

HOST_TEST_CASE("compare_exact reports the first mismatches in order") {
  std::vector<int> want{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<int> got = want;
  got[1] = -2;
  got[6] = 0;
  const auto r = common::compare_exact("out", got, want);
  CHECK_FALSE(r.ok());
  CHECK(r.mismatches == 2);
  REQUIRE(r.first.size() == 2);
  CHECK(r.first[0].index == 1);
  CHECK(r.first[0].got == "-2");
  CHECK(r.first[0].want == "2");
  CHECK(common::describe(r) == "WRONG (out: 2 of 8 differ)\n    [1] got -2, want 2\n    [6] got 0, want 7");
  CHECK(common::compare_exact("out", want, want).ok());
  CHECK_FALSE(common::compare_exact("out", std::vector<int>{1}, want).ok());
}

HOST_TEST_CASE("compare_exact on floats never matches NaN poison and reports at most 5") {
  std::vector<float> want(10, 1.0f);
  std::vector<float> got(10, std::numeric_limits<float>::quiet_NaN());
  const auto r = common::compare_exact("out", got, want);
  CHECK(r.mismatches == 10);
  CHECK(r.first.size() == common::MAX_REPORTED_MISMATCHES);
}

HOST_TEST_CASE("tolerances have relative and absolute parts and NaN or inf fail") {
  CHECK(common::within_tolerance(1.0 + 1e-7, 1.0, 1e-6, 0));
  CHECK_FALSE(common::within_tolerance(1.0 + 1e-5, 1.0, 1e-6, 0));
  CHECK(common::within_tolerance(1e-9, 0.0, 1e-6, 1e-8));
  CHECK_FALSE(common::within_tolerance(std::nan(""), 0.0, 1, 1));
  CHECK_FALSE(common::within_tolerance(INFINITY, INFINITY, 1, 1));
  const double want[] = {1.0, 2.0};
  const float got[] = {1.0f, 2.1f};
  CHECK(common::compare_close("x", got, want, 2, 1e-6, 0).mismatches == 1);
}

HOST_TEST_CASE("sum tolerance grows like sqrt(n) and catches gross errors") {
  const double eps = std::numeric_limits<float>::epsilon();
  CHECK(common::sum_tolerance(1, 1.0) == doctest::Approx(3 * eps));
  // n = 2^28 values in [0, 1): about 1e-3 of the sum, yet far below one missing 256-block.
  const double n = double(1 << 28), sum_abs = n / 2;
  const double tol = common::sum_tolerance(1 << 28, sum_abs);
  CHECK(tol / sum_abs == doctest::Approx((16384 + 28 + 1) * eps).epsilon(0.01));
  CHECK(tol < sum_abs * 0.002);
  // A float sum computed in float of 1000 values is within tolerance of the double sum.
  float f = 0;
  double d = 0, abs = 0;
  for (int i = 0; i < 1000; ++i) {
    const float x = float(i % 17) * 0.37f - 2.0f;
    f += x;
    d += x;
    abs += std::fabs(x);
  }
  CHECK(common::compare_scalar("sum", f, d, common::sum_tolerance(1000, abs)).ok());
  CHECK_FALSE(common::compare_scalar("sum", f + 1.0f, d, common::sum_tolerance(1000, abs)).ok());
}
