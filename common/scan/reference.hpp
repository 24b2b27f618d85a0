// Part III's inputs, CPU references and checks (host only, unit-tested without a GPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/verify.hpp"

namespace common {

// The sequential exclusive scan (the slides' CPU loop): out[0] = 0, out[i] = in[0] + ... +
// in[i-1]. int32 wraps modulo 2^32 (computed in unsigned arithmetic, where wrapping is defined),
// as the GPU's 32-bit adds do in any order; float adds in sequence in float, as the slides' loop.
// inclusive: out[i] = in[0] + ... + in[i] instead. in and out may be the same array.
void sequential_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, bool inclusive);
void sequential_scan(const float* in, float* out, std::size_t n, bool inclusive);

// Checks got[0, n) against the scan of in[0, n), computing the reference on the fly (no second
// array: the checks run at n > 2^31). int32: exact. float: element i against the double-precision
// scan within scan_tolerance(terms, running absolute sum) (see below).
check_result check_scan(const std::string& what, const std::int32_t* in, const std::int32_t* got,
                        std::size_t n, bool inclusive);
check_result check_scan(const std::string& what, const float* in, const float* got, std::size_t n,
                        bool inclusive);

// The same check with the bound of a sequential float loop, scan_cpu's: one float running sum adds
// the elements in order, so its rounding errors accumulate along one chain and drift (Higham's
// bound: terms x eps/2 x sum_abs, used here with eps, twice that); the square-root tolerance of the
// trees (below) does not hold for it at large n. int32: exact, as above.
check_result check_sequential_scan(const std::string& what, const std::int32_t* in,
                                   const std::int32_t* got, std::size_t n, bool inclusive);
check_result check_sequential_scan(const std::string& what, const float* in, const float* got,
                                   std::size_t n, bool inclusive);
double sequential_scan_tolerance(std::size_t terms, double sum_abs);

// The tolerance of a float prefix of `terms` elements whose absolute values add up to sum_abs.
// Every float add rounds by at most eps/2 of a partial sum no larger than sum_abs; a scan adds each
// element in a tree within its tile and then along the chain of tile prefixes, so an element's
// error is a sum of many such roundings of either sign, which grows like the square root of their
// number: common::sum_tolerance(terms, sum_abs), the reduction's tolerance, (sqrt(terms) +
// log2(terms + 1) + 1) * eps * sum_abs. The int32 runs check every element exactly.
double scan_tolerance(std::size_t terms, double sum_abs);

}  // namespace common
