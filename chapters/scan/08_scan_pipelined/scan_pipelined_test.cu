// scan_pipelined: tests. GPU: the part's edge sizes (scan_sizes), exclusive and inclusive, both
// types, for the default (and either side of its switch to large tiles at 2^24 elements and of its
// band of one large tile per block, last tiles of every length that the partial bulk copy
// distinguishes) and the sweep's others; the band's bounds on the host;
// the look-back's stress tests (a poisoned or stale workspace, launches repeated and back to back);
// unaligned arrays (the guarded loads instead of bulk copies); in place (also with the single
// block); and n > 2^31. The portable path on purpose (every size, in place, offsets); the
// launches' contract: arguments refused (host), an overlapping output refused and left untouched,
// two streams at once, a device reset between launches, a configuration that does not run here.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "variants.cuh"

namespace {

const std::vector<common::scan_variant> variants = scan_pipelined::variants();
const common::scan_variant& pipelined = variants[0];  // the default

}  // namespace

GPU_TEST_CASE("scan_pipelined scans int32 and float exclusive and inclusive at every size") {
  common::testing::check_scan_sizes(
      pipelined, common::testing::scan_sizes(scan_pipelined::BLOCK_THREADS,
                                             scan_pipelined::TILE_ELEMENTS, common::MAX_N));
}

GPU_TEST_CASE(
    "scan_pipelined's default scans with small tiles below 2^24 elements and large from 2^24") {
  using scan_pipelined::SMALL_N_LIMIT;
  constexpr std::int64_t SMALL_TILE = scan_pipelined::small_n_shape::TILE_ELEMENTS;
  common::testing::check_scan_sizes(
      pipelined, {SMALL_TILE - 1, SMALL_TILE, SMALL_TILE + 1, SMALL_N_LIMIT - 1, SMALL_N_LIMIT,
                  SMALL_N_LIMIT + 1});
}

TEST_CASE("scan_pipelined takes one large tile per block from a quarter of the blocks that fit") {
  using scan_pipelined::one_large_tile_per_block;
  constexpr std::int64_t LARGE_TILE = scan_pipelined::default_shape::TILE_ELEMENTS;
  constexpr int FIT = 264;  // two blocks per SM of 132 SMs (the H100's and the H200's)
  CHECK_FALSE(
      one_large_tile_per_block(66 * LARGE_TILE, FIT));  // 4 x 66 tiles = the blocks that fit
  CHECK(one_large_tile_per_block(66 * LARGE_TILE + 1, FIT));
  CHECK(one_large_tile_per_block(264 * LARGE_TILE, FIT));
  CHECK_FALSE(one_large_tile_per_block(264 * LARGE_TILE + 1, FIT));  // more tiles than blocks
  // Never for the single block's sizes, nor from SMALL_N_LIMIT on, however many blocks fit.
  CHECK_FALSE(one_large_tile_per_block(scan_pipelined::SINGLE_TILE_LIMIT, 2));
  CHECK(one_large_tile_per_block(scan_pipelined::SINGLE_TILE_LIMIT + 1, 2));
  CHECK(one_large_tile_per_block(scan_pipelined::SMALL_N_LIMIT - 1, 4096));
  CHECK_FALSE(one_large_tile_per_block(scan_pipelined::SMALL_N_LIMIT, 4096));
}

GPU_TEST_CASE(
    "scan_pipelined's default scans at the edges of its band of one large tile per block") {
  using namespace scan_pipelined;
  constexpr std::int64_t LARGE_TILE = default_shape::TILE_ELEMENTS;
  const int fit = resident_blocks<default_shape, MIDDLE_STAGES, DEFAULT_WINDOW, false, float>();
  CAPTURE(fit);
  if (fit == 0) {  // the portable path: no band
    MESSAGE("the pipeline does not run here (", path_here(), "): no band to check");
    return;
  }
  const std::int64_t first = std::int64_t(fit / 4) * LARGE_TILE + 1;  // the band's first size
  const std::int64_t last = std::int64_t(fit) * LARGE_TILE;           // and its last
  REQUIRE(!one_large_tile_per_block(first - 1, fit));
  REQUIRE(one_large_tile_per_block(first + LARGE_TILE - 1, fit));
  REQUIRE(one_large_tile_per_block(last, fit));
  REQUIRE(!one_large_tile_per_block(last + 1, fit));
  common::testing::check_scan_sizes(
      pipelined, {first - 1, first, first + 3, first + LARGE_TILE - 1, last - 1, last, last + 1});
}

