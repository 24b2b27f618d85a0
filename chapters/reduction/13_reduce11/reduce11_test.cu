// reduce11: tests. Host: the runs tile the vectors exactly and differ by at most one unit; the
// grid and the split at 64-bit n. GPU: every edge size, both types, poisoned output and workspace
// (common/reduction/testing.cuh); d_in at offsets 0..3 with guards; n around the tiles' and the
// runs' edges (fewer tiles than blocks, a run's last partial tile, the vectors past the last
// unit); every variant; many launches in a row on one workspace, n moving between the single
// block, reduce10's cluster and the grid (the claims' word left by the launch before); the same
// float bits every time for the variants with a fixed share per block (not for claimed tiles: see
// below); and n past 2^31 (int32 and float) and past 2^32 (int32).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "chapters/reduction/10_reduce8/reduce8_testing.cuh"
#include "common/reduction/testing.cuh"
#include "reduce11.cuh"

namespace {
constexpr std::int64_t TWO_31 = std::int64_t(1) << 31, TWO_32 = std::int64_t(1) << 32;
}  // namespace

HOST_TEST_CASE("reduce11 runs cover every unit once in order within one unit of each other") {
  for (const std::int64_t units :
       {std::int64_t(0), std::int64_t(1), std::int64_t(527), std::int64_t(528), std::int64_t(529),
        std::int64_t(131073), (TWO_32 / 4) / reduce11::GROUP_VECTORS + 5}) {
    for (const int blocks : {1, 7, 528, 1056}) {
      CAPTURE(units);
      CAPTURE(blocks);
      std::int64_t next = 0, shortest = units, longest = 0;
      for (int b = 0; b < blocks; ++b) {
        const reduce11::block_run r = reduce11::run_of(units, reduce11::GROUP_VECTORS, blocks, b);
        CHECK(r.begin == next);  // contiguous, no gap, no overlap
        CHECK(r.count % reduce11::GROUP_VECTORS == 0);
        next = r.begin + r.count;
        shortest = std::min(shortest, r.count / reduce11::GROUP_VECTORS);
        longest = std::max(longest, r.count / reduce11::GROUP_VECTORS);
      }
      CHECK(next == units * reduce11::GROUP_VECTORS);
      CHECK(longest - shortest <= 1);
    }
  }
}

HOST_TEST_CASE("reduce11's grid and split hold at 64-bit n") {
  constexpr int T = reduce8::TILE_ELEMENTS;
  CHECK(reduce11::grid_for(0, 528) == 1);
  CHECK(reduce11::grid_for(1, 528) == 1);
  CHECK(reduce11::grid_for(T, 528) == 1);
  CHECK(reduce11::grid_for(T + 1, 528) == 2);
  CHECK(reduce11::grid_for(TWO_31 + 5, 528) == 528);
  CHECK(reduce11::grid_for(std::int64_t(1) << 40, 528) == 528);
  CHECK(reduce11::grid_for(std::int64_t(T) * 300 - 1, 528) == 300);
  for (int offset = 0; offset < 4; ++offset) {
    const float* in = reinterpret_cast<const float*>(std::uintptr_t(0x100000) + 4 * offset);
    for (const std::int64_t n : {TWO_31 + 5, TWO_32 + 3, std::int64_t(1) << 40}) {
      const auto s = reduce8::split_for_vectors(in, n);  // 64-bit head, vectors, tail
      CAPTURE(offset);
      CAPTURE(n);
      CHECK(s.head == (4 - offset) % 4);
      CHECK(s.tail == s.head + 4 * s.vectors);
      CHECK(n - s.tail >= 0);
      CHECK(n - s.tail < 4);
    }
  }
}

