// scan_lookback: tests. GPU: every size of the issue, exclusive and inclusive, both types, for the
// default shape and the sweep's others; a workspace poisoned with 0xFF (every flag "PREFIX") and a
// workspace left as the previous launch left it (every flag set); many launches in a row, each
// checked; unaligned arrays; in place; and n > 2^31, where tile offsets and indices need 64 bits.
#include <cstdint>
#include <vector>

#include "common/program.cuh"
#include "common/scan/testing.cuh"
#include "scan_lookback.cuh"

namespace {

const common::scan_variant lookback =
    scan_lookback::shape_variant<128, 8, scan_lookback::DEFAULT_WINDOW>();

}  // namespace

GPU_TEST_CASE("scan_lookback scans int32 and float exclusive and inclusive at every size") {
  common::testing::check_scan_sizes(
      lookback, common::testing::scan_sizes(scan_lookback::BLOCK_THREADS,
                                            scan_lookback::TILE_ELEMENTS, common::MAX_N));
}

GPU_TEST_CASE("scan_lookback's other tile shapes and windows scan correctly") {
  using scan_lookback::shape_variant;
  for (const common::scan_variant& v :
       {shape_variant<256, 4, 32>(), shape_variant<256, 4, 256>(), shape_variant<128, 8, 256>(),
        shape_variant<128, 8, 128>(), shape_variant<256, 8, 256>(), shape_variant<256, 6, 256>(),
        shape_variant<128, 4, 256>()}) {
    common::testing::check_scan_sizes(v, {0,
                                          1,
                                          33,
                                          2047,
                                          2048,
                                          2049,
                                          3071,
                                          3072,
                                          3073,
                                          4095,
                                          4096,
                                          4097,
                                          6143,
                                          6144,
                                          6145,
                                          8191,
                                          8192,
                                          8193,
                                          (std::int64_t(1) << 20) + 1,
                                          std::int64_t(1) << 22,
                                          1000003,
                                          (std::int64_t(1) << 24) + 7});
  }
}

GPU_TEST_CASE("scan_lookback ignores whatever its workspace held before the launch") {
  // 0xFF: every flag reads as neither INVALID nor a real status; a launch that did not zero the
  // workspace would add garbage. Then the same workspace again, as the previous launch left it
  // (every flag PREFIX): a launch that did not reset the counter would scan tiles out of range.
  const std::int64_t n = (std::int64_t(1) << 22) + 3;
  for (const unsigned char fill : {0xFF, 0x00, 0xAB}) {
    const common::check_result a = common::testing::run_scan_once<std::int32_t>(
        lookback.exclusive_int32, lookback, n, 7, false, fill);
    INFO("fill=", int(fill), ": ", common::describe(a));
    CHECK(a.ok());
  }
  const std::vector<std::int32_t> input = common::scan_input<std::int32_t>(std::size_t(n), 9);
  common::device_buffer<std::int32_t> d_in(n), d_out(n);
  common::device_buffer<unsigned char> d_workspace(lookback.workspace_bytes(n));
  d_in.upload(input);
  d_workspace.poison();
  for (int launch = 0; launch < 20; ++launch) {
    d_out.poison();
    for (const bool inclusive : {false, true}) {
      (inclusive ? lookback.inclusive_int32 : lookback.exclusive_int32)(
          d_in.data(), n, d_out.data(), d_workspace.data());
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<std::int32_t> got = d_out.download();
      const common::check_result r =
          common::check_scan("repeated", input.data(), got.data(), std::size_t(n), inclusive);
      INFO("launch ", launch, inclusive ? " inclusive: " : " exclusive: ", common::describe(r));
      CHECK(r.ok());
    }
  }
}

GPU_TEST_CASE(
    "scan_lookback survives 200 launches in a row on one workspace (checked at the end)") {
  // Back to back, no synchronization between launches: a launch whose memset or counter raced
  // with the previous kernel would show in the last output.
  const std::int64_t n = (std::int64_t(1) << 20) + 12345;
  const std::vector<float> input = common::scan_input<float>(std::size_t(n), 13);
  common::device_buffer<float> d_in(n), d_out(n);
  common::device_buffer<unsigned char> d_workspace(lookback.workspace_bytes(n));
  d_in.upload(input);
  d_out.poison();
  for (int launch = 0; launch < 200; ++launch)
    lookback.inclusive_float(d_in.data(), n, d_out.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = d_out.download();
  const common::check_result r =
      common::check_scan("after 200 launches", input.data(), got.data(), std::size_t(n), true);
  INFO(common::describe(r));
  CHECK(r.ok());
}

GPU_TEST_CASE("scan_lookback takes the scalar path for arrays not 16-byte aligned") {
  common::testing::check_scan_offset(lookback, (std::int64_t(1) << 20) + 7, 1);
  common::testing::check_scan_offset(lookback, 4096 * 3, 3);
}

GPU_TEST_CASE("scan_lookback scans in place") {
  common::testing::check_scan_in_place(lookback, (std::int64_t(1) << 22) + 5);
}

GPU_TEST_CASE("scan_lookback scans n > 2^31 int32 elements exclusive and inclusive") {
  const std::int64_t n = (std::int64_t(1) << 31) + 4099;  // 8.6 GB in, 8.6 GB out
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < std::size_t(n) * 8 + (std::size_t(1) << 30)) {
    MESSAGE("skipped: the GPU has ", free_bytes, " bytes free, fewer than 2 x n x 4 bytes");
    return;
  }
  for (const bool inclusive : {false, true}) {
    const common::check_result r = common::testing::run_scan_once<std::int32_t>(
        inclusive ? lookback.inclusive_int32 : lookback.exclusive_int32, lookback, n, 21,
        inclusive);
    INFO("scan: ", inclusive ? "inclusive " : "exclusive ", common::describe(r));
    CHECK(r.ok());
  }
}