GPU_TEST_CASE(
    "scan_pipelined scans a last tile of any length: 1 to 5 elements or 3 to 1 short of whole") {
  using scan_pipelined::SMALL_N_LIMIT;
  constexpr std::int64_t SMALL_TILE = scan_pipelined::small_n_shape::TILE_ELEMENTS;
  constexpr std::int64_t LARGE_TILE = scan_pipelined::default_shape::TILE_ELEMENTS;
  std::vector<std::int64_t> sizes;
  for (std::int64_t r = 1; r <= 5; ++r) sizes.push_back(2 * SMALL_TILE + r);  // 0 or 4 staged
  for (std::int64_t r = 1; r <= 3; ++r) sizes.push_back(3 * SMALL_TILE - r);
  for (std::int64_t r : {1, 3, 5}) sizes.push_back(SMALL_N_LIMIT + r);  // the large tiles
  sizes.push_back(SMALL_N_LIMIT + LARGE_TILE - 1);
  common::testing::check_scan_sizes(pipelined, sizes);
}

GPU_TEST_CASE("scan_pipelined scans correctly with its other shapes and stage counts and windows") {
  for (std::size_t i = 1; i < variants.size(); ++i) {
    CAPTURE(variants[i].name);
    if (!variants[i].runs_here()) {
      MESSAGE(variants[i].name, ": does not run here (", scan_pipelined::path_here(), ")");
      continue;
    }
    common::testing::check_scan_sizes(variants[i], common::testing::tile_edge_sizes());
  }
}

GPU_TEST_CASE("a pipelined configuration that does not run here says so and writes nothing") {
  using namespace scan_pipelined;
  if (runs_here<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW>()) {
    MESSAGE("the pipeline runs here: nothing to refuse");
    return;
  }
  const std::int64_t n = 100000;
  common::device_buffer<float> d_in(n), d_out(n);
  common::device_buffer<unsigned char> d_workspace(workspace_bytes<default_shape>(n));
  d_out.poison();
  CHECK(launch<float>(d_in.data(), n, d_out.data(), d_workspace.data()) == cudaErrorNotSupported);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<float> got = d_out.download();
  const std::vector<unsigned char> poison(n * sizeof(float), common::poison_byte<float>());
  CHECK(std::memcmp(got.data(), poison.data(), poison.size()) == 0);
}

GPU_TEST_CASE("scan_pipelined ignores whatever its workspace held before the launch") {
  common::testing::check_scan_ignores_workspace(pipelined);
}

GPU_TEST_CASE(
    "scan_pipelined survives 200 launches in a row on one workspace (checked at the end)") {
  common::testing::check_scan_back_to_back(pipelined);
}

GPU_TEST_CASE("scan_pipelined loads arrays not 16-byte aligned without bulk copies") {
  for (const std::int64_t offset : {1, 2, 3})
    common::testing::check_scan_offset(pipelined, (std::int64_t(1) << 24) + 5, offset);
  common::testing::check_scan_offset(pipelined, (std::int64_t(1) << 20) + 7, 1);
  common::testing::check_scan_offset(pipelined, 4096 * 3, 3);
  common::testing::check_scan_offset(pipelined, 4096 * 300, 2);
  common::testing::check_scan_offset(pipelined, 4000, 1);  // the single block
}

GPU_TEST_CASE("scan_pipelined scans in place") {
  common::testing::check_scan_in_place(pipelined, (std::int64_t(1) << 22) + 5);
  common::testing::check_scan_in_place(pipelined, std::int64_t(1) << 24);
  common::testing::check_scan_in_place(pipelined, 4093);  // the single block
}

GPU_TEST_CASE("scan_pipelined scans n > 2^31 int32 elements exclusive and inclusive") {
  common::testing::check_scan_past_2_31(pipelined);
}

// The portable path (scan_lookback's kernel), run on purpose: on a GPU with the pipeline it is
// taken only where the pipeline does not run, so these cases check it wherever the tests run.
GPU_TEST_CASE("scan_pipelined's portable path scans int32 and float at every size") {
  const common::scan_variant portable = scan_pipelined::portable_variant();
  common::testing::check_scan_sizes(
      portable,
      common::testing::scan_sizes(scan_pipelined::portable_shape::BLOCK_THREADS,
                                  scan_pipelined::portable_shape::TILE_ELEMENTS, common::MAX_N));
  common::testing::check_scan_in_place(portable, (std::int64_t(1) << 22) + 5);
  for (const std::int64_t offset : {1, 2, 3})
    common::testing::check_scan_offset(portable, (std::int64_t(1) << 20) + 7, offset);
  common::testing::check_scan_back_to_back(portable);
}

