#include "common/scan/reference.hpp"

#include <cmath>
#include <limits>

namespace common {

void sequential_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, bool inclusive) {
  std::uint32_t running = 0;  // unsigned: wrap-around is defined in C++
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t x = static_cast<std::uint32_t>(in[i]);
    if (inclusive) running += x;
    out[i] = static_cast<std::int32_t>(running);
    if (!inclusive) running += x;
  }
}

void sequential_scan(const float* in, float* out, std::size_t n, bool inclusive) {
  float running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = in[i];
    if (inclusive) running += x;
    out[i] = running;
    if (!inclusive) running += x;
  }
}

double scan_tolerance(std::size_t terms, double sum_abs) { return sum_tolerance(terms, sum_abs); }

check_result check_scan(const std::string& what, const std::int32_t* in, const std::int32_t* got,
                        std::size_t n, bool inclusive) {
  check_result r{what, n, 0, {}};
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t x = static_cast<std::uint32_t>(in[i]);
    if (inclusive) running += x;
    const std::int32_t want = static_cast<std::int32_t>(running);
    if (got[i] != want) {
      if (r.first.size() < MAX_REPORTED_MISMATCHES)
        r.first.push_back({i, show_value(got[i]), show_value(want)});
      ++r.mismatches;
    }
    if (!inclusive) running += x;
  }
  return r;
}

namespace {
check_result check_float_scan(const std::string& what, const float* in, const float* got,
                              std::size_t n, bool inclusive,
                              double (*tolerance)(std::size_t, double)) {
  check_result r{what, n, 0, {}};
  double running = 0, running_abs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = in[i];
    if (inclusive) running += x, running_abs += std::fabs(x);
    const std::size_t terms = inclusive ? i + 1 : i;
    if (!within_tolerance(got[i], running, 0.0, tolerance(terms, running_abs))) {
      if (r.first.size() < MAX_REPORTED_MISMATCHES)
        r.first.push_back({i, show_value(got[i]), show_value(running)});
      ++r.mismatches;
    }
    if (!inclusive) running += x, running_abs += std::fabs(x);
  }
  return r;
}
}  // namespace

check_result check_scan(const std::string& what, const float* in, const float* got, std::size_t n,
                        bool inclusive) {
  return check_float_scan(what, in, got, n, inclusive, scan_tolerance);
}

double sequential_scan_tolerance(std::size_t terms, double sum_abs) {
  return double(terms) * double(std::numeric_limits<float>::epsilon()) * sum_abs;
}

check_result check_sequential_scan(const std::string& what, const std::int32_t* in,
                                   const std::int32_t* got, std::size_t n, bool inclusive) {
  return check_scan(what, in, got, n, inclusive);
}

check_result check_sequential_scan(const std::string& what, const float* in, const float* got,
                                   std::size_t n, bool inclusive) {
  return check_float_scan(what, in, got, n, inclusive, sequential_scan_tolerance);
}

}  // namespace common
