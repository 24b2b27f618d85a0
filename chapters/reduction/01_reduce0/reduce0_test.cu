// reduce0: tests. Host: the block count and workspace arithmetic. GPU: every edge size, both
// types, poisoned output and workspace (common/reduction/testing.cuh).
#include "common/reduction/testing.cuh"
#include "reduce0.cuh"

HOST_TEST_CASE("reduce0 uses one block per 256 elements and enough workspace") {
  CHECK(reduce0::blocks_for(1) == 1);
  CHECK(reduce0::blocks_for(256) == 1);
  CHECK(reduce0::blocks_for(257) == 2);
  // 2^22 elements: 16384 partial sums, then 64, then 1 (written to d_out).
  CHECK(reduce0::workspace_elements(1 << 22) == 16384 + 64);
  CHECK(reduce0::workspace_elements(0) == 0);
}

GPU_TEST_CASE("reduce0 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(
      {"reduce0", "", reduce0::workspace_elements, reduce0::launch<std::int32_t>,
       reduce0::launch<float>},
      reduce0::BLOCK_THREADS);
}
