// Tests shared by reduce8 and reduce9, the steps with 16-byte loads: a sum of d_in + offset, with
// guard elements before and after the summed range whose values would show in the sum if the
// vector head or tail read one element too many.
#pragma once

#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/reduction/program.cuh"
#include "common/reduction/reference.hpp"
#include "common/reduction/testing.cuh"
#include "common/testing.hpp"

namespace reduction_vector_testing {

constexpr int GUARD = 5;  // elements after the range; `offset` elements come before it

// Sums in[offset, offset + n) of an array of offset + n + GUARD elements. The guards hold a value
// far outside the inputs' range ([-100, 100] for int32, [-1, 2) for float).
template <class T, class Count>
void check_offset_sum(const common::basic_reduction_step<Count>& step,
                      void (*launch)(const T*, Count, T*, T*), common::testing::count_of<Count> n,
                      int offset, std::uint64_t seed) {
  std::vector<T> values;
  if constexpr (std::is_same_v<T, float>)
    values = common::reduction_input_float(n, seed);
  else
    values = common::reduction_input_int32(n, seed);
  std::vector<T> array(std::size_t(offset), T(1000003));
  array.insert(array.end(), values.begin(), values.end());
  array.insert(array.end(), GUARD, T(-7000001));
  common::device_buffer<T> d_array(array.size()), d_out(1), d_workspace(step.workspace_elements(n));
  d_array.upload(array);
  d_out.poison();
  d_workspace.poison();
  launch(d_array.data() + offset, n, d_out.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const common::check_result r =
      common::check_sum("sum", d_out.download()[0], common::reference_sum(values));
  INFO(step.name, " n=", n, " offset=", offset, " seed=", seed, " ", common::describe(r));
  CHECK(r.ok());
}

// Every offset of d_in from a 16-byte boundary (0..3 elements) with n % 4 in {0, 1, 2, 3}: small
// n (head and tail overlap or are all there is), n around one tile of one block, and n around the
// full grid's first trip (tile_elements * grid).
template <class Count>
void check_heads_and_tails(const common::basic_reduction_step<Count>& step, int tile_elements,
                           int grid) {
  std::vector<int> sizes;
  for (int n = 0; n <= 9; ++n) sizes.push_back(n);
  for (const int base : {tile_elements, tile_elements * grid, 3 * tile_elements * grid})
    for (int d = -2; d <= 1; ++d) sizes.push_back(base + d);  // every n % 4
  for (const int n : sizes) {
    for (int offset = 0; offset < 4; ++offset) {
      check_offset_sum<std::int32_t>(step, step.launch_int32, n, offset, 7 + offset);
      check_offset_sum<float>(step, step.launch_float, n, offset, 7 + offset);
    }
  }
}

}  // namespace reduction_vector_testing