namespace {
const std::vector<common::reduction_step_64> variants = reduce11::variants();
const common::reduction_step_64 step = variants[0];  // split=claimed

// n where the runs end in every way: whole tiles only, a last partial tile, fewer groups than
// blocks, vectors past the last group, and around the full grid's first trip.
std::vector<std::int64_t> sizes_around_the_runs() {
  const std::int64_t grid = reduce11::grid_limit<reduce11::claimed>();
  const std::int64_t tile = reduce8::TILE_ELEMENTS, group = 4 * reduce11::GROUP_VECTORS;
  std::vector<std::int64_t> sizes;
  for (const std::int64_t base :
       {reduce10::CLUSTER_ELEMENTS + group, grid * group, grid * tile, grid * tile + grid * group,
        3 * grid * tile, 7 * grid * tile + 5 * group})
    for (const std::int64_t d :
         {-group - 1, std::int64_t(-1), std::int64_t(0), std::int64_t(3), group + 2})
      sizes.push_back(base + d);
  return sizes;
}

// Sums d_in[0, n) for a large n when the device holds it (input plus a little), else says why
// not: the input is made, summed on the host and uploaded once per type.
template <class T>
void check_large(std::int64_t n) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (double(n) * sizeof(T) > 0.9 * double(free_bytes)) {
    MESSAGE("n = ", n, " does not fit this GPU's free memory; not checked here");
    return;
  }
  if constexpr (std::is_same_v<T, float>)
    common::testing::check_reduction_at(step, step.launch_float, n, 41);
  else
    common::testing::check_reduction_at(step, step.launch_int32, n, 41);
}
}  // namespace

GPU_TEST_CASE("reduce11 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce11::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce11 sums d_in at offsets 0 to 3 with every n mod 4 and reads no guard") {
  reduction_vector_testing::check_heads_and_tails(step, reduce8::TILE_ELEMENTS,
                                                  reduce11::grid_limit<reduce11::claimed>());
}

GPU_TEST_CASE("reduce11 sums where the runs end in every way for every variant at every offset") {
  for (const common::reduction_step_64& v : variants) {
    for (const std::int64_t n : sizes_around_the_runs()) {
      const int offset = int(n % 4);
      CAPTURE(v.variant);
      reduction_vector_testing::check_offset_sum<std::int32_t>(v, v.launch_int32, n, offset, 3);
      reduction_vector_testing::check_offset_sum<float>(v, v.launch_float, n, offset, 3);
    }
  }
}

GPU_TEST_CASE("reduce11 every variant sums at every edge size") {
  for (const common::reduction_step_64& v : variants) {
    CAPTURE(v.variant);
    constexpr std::int64_t single = reduce11::SINGLE_TILE_ELEMENTS;  // one block up to here
    common::testing::check_reduction_sizes(
        v, {0, 1, 2, 31, 32, 33, 511, 512, 513, 4095, 4097, single - 1, single, single + 1, 100003,
            reduce10::CLUSTER_ELEMENTS + 1, (1 << 22) + 3});
  }
}

GPU_TEST_CASE(
    "reduce11 is right launch after launch as n moves between one block and the cluster and the "
    "grid") {
  const std::int64_t capacity = reduce10::CLUSTER_ELEMENTS;
  const std::int64_t single = reduce11::SINGLE_TILE_ELEMENTS;
  std::vector<std::int64_t> sizes;
  for (int k = 0; k < 40; ++k) sizes.push_back((1 << 22) + 3);  // the same grid 40 times
  for (const std::int64_t n : sizes_around_the_runs()) sizes.push_back(n);
  for (const std::int64_t n : {std::int64_t(0), capacity + 1, std::int64_t(1), capacity,
                               std::int64_t(1) << 16, std::int64_t(33), capacity + 1, single,
                               single + 1, single, std::int64_t(1) << 16, single - 1})
    sizes.push_back(n);
  using reduce11::claimed;
  common::testing::check_launches_in_a_row<std::int32_t>(
      sizes, reduce11::workspace_elements<claimed>,
      reduce11::launch_or_exit<std::int32_t, claimed>);
  common::testing::check_launches_in_a_row<float>(sizes, reduce11::workspace_elements<claimed>,
                                                  reduce11::launch_or_exit<float, claimed>);
}

// With a fixed share per block the float sum is added in the same order every launch: the same
// bits. Not with claimed tiles (the step): which block sums which tile, and so how the float
// partial sums round, changes from launch to launch (on the H100 the bits of the sum at
// n = 2^24 + 7 differed by one or two units in the last place); every launch is still checked
// against the reference's tolerance by the other tests, and int32 sums are exact in any order.
GPU_TEST_CASE("reduce11 gives the same float bits on every launch with a fixed share per block") {
  for (const common::reduction_step_64& v : variants) {
    if (std::string_view(v.variant) == "split=claimed" || std::string_view(v.variant) == "unroll=4")
      continue;  // claimed tiles
    CAPTURE(v.variant);
    for (const int n : {1 << 16, (1 << 24) + 7}) common::testing::check_same_float_bits(v, n);
  }
}

