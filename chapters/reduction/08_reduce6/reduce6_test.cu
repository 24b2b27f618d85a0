// reduce6: tests. Host: the block count and workspace arithmetic. GPU: every edge size, both
// types, poisoned output and workspace (common/reduction/testing.cuh), and the sizes where the
// grid fills up and where the grid-stride loop takes one more, partial, trip.
#include <climits>

#include "common/reduction/testing.cuh"
#include "reduce6.cuh"

HOST_TEST_CASE("reduce6 caps the grid at 1024 blocks and needs at most two passes") {
  CHECK(reduce6::blocks_for(1) == 1);
  CHECK(reduce6::blocks_for(1024) == 1);
  CHECK(reduce6::blocks_for(1025) == 2);
  CHECK(reduce6::blocks_for((1 << 20) - 1) == 1024);
  CHECK(reduce6::blocks_for(1 << 20) == 1024);
  CHECK(reduce6::blocks_for((1 << 20) + 1) == 1024);
  CHECK(reduce6::blocks_for((1 << 28) + 3) == 1024);
  CHECK(reduce6::blocks_for(INT_MAX) == 1024);  // no overflow in the rounding up
  // Any n: the partial sums of the first pass are summed by one block.
  CHECK(reduce6::blocks_for(reduce6::GRID_BLOCKS) == 1);
  // 2^22 elements: 1024 partial sums, then 1 (written to d_out).
  CHECK(reduce6::workspace_elements(1 << 22) == 1024 + 1);
  CHECK(reduce6::workspace_elements(1000) == 1);
  CHECK(reduce6::workspace_elements(0) == 0);
}

namespace {
const common::reduction_step step = {"reduce6", "", reduce6::workspace_elements,
                                     reduce6::launch<std::int32_t>, reduce6::launch<float>};
}

GPU_TEST_CASE("reduce6 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce6::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce6 sums where the grid fills and where the loop takes a partial trip") {
  constexpr int B = reduce6::BLOCK_THREADS;
  constexpr int M = reduce6::MIN_BLOCK_ELEMENTS;        // one block, two trips of its loop
  constexpr int F = reduce6::GRID_BLOCKS * M;           // a full grid, two trips of its loop
  common::testing::check_reduction_sizes(step, {M - 1, M, M + 1, F - M, F - M + 1, F - 1, F, F + 1,
                                                F + B - 1, F + B, F + B + 1, F + 2 * B + 1,
                                                3 * F + 5 * B + 17});
}
