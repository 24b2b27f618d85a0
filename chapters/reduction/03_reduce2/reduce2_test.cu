// reduce2: tests. Host: the block count and workspace arithmetic. GPU: every edge size, both
// types, poisoned output and workspace (common/reduction/testing.cuh).
#include "common/reduction/testing.cuh"
#include "reduce2.cuh"

HOST_TEST_CASE("reduce2 uses one block per 256 elements and enough workspace") {
  CHECK(reduce2::blocks_for(1) == 1);
  CHECK(reduce2::blocks_for(256) == 1);
  CHECK(reduce2::blocks_for(257) == 2);
  // 2^22 elements: 16384 partial sums, then 64, then 1 (written to d_out).
  CHECK(reduce2::workspace_elements(1 << 22) == 16384 + 64);
  CHECK(reduce2::workspace_elements(0) == 0);
}

GPU_TEST_CASE("reduce2 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(
      {"reduce2", "", reduce2::workspace_elements, reduce2::launch<std::int32_t>,
       reduce2::launch<float>},
      reduce2::BLOCK_THREADS);
}
