// reduce7: tests. Host: the block count and workspace arithmetic (reduce6's, unchanged). GPU:
// every edge size, both types, poisoned output and workspace (common/reduction/testing.cuh);
// block_sum() alone at every block size reduce8 and reduce9 may use, called twice per kernel.
#include <climits>

#include "common/device_buffer.cuh"
#include "common/reduction/testing.cuh"
#include "reduce7.cuh"

HOST_TEST_CASE("reduce7 keeps reduce6's grid of at most 1024 blocks and two passes") {
  CHECK(reduce7::blocks_for(1) == 1);
  CHECK(reduce7::blocks_for(1024) == 1);
  CHECK(reduce7::blocks_for(1025) == 2);
  CHECK(reduce7::blocks_for(1 << 20) == 1024);
  CHECK(reduce7::blocks_for((1 << 28) + 3) == 1024);
  CHECK(reduce7::blocks_for(INT_MAX) == 1024);
  CHECK(reduce7::blocks_for(reduce7::GRID_BLOCKS) == 1);
  CHECK(reduce7::workspace_elements(1 << 22) == 1024 + 1);
  CHECK(reduce7::workspace_elements(0) == 0);
}

namespace {
const common::reduction_step step = {"reduce7", "", reduce7::workspace_elements,
                                     reduce7::launch<std::int32_t>, reduce7::launch<float>};

// Thread t contributes t + 1 (first call) and 2 * (t + 1) (second call, after a barrier, as
// reduce9's last block does): thread 0 must see BLOCK * (BLOCK + 1) / 2 and twice that.
template <int BLOCK>
__global__ void block_sum_twice(int* sums) {
  const int first = reduce7::block_sum<BLOCK>(int(threadIdx.x) + 1);
  __syncthreads();  // warp_sums is reused by the second call
  const int second = reduce7::block_sum<BLOCK>(2 * (int(threadIdx.x) + 1));
  if (threadIdx.x == 0) {
    sums[0] = first;
    sums[1] = second;
  }
}

template <int BLOCK>
void check_block_sum() {
  common::device_buffer<int> d_sums(2);
  d_sums.poison();
  block_sum_twice<BLOCK><<<1, BLOCK>>>(d_sums.data());
  CUDA_CHECK_LAUNCH();
  const std::vector<int> sums = d_sums.download();
  const int want = BLOCK * (BLOCK + 1) / 2;
  INFO("BLOCK=", BLOCK);
  CHECK(sums[0] == want);
  CHECK(sums[1] == 2 * want);
}
}  // namespace

GPU_TEST_CASE("reduce7 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce7::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce7 sums where the grid fills and where the loop takes a partial trip") {
  constexpr int B = reduce7::BLOCK_THREADS;
  constexpr int M = reduce7::MIN_BLOCK_ELEMENTS;
  constexpr int G = reduce7::GRID_BLOCKS * reduce7::BLOCK_ELEMENTS;  // one trip of a full grid
  common::testing::check_reduction_sizes(step, {M - 1, M, M + 1, G - 1, G, G + 1, G + B - 1, G + B,
                                                G + B + 1, 2 * G - 1, 2 * G, 2 * G + 1,
                                                5 * G + 3 * B + 17});
}

GPU_TEST_CASE("reduce7 block_sum adds one value per thread for blocks of 32 to 1024 threads") {
  check_block_sum<32>();
  check_block_sum<64>();
  check_block_sum<128>();
  check_block_sum<256>();
  check_block_sum<512>();
  check_block_sum<1024>();
}