GPU_TEST_CASE("reduce11 sums int32 and float past 2^31 elements and int32 past 2^32") {
  // Skipped where not even the first array fits; on a GPU that holds it but not 2^32 + 3 int32
  // (17.2 GB), the last size says so and the case checks the first two.
  if (!common::testing::device_holds(std::size_t(TWO_31 + 5) * sizeof(std::int32_t), "2^31 + 5 int32"))
    return;
  check_large<std::int32_t>(TWO_31 + 5);
  check_large<float>(TWO_31 + 5);
  check_large<std::int32_t>(TWO_32 + 3);
}

namespace {
// Sums n elements (seed) on `stream` into *d_out, `launches` times; the caller checks.
struct stream_job {
  std::int64_t n;
  std::vector<std::int32_t> input;
  common::device_buffer<std::int32_t> d_in, d_out, d_workspace;
  cudaStream_t stream = nullptr;
  stream_job(std::int64_t n_, std::uint64_t seed)
      : n(n_), input(common::reduction_input<std::int32_t>(std::size_t(n_), seed)),
        d_in(std::size_t(n_)), d_out(1),
        d_workspace(std::max<std::size_t>(1, reduce11::workspace_elements(n_))) {
    d_in.upload(input);
    d_out.poison();
    d_workspace.poison();
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  ~stream_job() { cudaStreamDestroy(stream); }
  void check() {
    const std::int32_t got = d_out.download()[0];
    INFO("n=", n);
    CHECK(common::check_sum("sum", got, common::reference_sum(input)).ok());
  }
};
}  // namespace

GPU_TEST_CASE("reduce11 runs on two streams at once with a workspace each") {
  // Sizes on each path: the grid (two sizes), the single block, the cluster where there is one.
  const std::int64_t sizes[] = {(std::int64_t(1) << 24) + 3, 100003,
                                reduce11::SINGLE_TILE_ELEMENTS - 1, reduce10::CLUSTER_ELEMENTS};
  for (const std::int64_t n : sizes) {
    stream_job a(n, 1), b(n + 1, 2);
    for (int k = 0; k < 20; ++k) {  // interleaved: each stream's launches overlap the other's
      REQUIRE(reduce11::launch(a.d_in.data(), a.n, a.d_out.data(), a.d_workspace.data(),
                               a.stream) == cudaSuccess);
      REQUIRE(reduce11::launch(b.d_in.data(), b.n, b.d_out.data(), b.d_workspace.data(),
                               b.stream) == cudaSuccess);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    a.check();
    b.check();
  }
}

GPU_TEST_CASE("reduce11 is right after a device reset between launches") {
  // Its caches (the grid limit, whether the cluster runs) are per device and context.
  for (int round = 0; round < 2; ++round) {
    {
      stream_job grid((1 << 24) + 3, 7 + round), cluster(reduce10::CLUSTER_ELEMENTS, 9 + round);
      for (stream_job* job : {&grid, &cluster})
        REQUIRE(reduce11::launch(job->d_in.data(), job->n, job->d_out.data(),
                                 job->d_workspace.data(), job->stream) == cudaSuccess);
      CUDA_CHECK(cudaDeviceSynchronize());
      grid.check();
      cluster.check();
    }  // every buffer and stream freed before the reset
    CUDA_CHECK(cudaDeviceReset());
  }
}

GPU_TEST_CASE("reduce11 returns bad arguments as errors and launches nothing") {
  common::device_buffer<float> d_in(1 << 20), d_out(1);
  d_out.poison();
  CHECK(reduce11::launch<float>(d_in.data(), -1, d_out.data(), nullptr) == cudaErrorInvalidValue);
  CHECK(reduce11::launch<float>(d_in.data(), 1 << 20, nullptr, nullptr) == cudaErrorInvalidValue);
  CHECK(reduce11::launch<float>(nullptr, 5, d_out.data(), nullptr) == cudaErrorInvalidValue);
  // Past the single block and the cluster a workspace is needed.
  CHECK(reduce11::launch<float>(d_in.data(), 1 << 20, d_out.data(), nullptr) ==
        cudaErrorInvalidValue);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(std::isnan(d_out.download()[0]));  // still the poison
}
