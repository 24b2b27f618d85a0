// Checking results against a CPU reference: exact for integers (and for floats that are only moved,
// never computed), within a tolerance for computed floats, whose reference is computed in double.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "common/parallel.hpp"

namespace common {

struct mismatch {
  std::size_t index = 0;
  std::string got;
  std::string want;
};

struct check_result {
  std::string what;                // e.g. "output", "sum"
  std::size_t checked = 0;         // elements compared
  std::size_t mismatches = 0;      // elements that failed
  std::vector<mismatch> first;     // the first few failures, in index order
  bool ok() const { return mismatches == 0; }
};

constexpr std::size_t MAX_REPORTED_MISMATCHES = 5;

template <class T>
std::string show_value(T value) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<T>) os.precision(std::numeric_limits<T>::max_digits10);
  os << +value;  // + prints int8 as a number
  return os.str();
}

// Adds the mismatches of a part of an array to those of the parts before it (parts in index order,
// so the first few stay the first few).
inline void add_part(check_result& total, const check_result& part) {
  total.mismatches += part.mismatches;
  for (const mismatch& m : part.first)
    if (total.first.size() < MAX_REPORTED_MISMATCHES) total.first.push_back(m);
}

// The elements i in [0, n) for which wrong(i) holds: their count and the first few, as
// mismatch{i, got, want} from describe(i). Large arrays are checked on all host cores; the report
// is the same as a sequential scan's.
template <class Wrong, class Describe>
check_result compare_elements(const std::string& what, std::size_t n, Wrong wrong,
                              Describe describe_element) {
  std::vector<check_result> parts(parallel_range_count(n, MIN_ITEMS_PER_THREAD));
  parallel_ranges(n, MIN_ITEMS_PER_THREAD, [&](std::size_t part, std::size_t begin,
                                               std::size_t end) {
    check_result& r = parts[part];
    for (std::size_t i = begin; i < end; ++i) {
      if (wrong(i)) {
        if (r.first.size() < MAX_REPORTED_MISMATCHES) r.first.push_back(describe_element(i));
        ++r.mismatches;
      }
    }
  });
  check_result r{what, n, 0, {}};
  for (const check_result& part : parts) add_part(r, part);
  return r;
}

// Element-wise equality. Floats compare with ==, so a NaN (the poison) never matches.
template <class T>
check_result compare_exact(const std::string& what, const T* got, const T* want, std::size_t n) {
  return compare_elements(
      what, n, [&](std::size_t i) { return !(got[i] == want[i]); },
      [&](std::size_t i) { return mismatch{i, show_value(got[i]), show_value(want[i])}; });
}

template <class T>
check_result compare_exact(const std::string& what, const std::vector<T>& got,
                           const std::vector<T>& want) {
  if (got.size() != want.size()) {
    return {what, 0, 1, {{0, "size " + std::to_string(got.size()),
                          "size " + std::to_string(want.size())}}};
  }
  return compare_exact(what, got.data(), want.data(), got.size());
}

// |got - want| <= abs_tol + rel_tol * |want|; NaN or infinity in got always fails.
bool within_tolerance(double got, double want, double rel_tol, double abs_tol);

// Element-wise float check against a double reference, each element within (rel_tol, abs_tol).
check_result compare_close(const std::string& what, const float* got, const double* want,
                           std::size_t n, double rel_tol, double abs_tol);

// One computed value (a reduction's sum) against its double reference, within abs_tol.
check_result compare_scalar(const std::string& what, double got, double want, double abs_tol);

// Tolerance for a float sum of n terms whose absolute values add up to sum_abs. A sum's rounding
// error is at most (terms added in sequence) * eps * sum_abs; kernels add long runs in sequence
// and then combine partial sums in a tree, and independent rounding errors grow like the square
// root of the run length, so we allow (sqrt(n) + log2(n) + 1) * eps * sum_abs: 1e-3 relative at
// n = 2^28, a few eps at n = 2. A dropped or doubled element shows as sum_abs / n, which only the
// exact int32 runs catch at large n: float checks catch gross errors, int32 checks every element.
double sum_tolerance(std::size_t n, double sum_abs);

// "ok: 1000 elements checked" or the mismatch count and the first mismatches (index, got, want).
std::string describe(const check_result& r);

}  // namespace common
