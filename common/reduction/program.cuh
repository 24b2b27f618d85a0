// The program of every Part I step, written once: a step's main.cu names its launch functions
// and calls run_reduction_program(). For each type (int32, float): seeded input -> CPU reference
// -> poisoned output and workspace -> run -> check -> time -> check again -> the same for
// cub::DeviceReduce::Sum (the peer, called with a 64-bit item count) -> one result row with both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace common {

// A step's launch functions for element counts of type Count: int for the steps that keep the
// literature's 32-bit indices (n < 2^31), std::int64_t for the step that takes any n that fits.
template <class Count>
struct basic_reduction_step {
  const char* name;
  const char* summary;
  std::size_t (*workspace_elements)(Count n);
  void (*launch_int32)(const std::int32_t* d_in, Count n, std::int32_t* d_out,
                       std::int32_t* d_workspace);
  void (*launch_float)(const float* d_in, Count n, float* d_out, float* d_workspace);
  const char* variant = "";  // the result row's variant (64-bit steps with several; else "")
};
using reduction_step = basic_reduction_step<int>;
using reduction_step_64 = basic_reduction_step<std::int64_t>;

// The step that takes every n the device holds, named by the 32-bit steps' --help and errors.
inline constexpr const char* LARGE_N_STEP = "reduce11";

// A 32-bit step: an explicit --n of 2^31 or more is a usage error that names LARGE_N_STEP.
int run_reduction_program(int argc, char** argv, const reduction_step& step);

// A 64-bit step with its variants: variants[0] is measured unless --variant names another or
// --sweep asks for all, in order. The program's name and summary are variants[0]'s.
int run_reduction_program(int argc, char** argv, const std::vector<reduction_step_64>& variants);

}  // namespace common
