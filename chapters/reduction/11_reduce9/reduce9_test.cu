// reduce9: tests. Host: where the counter sits in the workspace; the stamps. GPU: every edge size,
// both types, poisoned output and workspace (common/reduction/testing.cuh); d_in at offsets 0..3
// (reduce8's loads); many launches in a row on one workspace (the counter must be ready each
// time), with n changing and the workspace poisoned or filled with garbage in between; the same
// float bits every time.
#include <cstdint>
#include <vector>

#include "chapters/reduction/10_reduce8/reduce8_testing.cuh"
#include "common/random.hpp"
#include "common/reduction/testing.cuh"
#include "reduce9.cuh"

HOST_TEST_CASE("reduce9 puts the counter on an 8-byte boundary then the partial sums") {
  for (const std::uintptr_t base : {std::uintptr_t(0x10000), std::uintptr_t(0x10004)}) {
    const int blocks = 5;
    float* workspace = reinterpret_cast<float*>(base);
    const reduce9::workspace_layout w = reduce9::layout_of(workspace);
    const auto counter = reinterpret_cast<std::uintptr_t>(w.counter);
    const auto sums = reinterpret_cast<std::uintptr_t>(w.slots);
    CAPTURE(base);
    CHECK(counter % 8 == 0);
    CHECK(counter >= base);
    CHECK(sums >= counter + 8);  // the partial sums do not overlap the counter
    CHECK(sums + 8 * blocks <= base + 4 * reduce9::workspace_elements_for_blocks(blocks));  // inside
  }
}

HOST_TEST_CASE("reduce9 gives every launch a new stamp that fits beside the count") {
  const unsigned long long a = reduce9::next_stamp();
  const unsigned long long b = reduce9::next_stamp();
  CHECK(a <= reduce9::STAMP_MASK);
  CHECK(b == ((a + 1) & reduce9::STAMP_MASK));
  CHECK((reduce9::STAMP_MASK << reduce9::COUNT_BITS | reduce9::COUNT_MASK) == ~0ull);
}

namespace {
const common::reduction_step step = {"reduce9", "", reduce9::workspace_elements,
                                     reduce9::launch<std::int32_t>, reduce9::launch<float>};

// Launches on one workspace, sized for the largest n, never reset by the test except where a
// size is negative: then the workspace is filled with `fill` bytes first (and |n| is summed).
template <class T>
void check_in_a_row(const std::vector<int>& sizes, int largest, unsigned char fill) {
  common::device_buffer<T> d_workspace(reduce9::workspace_elements(largest)), d_out(1);
  d_workspace.poison();
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    int n = sizes[k];
    if (n < 0) {
      n = -n;
      CUDA_CHECK(cudaMemset(d_workspace.data(), fill, d_workspace.bytes()));
    }
    const std::vector<T> input = common::reduction_input<T>(n, 100 + k);
    common::device_buffer<T> d_in(n);
    d_in.upload(input);
    d_out.poison();
    reduce9::launch(d_in.data(), n, d_out.data(), d_workspace.data());
    CUDA_CHECK(cudaDeviceSynchronize());
    const common::check_result r =
        common::check_sum("sum", d_out.download()[0], common::reference_sum(input));
    INFO("launch ", k, " n=", n, " ", common::describe(r));
    CHECK(r.ok());
  }
}
}  // namespace

GPU_TEST_CASE("reduce9 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce9::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce9 sums d_in at offsets 0 to 3 with every n mod 4 and reads no guard") {
  reduction_vector_testing::check_heads_and_tails(step, reduce8::TILE_ELEMENTS,
                                                  reduce9::grid_limit());
}

GPU_TEST_CASE("reduce9 is right launch after launch on one workspace as n and its grid change") {
  const int full = reduce8::TILE_ELEMENTS * reduce9::grid_limit();
  const int big = (1 << 22) + 3;
  std::vector<int> sizes;
  for (int k = 0; k < 40; ++k) sizes.push_back(100003);  // the same grid 40 times
  for (const int n : {0, 1, big, 2, 4097, full, full + 1, 33, 0, big, 1 << 16, 1, full - 1})
    sizes.push_back(n);
  check_in_a_row<std::int32_t>(sizes, big, 0);
  check_in_a_row<float>(sizes, big, 0);
}

GPU_TEST_CASE("reduce9 is right after the workspace is poisoned or zeroed or filled") {
  const int big = (1 << 20) + 1;
  // Negative: fill the workspace first. 0xAB and 0xFF are the harness's poisons; 0x00 is a
  // zeroed workspace; 0x01 makes a word whose count field is not zero.
  for (const unsigned char fill : {0xAB, 0xFF, 0x00, 0x01, 0x7F}) {
    CAPTURE(int(fill));
    const std::vector<int> sizes = {-big, big, -5000, 5000, 5000, -1, -big, 7, 1 << 16};
    check_in_a_row<std::int32_t>(sizes, big, fill);
    check_in_a_row<float>(sizes, big, fill);
  }
}

GPU_TEST_CASE("reduce9 is right when the counter holds another launch's stamp and any count") {
  const int n = (1 << 22) + 1;
  const std::vector<float> input = common::reduction_input_float(n, 3);
  common::device_buffer<float> d_in(n), d_out(1), d_workspace(reduce9::workspace_elements(n));
  d_in.upload(input);
  const int blocks = reduce9::blocks_for(n);
  unsigned long long* d_counter = reduce9::layout_of(d_workspace.data()).counter;
  const unsigned long long stamp = reduce9::next_stamp();  // the next launch gets stamp + 1
  for (const unsigned long long word :
       {stamp << reduce9::COUNT_BITS | (blocks - 1),  // the last launch, never finished
        (stamp - 7) << reduce9::COUNT_BITS | 3,       // an older launch
        (stamp + 2) << reduce9::COUNT_BITS | reduce9::COUNT_MASK,  // a later stamp, full count
        0ull, ~0ull}) {
    CAPTURE(word);
    d_workspace.poison();
    CUDA_CHECK(cudaMemcpy(d_counter, &word, sizeof(word), cudaMemcpyHostToDevice));
    d_out.poison();
    reduce9::launch(d_in.data(), n, d_out.data(), d_workspace.data());
    const common::check_result r =
        common::check_sum("sum", d_out.download()[0], common::reference_sum(input));
    INFO(common::describe(r));
    CHECK(r.ok());
  }
}

GPU_TEST_CASE("reduce9 gives the same float bits on every launch") {
  common::testing::check_same_float_bits(step, (1 << 24) + 7);
}
