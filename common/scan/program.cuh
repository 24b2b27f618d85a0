// The program of every Part III GPU step, written once: a step's main.cu lists its variants (one
// unless it has a sweep) and calls run_scan_program(). For each type (int32, float): seeded input
// -> poisoned output and workspace -> run -> check against the sequential scan -> time -> check
// again -> the same for cub::DeviceScan::ExclusiveSum (the peer) -> one result row with both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace common {

// launch(d_in, n, d_out, d_workspace): d_out[0, n) = the scan of d_in[0, n), on stream 0.
template <class T>
using scan_launch = std::function<void(const T* d_in, std::int64_t n, T* d_out, void* d_workspace)>;

struct scan_variant {
  std::string name;  // the result row's variant, e.g. "block=256 items=16"; may be empty
  scan_launch<std::int32_t> exclusive_int32;
  scan_launch<float> exclusive_float;
  scan_launch<std::int32_t> inclusive_int32;  // empty: the step offers no --inclusive
  scan_launch<float> inclusive_float;
  // Bytes of workspace the launch needs for n elements (empty: none).
  std::function<std::size_t(std::int64_t n)> workspace_bytes;
  // Empty: the variant runs on every GPU. Else whether it runs on the current one (a final step's
  // configuration that needs sm_90 code): the program leaves it out, with a note, where it does
  // not.
  std::function<bool()> runs_here;
  // Empty, or which path the variant takes on the current GPU (a final step with a portable
  // path): the program prints it before the variant's rows.
  std::function<std::string()> path_here;
};

struct scan_step {
  std::string name;                    // the program name, e.g. "scan_naive"
  std::string summary;                 // one line for --help
  std::int64_t max_n;                  // larger n are refused with exit 2 (a single block's limit)
  std::vector<scan_variant> variants;  // --sweep measures all, in order; else variants[0]
  std::string sweep_help;              // non-empty: the program has --sweep
};

// A variant from a step's launch functions: launch(d_in, n, d_out) (no workspace), or
// launch(d_in, n, d_out, d_workspace) with workspace_bytes(n).
scan_variant variant_of(std::string name,
                        void (*launch_int32)(const std::int32_t*, std::int64_t, std::int32_t*),
                        void (*launch_float)(const float*, std::int64_t, float*));
scan_variant variant_of(std::string name,
                        void (*launch_int32)(const std::int32_t*, std::int64_t, std::int32_t*,
                                             void*),
                        void (*launch_float)(const float*, std::int64_t, float*, void*),
                        std::size_t (*workspace_bytes)(std::int64_t));

// The input of element type T: Part I's (int32 in [-100, 100], float in [-1, 2)), so that a
// scan's last element is the reduction's sum.
template <class T>
std::vector<T> scan_input(std::size_t n, std::uint64_t seed);

// The whole program: returns the exit code for main().
int run_scan_program(int argc, char** argv, const scan_step& step);

}  // namespace common
