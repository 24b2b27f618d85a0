// The GPU test every Part I step runs: both types, every edge size of its block size, the
// slides' 2^22, and 2^28 + 3; two seeds at the small sizes; poisoned output and workspace.
#pragma once

#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/reduction_program.cuh"
#include "common/reduction_reference.hpp"
#include "common/testing.hpp"

namespace common::testing {

template <class T>
void check_reduction_at(const reduction_step& step, void (*launch)(const T*, int, T*, T*), int n,
                        std::uint64_t seed) {
  std::vector<T> input;
  if constexpr (std::is_same_v<T, float>) input = reduction_input_float(std::size_t(n), seed);
  else input = reduction_input_int32(std::size_t(n), seed);
  device_buffer<T> d_in(n), d_out(1), d_workspace(step.workspace_elements(n));
  d_in.upload(input);
  d_out.poison();
  d_workspace.poison();
  launch(d_in.data(), n, d_out.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const check_result r = check_sum("sum", d_out.download()[0], reference_sum(input));
  INFO(step.name, " n=", n, " seed=", seed, " ", describe(r));
  CHECK(r.ok());
}

// block: the step's threads per block (its edge sizes are block-1, block, block+1).
inline void check_reduction_step(const reduction_step& step, int block) {
  std::vector<std::int64_t> sizes = edge_sizes(block);
  sizes.push_back(2 * block - 1);
  sizes.push_back(2 * block + 1);
  sizes.push_back(std::int64_t(1) << 22);       // the slides' size
  sizes.push_back((std::int64_t(1) << 28) + 3);  // the reference size, not a power of two
  for (const std::int64_t n : sizes) {
    const int seeds = n < (std::int64_t(1) << 22) ? 2 : 1;
    for (int s = 0; s < seeds; ++s) {
      check_reduction_at<std::int32_t>(step, step.launch_int32, int(n), 11 + s);
      check_reduction_at<float>(step, step.launch_float, int(n), 11 + s);
    }
  }
}

}  // namespace common::testing
