// reduce1: tests. Host: the block count and workspace arithmetic. GPU: every edge size, both
// types, poisoned output and workspace (common/reduction/testing.cuh).
#include "common/reduction/testing.cuh"
#include "reduce1.cuh"

HOST_TEST_CASE("reduce1 uses one block per 256 elements and enough workspace") {
  CHECK(reduce1::blocks_for(1) == 1);
  CHECK(reduce1::blocks_for(256) == 1);
  CHECK(reduce1::blocks_for(257) == 2);
  // 2^22 elements: 16384 partial sums, then 64, then 1 (written to d_out).
  CHECK(reduce1::workspace_elements(1 << 22) == 16384 + 64);
  CHECK(reduce1::workspace_elements(0) == 0);
}

GPU_TEST_CASE("reduce1 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(
      {"reduce1", "", reduce1::workspace_elements, reduce1::launch<std::int32_t>,
       reduce1::launch<float>},
      reduce1::BLOCK_THREADS);
}
