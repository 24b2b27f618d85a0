// mean_variance: the problem, shared by the skeleton and the solution (students do not edit this
// file; the grader uses the repository's copy). The mean and the population variance of a float
// array, sum((x - mean)^2) / n, in one pass over the data.
//
// The results are doubles. n == 0 gives NaN for both (0 / 0); n == 1 gives variance 0.
//
// The inputs sit far from zero (offset 1000, spread +-1 by default): the textbook formula
// E[x^2] - E[x]^2 then subtracts two numbers near 10^6 that agree in their first six or seven
// digits, and float keeps about seven. The tolerance below is derived so that a stable float
// method passes and that formula in float fails.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/parallel.hpp"
#include "common/random.hpp"

namespace mean_variance_problem {

// What launch() writes to device memory.
struct result {
  double mean;
  double variance;  // population variance: divided by n, not n - 1
};

// The reference and what the tolerance needs to know about the data.
struct reference {
  result want;
  std::int64_t n = 0;
  double max_abs = 0;        // M = max |x_i|
  double max_deviation = 0;  // R = max |x_i - mean|
};

// Two passes in double on all host cores: the mean, then the squared deviations from it. Each
// thread adds its n / cores elements in sequence, a relative error of at most n / cores * 2^-53
// (1.5e-8 at 2^31 elements on 16 cores), far below any tolerance here. It adds in locals and
// writes its part once: parts side by side in one cache line, updated per element, would bounce
// that line between the cores (a run at 2^28 elements took 21 s and 218 CPU-seconds on 16 cores).
inline reference mean_variance_cpu(const float* in, std::int64_t n) {
  reference r;
  r.n = n;
  if (n == 0) {
    r.want = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    return r;
  }
  const std::size_t count = std::size_t(n);
  const std::size_t parts = common::parallel_range_count(count, common::MIN_ITEMS_PER_THREAD);
  std::vector<double> sums(parts, 0.0), squares(parts, 0.0), max_abs(parts, 0.0),
      max_dev(parts, 0.0);
  common::parallel_ranges(count, common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t part, std::size_t begin, std::size_t end) {
                            double sum = 0, largest = 0;
                            for (std::size_t i = begin; i < end; ++i) {
                              sum += in[i];
                              largest = std::max(largest, std::fabs(double(in[i])));
                            }
                            sums[part] = sum;
                            max_abs[part] = largest;
                          });
  double sum = 0;
  for (std::size_t p = 0; p < parts; ++p) sum += sums[p];
  const double mean = sum / double(n);
  common::parallel_ranges(count, common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t part, std::size_t begin, std::size_t end) {
                            double square_sum = 0, largest = 0;
                            for (std::size_t i = begin; i < end; ++i) {
                              const double d = double(in[i]) - mean;
                              square_sum += d * d;
                              largest = std::max(largest, std::fabs(d));
                            }
                            squares[part] = square_sum;
                            max_dev[part] = largest;
                          });
  double m2 = 0;
  for (std::size_t p = 0; p < parts; ++p) m2 += squares[p];
  r.want = {mean, m2 / double(n)};
  r.max_abs = *std::max_element(max_abs.begin(), max_abs.end());
  r.max_deviation = *std::max_element(max_dev.begin(), max_dev.end());
  return r;
}

// ------------------------------------------------------------------------------ the tolerance
//
// A stable float method (Welford's update per element, Chan's combine of partial results, or
// sums of deviations from a nearby data value) makes each rounding error relative to what it
// handles: eps = 2^-24 of a running mean, whose size is at most M, or of a deviation, at most R.
//   - The mean: a tree of L = log2(n) + 2 levels of combines, each off by a few eps of M:
//       |mean error| <= 4 L eps M.
//   - The variance, three parts. (1) Accumulating squared deviations: a few eps relative per
//     level, 4 L eps var. (2) Each deviation x - mean is computed against a mean that is off by
//     about eps M, which moves the deviation by eps M and its square by about 2 R eps M; these
//     errors have both signs and average out over n, so 16 eps M R bounds them with room to spare
//     (and covers a float Welford run of up to ~10^5 elements per thread, whose running mean
//     drifts by sqrt(k) eps M). (3) A mean off by e adds e^2 to the variance: 16 L (eps M)^2,
//     which also makes a constant array's variance 0 within a float rounding of its mean.
//       |variance error| <= 4 L eps var + 16 eps M R + 16 L (eps M)^2.
// With the default data (M ~ 1001, R ~ 1, var ~ 1/3) at n = 2^28 the variance may be off by about
// 1e-3 (0.3 %). E[x^2] - E[x]^2 in float cannot do better than eps M^2 ~ 0.06 (18 %): it fails
// even when both sums are rounded perfectly.
constexpr double FLOAT_EPS = 0x1p-24;

inline double levels(std::int64_t n) { return std::log2(double(std::max<std::int64_t>(n, 1))) + 2; }

inline double mean_tolerance(const reference& r) { return 4 * levels(r.n) * FLOAT_EPS * r.max_abs; }

inline double variance_tolerance(const reference& r) {
  const double eps_m = FLOAT_EPS * r.max_abs;
  return 4 * levels(r.n) * FLOAT_EPS * r.want.variance + 16 * eps_m * r.max_deviation +
         16 * levels(r.n) * eps_m * eps_m;
}

// Both results within their tolerance (both NaN when n == 0).
inline bool close_enough(const result& got, const reference& r) {
  if (r.n == 0) return std::isnan(got.mean) && std::isnan(got.variance);
  return std::fabs(got.mean - r.want.mean) <= mean_tolerance(r) &&
         std::fabs(got.variance - r.want.variance) <= variance_tolerance(r);
}

// ------------------------------------------------------------------------- the program's inputs

// x_i = offset + spread * u_i with u_i uniform in [-1, 1) (24 random bits), rounded to float.
// Element i depends only on (seed, i).
inline std::vector<float> make_input(std::int64_t n, std::uint64_t seed, double offset,
                                     double spread) {
  std::vector<float> in(static_cast<std::size_t>(n));
  common::parallel_ranges(in.size(), common::MIN_ITEMS_PER_THREAD,
                          [&](std::size_t, std::size_t begin, std::size_t end) {
                            for (std::size_t i = begin; i < end; ++i) {
                              const double u = double(common::mix64(seed, i) >> 40) * 0x1p-23 - 1.0;
                              in[i] = float(offset + spread * u);
                            }
                          });
  return in;
}

}  // namespace mean_variance_problem
