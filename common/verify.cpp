#include "common/verify.hpp"

#include <cmath>

namespace common {

bool within_tolerance(double got, double want, double rel_tol, double abs_tol) {
  if (!std::isfinite(got)) return false;
  return std::fabs(got - want) <= abs_tol + rel_tol * std::fabs(want);
}

check_result compare_close(const std::string& what, const float* got, const double* want,
                           std::size_t n, double rel_tol, double abs_tol) {
  return compare_elements(
      what, n, [&](std::size_t i) { return !within_tolerance(got[i], want[i], rel_tol, abs_tol); },
      [&](std::size_t i) { return mismatch{i, show_value(got[i]), show_value(want[i])}; });
}

check_result compare_scalar(const std::string& what, double got, double want, double abs_tol) {
  check_result r{what, 1, 0, {}};
  if (!within_tolerance(got, want, 0.0, abs_tol)) {
    r.mismatches = 1;
    r.first.push_back({0, show_value(got), show_value(want) + " +- " + show_value(abs_tol)});
  }
  return r;
}

double sum_tolerance(std::size_t n, double sum_abs) {
  const double eps = std::numeric_limits<float>::epsilon();
  const double terms = double(n);
  return (std::sqrt(terms) + std::log2(terms + 1) + 1) * eps * sum_abs;
}

std::string describe(const check_result& r) {
  std::ostringstream os;
  if (r.ok()) {
    os << "ok (" << r.what << ": " << r.checked << (r.checked == 1 ? " value" : " elements")
       << " checked)";
    return os.str();
  }
  os << "WRONG (" << r.what << ": " << r.mismatches << " of " << r.checked << " differ)";
  for (const auto& m : r.first)
    os << "\n    [" << m.index << "] got " << m.got << ", want " << m.want;
  return os.str();
}

}  // namespace common
