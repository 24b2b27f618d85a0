// The GPU test every Part I step runs: both types, every edge size of its block size, the
// slides' 2^22, and 2^28 + 3; two seeds at the small sizes; poisoned output and workspace.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/reduction/program.cuh"
#include "common/reduction/reference.hpp"
#include "common/testing.hpp"

namespace common::testing {

template <class T>
void check_reduction_at(const reduction_step& step, void (*launch)(const T*, int, T*, T*), int n,
                        std::uint64_t seed) {
  const std::vector<T> input = reduction_input<T>(std::size_t(n), seed);
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

// Both types at each n, with one seed: the step-specific sizes of a test (block edges, grid edges).
inline void check_reduction_sizes(const reduction_step& step, std::initializer_list<int> sizes,
                                  std::uint64_t seed = 5) {
  for (const int n : sizes) {
    check_reduction_at<std::int32_t>(step, step.launch_int32, n, seed);
    check_reduction_at<float>(step, step.launch_float, n, seed);
  }
}

// A float sum must come out with the same bits on every launch (a fixed summation order), even
// on a workspace left by earlier launches.
inline void check_same_float_bits(const reduction_step& step, int n, int launches = 20) {
  const std::vector<float> input = reduction_input_float(std::size_t(n), 9);
  device_buffer<float> d_in(n), d_out(1), d_workspace(step.workspace_elements(n));
  d_in.upload(input);
  d_workspace.poison();
  std::uint32_t first = 0;
  for (int k = 0; k < launches; ++k) {
    d_out.poison();
    step.launch_float(d_in.data(), n, d_out.data(), d_workspace.data());
    const float sum = d_out.download()[0];
    std::uint32_t bits = 0;
    std::memcpy(&bits, &sum, sizeof(bits));
    if (k == 0) first = bits;
    CAPTURE(n);
    CAPTURE(k);
    CHECK(bits == first);
  }
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
    for (int s = 0; s < seeds; ++s) check_reduction_sizes(step, {int(n)}, 11 + s);
  }
}

}  // namespace common::testing