HOST_TEST_CASE("scan_pipelined's launches refuse overlapping or misaligned or null arguments") {
  using scan_pipelined::check_arguments;
  // Made-up addresses: the checks run before any CUDA call.
  auto* base = reinterpret_cast<float*>(std::uintptr_t(1) << 32);
  void* workspace = base + (1 << 20);
  CHECK(check_arguments<float>(base, 1000, base, workspace, 64) == cudaSuccess);  // in place
  CHECK(check_arguments<float>(base, 1000, base + 1000, workspace, 64) == cudaSuccess);
  CHECK(check_arguments<float>(base, 1000, base + 1, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base + 1, 1000, base, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 1000, base + 999, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 1000, base + 2000, base + 999, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 1000, base + 2000, base + 2999, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, -1, base, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 0, nullptr, nullptr, 0) == cudaSuccess);  // nothing to do
  CHECK(check_arguments<float>(nullptr, 10, base, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 10, base + 100, nullptr, 64) == cudaErrorInvalidValue);
  const auto* odd = reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) + 2);
  CHECK(check_arguments<float>(odd, 10, base + 100, workspace, 64) == cudaErrorInvalidValue);
  CHECK(check_arguments<float>(base, 10, base + 100, static_cast<char*>(workspace) + 4, 64) ==
        cudaErrorInvalidValue);
  // Every launch function checks them first.
  CHECK(scan_pipelined::launch_by_size<float>(base, 1000, base + 1, workspace) ==
        cudaErrorInvalidValue);
  CHECK(scan_pipelined::launch_portable<float>(base, 1000, base + 1, workspace) ==
        cudaErrorInvalidValue);
  CHECK(scan_pipelined::launch<float>(base, 1000, base + 1, workspace) == cudaErrorInvalidValue);
}

GPU_TEST_CASE("scan_pipelined refuses an output that overlaps its input and leaves it untouched") {
  const std::int64_t n = (std::int64_t(1) << 20) + 3;
  common::device_buffer<std::int32_t> d_data(n + 1);
  common::device_buffer<unsigned char> d_workspace(scan_pipelined::workspace_bytes_by_size(n));
  d_data.poison();
  CHECK(scan_pipelined::launch_by_size<std::int32_t>(d_data.data(), n, d_data.data() + 1,
                                                     d_workspace.data()) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t x : d_data.download()) REQUIRE(x == std::int32_t(0xABABABAB));
}

namespace {

// Two scans (the step's and, through `launch`, a second one) on two non-blocking streams, queued
// back to back with no synchronization between them; both results checked.
template <class Launch>
void check_two_streams(Launch launch, std::int64_t n) {
  const std::vector<std::int32_t> a = common::scan_input<std::int32_t>(std::size_t(n), 31),
                                  b = common::scan_input<std::int32_t>(std::size_t(n), 32);
  const std::size_t workspace = scan_pipelined::workspace_bytes_by_size(n);
  common::device_buffer<std::int32_t> d_a(n), d_b(n), d_out_a(n), d_out_b(n);
  common::device_buffer<unsigned char> d_workspace_a(workspace), d_workspace_b(workspace);
  d_a.upload(a);
  d_b.upload(b);
  d_out_a.poison();
  d_out_b.poison();
  cudaStream_t first = nullptr, second = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  for (int round = 0; round < 5; ++round) {
    CHECK(launch(d_a.data(), n, d_out_a.data(), d_workspace_a.data(), first) == cudaSuccess);
    CHECK(launch(d_b.data(), n, d_out_b.data(), d_workspace_b.data(), second) == cudaSuccess);
  }
  CUDA_CHECK(cudaStreamSynchronize(first));
  CUDA_CHECK(cudaStreamSynchronize(second));
  CUDA_CHECK(cudaStreamDestroy(first));
  CUDA_CHECK(cudaStreamDestroy(second));
  const std::vector<std::int32_t> got_a = d_out_a.download(), got_b = d_out_b.download();
  const common::check_result ra =
      common::check_scan("first stream", a.data(), got_a.data(), a.size(), false);
  const common::check_result rb =
      common::check_scan("second stream", b.data(), got_b.data(), b.size(), false);
  INFO("n=", n, " first stream: ", common::describe(ra), "; second stream: ", common::describe(rb));
  CHECK(ra.ok());
  CHECK(rb.ok());
}

}  // namespace

GPU_TEST_CASE("scan_pipelined scans on two streams at once") {
  for (const std::int64_t n :
       {std::int64_t(4000), (std::int64_t(1) << 20) + 3, (std::int64_t(1) << 24) + 5}) {
    check_two_streams(scan_pipelined::launch_by_size<std::int32_t, false>, n);
    check_two_streams(scan_pipelined::launch_portable<std::int32_t, false>, n);
  }
}

GPU_TEST_CASE("scan_pipelined scans again after a device reset") {
  // The pipeline's shared-memory opt-in lives in the context: after a reset the launch must set it
  // again (its cache is per device and context), or the launch fails.
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    for (const std::int64_t n : {(std::int64_t(1) << 20) + 3, (std::int64_t(1) << 24) + 5}) {
      const common::check_result r =
          common::testing::run_scan_once<float>(pipelined.exclusive_float, pipelined, n, 41, false);
      INFO("n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
    CUDA_CHECK(cudaDeviceReset());
  }
}
