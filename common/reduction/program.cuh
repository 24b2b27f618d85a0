// The program of every Part I step, written once: a step's main.cu names its launch functions
// and calls run_reduction_program(). For each type (int32, float): seeded input -> CPU reference
// -> poisoned output and workspace -> run -> check -> time -> check again -> the same for
// cub::DeviceReduce::Sum (the peer) -> one result row with both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace common {

struct reduction_step {
  const char* name;
  const char* summary;
  std::size_t (*workspace_elements)(int n);
  void (*launch_int32)(const std::int32_t* d_in, int n, std::int32_t* d_out,
                       std::int32_t* d_workspace);
  void (*launch_float)(const float* d_in, int n, float* d_out, float* d_workspace);
};

int run_reduction_program(int argc, char** argv, const reduction_step& step);

}  // namespace common
