// reduce10: tests. Host: which n go to one cluster and how many blocks it gets. GPU: every edge
// size, both types, poisoned output and workspace (common/reduction/testing.cuh); d_in at offsets
// 0..3 with guards (reduce8's loads) on both paths; n at and around the cluster's capacity and
// every cluster size; that the cluster path is taken exactly where the GPU and the build have
// clusters; many launches in a row, switching between the cluster and reduce9's grid on one
// workspace; the same float bits every time.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "chapters/reduction/10_reduce8/reduce8_testing.cuh"
#include "common/random.hpp"
#include "common/reduction/testing.cuh"
#include "reduce10.cuh"

HOST_TEST_CASE("reduce10 sends n up to the cluster's capacity to one cluster") {
  constexpr int CAPACITY = reduce10::CLUSTER_ELEMENTS;
  CHECK(reduce10::fits_one_cluster(0));
  CHECK(reduce10::fits_one_cluster(1));
  CHECK(reduce10::fits_one_cluster(CAPACITY));
  CHECK_FALSE(reduce10::fits_one_cluster(CAPACITY + 1));
  CHECK_FALSE(reduce10::fits_one_cluster((1 << 28) + 3));
  CHECK(reduce10::fits_one_cluster(1 << 16));  // the size this step is for, with any constants
}

HOST_TEST_CASE("reduce10 gives a cluster one block per tile rounded up to a power of two") {
  constexpr int T = reduce8::TILE_ELEMENTS;
  CHECK(reduce10::cluster_blocks_for(0) == 1);
  CHECK(reduce10::cluster_blocks_for(1) == 1);
  CHECK(reduce10::cluster_blocks_for(T) == 1);
  CHECK(reduce10::cluster_blocks_for(T + 1) == 2);
  CHECK(reduce10::cluster_blocks_for(2 * T) == 2);
  CHECK(reduce10::cluster_blocks_for(2 * T + 1) == 4);
  CHECK(reduce10::cluster_blocks_for(3 * T) == 4);
  CHECK(reduce10::cluster_blocks_for(reduce10::CLUSTER_ELEMENTS) == reduce10::CLUSTER_BLOCKS);
  for (int n = 0; n <= reduce10::CLUSTER_ELEMENTS; n += 997) {
    const int blocks = reduce10::cluster_blocks_for(n);
    CAPTURE(n);
    CHECK(blocks >= 1);
    CHECK(blocks <= reduce10::CLUSTER_BLOCKS);
    CHECK((blocks & (blocks - 1)) == 0);
    // Enough blocks for the trips allowed, and no block more than one tile's worth needs.
    CHECK(std::int64_t(blocks) * reduce10::CLUSTER_TRIPS * T >= n);
    if (blocks > 1) CHECK(std::int64_t(blocks / 2) * T < n);
  }
}

namespace {
const common::reduction_step step = {"reduce10", "", reduce10::workspace_elements,
                                     reduce10::launch<std::int32_t>, reduce10::launch<float>};

// n around every cluster size and around the capacity, with the largest n past it (reduce9).
std::vector<int> sizes_around_the_cluster() {
  std::vector<int> sizes;
  for (int blocks = 1; blocks <= reduce10::CLUSTER_BLOCKS; blocks *= 2)
    for (const int d : {-1, 0, 1}) sizes.push_back(blocks * reduce8::TILE_ELEMENTS + d);
  for (int d = -4; d <= 4; ++d) sizes.push_back(reduce10::CLUSTER_ELEMENTS + d);
  return sizes;
}
}  // namespace

GPU_TEST_CASE("reduce10 takes the cluster path exactly where the GPU and the build have clusters") {
  // A compute_75 or compute_80 build runs on an H200 as PTX compiled at first launch: its
  // cluster kernel is the empty body, so the cluster must not be taken there.
  bool hopper = false;
  CUDA_CHECK(common::runs_hopper_code(reduce10::kernel<float>, hopper));
  INFO("device and kernel both compute capability 9.0 or later: ", hopper);
  CHECK(reduce10::cluster_available() == hopper);
  CHECK(reduce10::uses_cluster(reduce10::CLUSTER_ELEMENTS) == hopper);
  CHECK_FALSE(reduce10::uses_cluster(reduce10::CLUSTER_ELEMENTS + 1));
  if (!hopper) {
    CHECK(reduce10::workspace_elements(reduce10::CLUSTER_ELEMENTS) ==
          reduce9::workspace_elements(reduce10::CLUSTER_ELEMENTS));
    return;  // reduce9 does all the work there; the other tests still check sums
  }
  CHECK(reduce10::workspace_elements(reduce10::CLUSTER_ELEMENTS) == 0);
  CHECK(reduce10::workspace_elements(reduce10::CLUSTER_ELEMENTS + 1) ==
        reduce9::workspace_elements(reduce10::CLUSTER_ELEMENTS + 1));
}

GPU_TEST_CASE("reduce10 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce10::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce10 sums d_in at offsets 0 to 3 with every n mod 4 and reads no guard") {
  // Around a full cluster, then around reduce9's full grid.
  reduction_vector_testing::check_heads_and_tails(step, reduce8::TILE_ELEMENTS,
                                                  reduce10::CLUSTER_BLOCKS);
  reduction_vector_testing::check_heads_and_tails(step, reduce8::TILE_ELEMENTS,
                                                  reduce9::grid_limit());
}

GPU_TEST_CASE("reduce10 sums at and around the cluster's capacity and every cluster size") {
  for (const int n : sizes_around_the_cluster()) {
    for (int offset = 0; offset < 4; ++offset) {
      reduction_vector_testing::check_offset_sum<std::int32_t>(step, step.launch_int32, n, offset,
                                                               21 + offset);
      reduction_vector_testing::check_offset_sum<float>(step, step.launch_float, n, offset,
                                                        21 + offset);
    }
  }
}

GPU_TEST_CASE("reduce10 is right launch after launch as n moves between the cluster and the grid") {
  const int capacity = reduce10::CLUSTER_ELEMENTS;
  std::vector<int> sizes;
  for (int k = 0; k < 100; ++k) sizes.push_back(1 << 16);  // the same cluster 100 times
  for (const int n : sizes_around_the_cluster()) sizes.push_back(n);
  for (const int n : {0, capacity + 1, 1, (1 << 22) + 3, capacity, 2, capacity + 1, 33, 0,
                      5 * capacity + 7, 1 << 16, 4097, capacity - 1})
    sizes.push_back(n);
  common::testing::check_launches_in_a_row<std::int32_t>(sizes, reduce10::workspace_elements,
                                                         reduce10::launch<std::int32_t>);
  common::testing::check_launches_in_a_row<float>(sizes, reduce10::workspace_elements,
                                                  reduce10::launch<float>);
}

GPU_TEST_CASE("reduce10 gives the same float bits on every launch") {
  for (const int n : {1 << 16, reduce10::CLUSTER_ELEMENTS, (1 << 24) + 7})
    common::testing::check_same_float_bits(step, n);
}
