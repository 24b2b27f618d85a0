// reduce4: tests. Host: the block count and workspace arithmetic. GPU: every edge size, both
// types, poisoned output and workspace (common/reduction/testing.cuh).
#include "common/reduction/testing.cuh"
#include "reduce4.cuh"

HOST_TEST_CASE("reduce4 uses one block per 512 elements and enough workspace") {
  CHECK(reduce4::blocks_for(1) == 1);
  CHECK(reduce4::blocks_for(512) == 1);
  CHECK(reduce4::blocks_for(513) == 2);
  // 2^22 elements: 8192 partial sums, then 16, then 1 (written to d_out).
  CHECK(reduce4::workspace_elements(1 << 22) == 8192 + 16);
  CHECK(reduce4::workspace_elements(0) == 0);
}

namespace {
const common::reduction_step step = {"reduce4", "", reduce4::workspace_elements,
                                     reduce4::launch<std::int32_t>, reduce4::launch<float>};
}

GPU_TEST_CASE("reduce4 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce4::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce4 sums at the edges of one block of 512 and of a second pass") {
  constexpr int E = reduce4::BLOCK_ELEMENTS;
  common::testing::check_reduction_sizes(step, {E - 1, E, E + 1, 2 * E - 1, 2 * E, 2 * E + 1,
                                                E * E - 1, E * E, E * E + 1});
}
