// The GPU test every Part I step runs: both types, every edge size of its block size, the
// slides' 2^22, and 2^28 + 3; two seeds at the small sizes; poisoned output and workspace.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/reduction/program.cuh"
#include "common/reduction/reference.hpp"
#include "common/testing.hpp"

namespace common::testing {

// Count as written by the step, never deduced from a size argument: {1, 2, 3} and 7 are ints,
// and a 64-bit step's tests pass them too.
template <class Count>
using count_of = typename std::enable_if<true, Count>::type;

template <class T, class Count>
void check_reduction_at(const basic_reduction_step<Count>& step,
                        void (*launch)(const T*, Count, T*, T*), count_of<Count> n,
                        std::uint64_t seed) {
  const std::vector<T> input = reduction_input<T>(std::size_t(n), seed);
  device_buffer<T> d_in{static_cast<std::size_t>(n)}, d_out(1),
      d_workspace(step.workspace_elements(n));
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
template <class Count>
void check_reduction_sizes(const basic_reduction_step<Count>& step,
                           std::initializer_list<count_of<Count>> sizes, std::uint64_t seed = 5) {
  for (const Count n : sizes) {
    check_reduction_at<std::int32_t>(step, step.launch_int32, n, seed);
    check_reduction_at<float>(step, step.launch_float, n, seed);
  }
}

// A float sum must come out with the same bits on every launch (a fixed summation order), even
// on a workspace left by earlier launches.
template <class Count>
void check_same_float_bits(const basic_reduction_step<Count>& step, count_of<Count> n,
                           int launches = 20) {
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
template <class Count>
void check_reduction_step(const basic_reduction_step<Count>& step, int block) {
  std::vector<std::int64_t> sizes = edge_sizes(block);
  sizes.push_back(2 * block - 1);
  sizes.push_back(2 * block + 1);
  sizes.push_back(std::int64_t(1) << 22);        // the slides' size
  sizes.push_back((std::int64_t(1) << 28) + 3);  // the reference size, not a power of two
  for (const std::int64_t n : sizes) {
    const int seeds = n < (std::int64_t(1) << 22) ? 2 : 1;
    for (int s = 0; s < seeds; ++s) check_reduction_sizes(step, {Count(n)}, 11 + s);
  }
}

// Launches of `launch(d_in, n, d_out, d_workspace)` on one workspace (workspace_elements for the
// largest n, poisoned once), back to back, without a synchronization in between; every result
// goes to its own output and is checked at the end. For steps whose workspace must be left ready
// by each launch for the next.
template <class T, class Count, class Launch>
void check_launches_in_a_row(const std::vector<Count>& sizes,
                             std::size_t (*workspace_elements)(Count), Launch launch) {
  Count largest = 0;
  for (const Count n : sizes) largest = n > largest ? n : largest;
  const std::vector<T> input = reduction_input<T>(std::size_t(largest), 31);
  device_buffer<T> d_in{static_cast<std::size_t>(largest)}, d_out(sizes.size());
  device_buffer<T> d_workspace(workspace_elements(largest));
  d_in.upload(input);
  d_out.poison();
  d_workspace.poison();
  for (std::size_t k = 0; k < sizes.size(); ++k)
    launch(d_in.data(), sizes[k], d_out.data() + k, d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<T> out = d_out.download();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::vector<T> prefix(input.begin(), input.begin() + sizes[k]);
    const check_result r = check_sum("sum", out[k], reference_sum(prefix));
    INFO("launch ", k, " n=", sizes[k], " ", describe(r));
    CHECK(r.ok());
  }
}

// The same for a step written in braces at the call, {"reduce0", "", ...}: a 32-bit step.
inline void check_reduction_step(const reduction_step& step, int block) {
  check_reduction_step<int>(step, block);
}

}  // namespace common::testing
