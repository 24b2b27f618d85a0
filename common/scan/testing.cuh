// The GPU tests every Part III step runs: both types, every size of the issue that the step
// supports, two seeds at the small sizes, poisoned output and workspace; and the sizes themselves.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/scan/program.cuh"
#include "common/scan/reference.hpp"
#include "common/testing.hpp"

namespace common::testing {

// The issue's sizes up to max_n: 0, 1, 2, 31, 32, 33, block-1, block, block+1, tile-1, tile,
// tile+1, tile^2 +- 1, 2^k +- 1 for k = 10, 16, 20, 2^22, 1000003, and 2^28 + 3 (block: the
// step's threads per block; tile: the elements one block scans).
inline std::vector<std::int64_t> scan_sizes(std::int64_t block, std::int64_t tile,
                                            std::int64_t max_n) {
  const std::int64_t big = (std::int64_t(1) << 28) + 3;
  std::vector<std::int64_t> all = {0,
                                   1,
                                   2,
                                   31,
                                   32,
                                   33,
                                   block - 1,
                                   block,
                                   block + 1,
                                   tile - 1,
                                   tile,
                                   tile + 1,
                                   tile * tile - 1,
                                   tile * tile + 1,
                                   1000003,
                                   std::int64_t(1) << 22,
                                   big};
  for (const int k : {10, 16, 20}) {
    all.push_back((std::int64_t(1) << k) - 1);
    all.push_back((std::int64_t(1) << k) + 1);
  }
  std::vector<std::int64_t> sizes;
  for (const std::int64_t n : all)
    if (n >= 0 && n <= max_n && n <= big) sizes.push_back(n);
  return sizes;
}

// Sizes around the tiles of any shape the sweeps use (2048 ... 8192 elements per tile), and a
// few larger ones, for the tests of a step's other variants.
inline std::vector<std::int64_t> tile_edge_sizes() {
  return {0,
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
          (std::int64_t(1) << 24) + 7};
}

// One launch on seeded input into a poisoned output, with the workspace filled with `fill`
// bytes (0xAB / 0xFF: the harness's poisons).
template <class T>
check_result run_scan_once(const scan_launch<T>& launch, const scan_variant& v, std::int64_t n,
                           std::uint64_t seed, bool inclusive, unsigned char fill = 0xAB) {
  const std::vector<T> input = scan_input<T>(std::size_t(n), seed);
  device_buffer<T> d_in(n), d_out(n);
  device_buffer<unsigned char> d_workspace(v.workspace_bytes ? v.workspace_bytes(n) : 0);
  d_in.upload(input);
  d_out.poison();
  if (d_workspace.bytes() > 0)
    CUDA_CHECK(cudaMemset(d_workspace.data(), fill, d_workspace.bytes()));
  launch(d_in.data(), n, d_out.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<T> got = d_out.download();
  return check_scan("output", input.data(), got.data(), std::size_t(n), inclusive);
}

// Both types at every size, exclusive (and inclusive too where the variant offers it).
inline void check_scan_sizes(const scan_variant& v, const std::vector<std::int64_t>& sizes) {
  for (const std::int64_t n : sizes) {
    const int seeds = n < (std::int64_t(1) << 22) ? 2 : 1;
    for (int s = 0; s < seeds; ++s) {
      for (const bool inclusive : {false, true}) {
        if (inclusive && !v.inclusive_int32) continue;
        const check_result a = run_scan_once<std::int32_t>(
            inclusive ? v.inclusive_int32 : v.exclusive_int32, v, n, 11 + s, inclusive);
        const check_result b = run_scan_once<float>(
            inclusive ? v.inclusive_float : v.exclusive_float, v, n, 11 + s, inclusive);
        INFO(v.name, " n=", n, " seed=", 11 + s, inclusive ? " inclusive" : " exclusive");
        INFO("int32 ", describe(a), "; float ", describe(b));
        CHECK(a.ok());
        CHECK(b.ok());
      }
    }
  }
}

// The int32 exclusive scan of n elements in place (d_in == d_out), which every multi-pass step
// allows: each tile is read before it is written, by the same block.
inline void check_scan_in_place(const scan_variant& v, std::int64_t n) {
  const std::vector<std::int32_t> input = scan_input<std::int32_t>(std::size_t(n), 3);
  device_buffer<std::int32_t> d_data(n);
  device_buffer<unsigned char> d_workspace(v.workspace_bytes ? v.workspace_bytes(n) : 0);
  d_data.upload(input);
  d_workspace.poison();
  v.exclusive_int32(d_data.data(), n, d_data.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::int32_t> got = d_data.download();
  const check_result r = check_scan("in place", input.data(), got.data(), std::size_t(n), false);
  INFO(v.name, " n=", n, ": ", describe(r));
  CHECK(r.ok());
}

// The int32 exclusive scan of n elements whose input and output start `offset` elements into
// their allocations (not 16-byte aligned for an odd offset): a step with vector loads must notice.
inline void check_scan_offset(const scan_variant& v, std::int64_t n, std::int64_t offset) {
  const std::vector<std::int32_t> input = scan_input<std::int32_t>(std::size_t(n), 5);
  device_buffer<std::int32_t> d_in(n + offset), d_out(n + offset);
  device_buffer<unsigned char> d_workspace(v.workspace_bytes ? v.workspace_bytes(n) : 0);
  CUDA_CHECK(cudaMemcpy(d_in.data() + offset, input.data(), std::size_t(n) * sizeof(std::int32_t),
                        cudaMemcpyHostToDevice));
  d_out.poison();
  d_workspace.poison();
  v.exclusive_int32(d_in.data() + offset, n, d_out.data() + offset, d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::int32_t> all = d_out.download();
  const check_result r =
      check_scan("offset output", input.data(), all.data() + offset, std::size_t(n), false);
  INFO(v.name, " n=", n, " offset=", offset, ": ", describe(r));
  CHECK(r.ok());
}

// The stress tests of a single-pass scan with a workspace of tile counter and status words:
// whatever the workspace held before (0xFF: every flag reads as neither INVALID nor a real status;
// a launch that did not zero it would add garbage), the workspace as the previous launch left it
// (every flag PREFIX: a launch that did not reset the counter would scan tiles out of range),
// exclusive and inclusive 20 times each, each checked.
inline void check_scan_ignores_workspace(const scan_variant& v) {
  const std::int64_t n = (std::int64_t(1) << 22) + 3;
  for (const unsigned char fill : {0xFF, 0x00, 0xAB}) {
    const check_result a = run_scan_once<std::int32_t>(v.exclusive_int32, v, n, 7, false, fill);
    INFO(v.name, " fill=", int(fill), ": ", describe(a));
    CHECK(a.ok());
  }
  const std::vector<std::int32_t> input = scan_input<std::int32_t>(std::size_t(n), 9);
  device_buffer<std::int32_t> d_in(n), d_out(n);
  device_buffer<unsigned char> d_workspace(v.workspace_bytes(n));
  d_in.upload(input);
  d_workspace.poison();
  for (int launch = 0; launch < 20; ++launch) {
    d_out.poison();
    for (const bool inclusive : {false, true}) {
      (inclusive ? v.inclusive_int32 : v.exclusive_int32)(d_in.data(), n, d_out.data(),
                                                          d_workspace.data());
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<std::int32_t> got = d_out.download();
      const check_result r =
          check_scan("repeated", input.data(), got.data(), std::size_t(n), inclusive);
      INFO(v.name, " launch ", launch, inclusive ? " inclusive: " : " exclusive: ", describe(r));
      CHECK(r.ok());
    }
  }
}

// 200 launches back to back on one workspace, no synchronization between them, checked at the
// end: a launch whose memset or counter raced with the previous kernel would show.
inline void check_scan_back_to_back(const scan_variant& v) {
  const std::int64_t n = (std::int64_t(1) << 20) + 12345;
  const std::vector<float> input = scan_input<float>(std::size_t(n), 13);
  device_buffer<float> d_in(n), d_out(n);
  device_buffer<unsigned char> d_workspace(v.workspace_bytes(n));
  d_in.upload(input);
  d_out.poison();
  for (int launch = 0; launch < 200; ++launch)
    v.inclusive_float(d_in.data(), n, d_out.data(), d_workspace.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = d_out.download();
  const check_result r =
      check_scan("after 200 launches", input.data(), got.data(), std::size_t(n), true);
  INFO(v.name, ": ", describe(r));
  CHECK(r.ok());
}

// n > 2^31 int32 elements (8.6 GB in, 8.6 GB out), exclusive and inclusive: tile offsets and
// indices need 64 bits. Skipped (CTest: Skipped) on a GPU without the memory.
inline void check_scan_past_2_31(const scan_variant& v) {
  const std::int64_t n = (std::int64_t(1) << 31) + 4099;
  if (!device_holds(std::size_t(n) * 8, "a scan of 2^31 + 4099 int32 (in and out)")) return;
  for (const bool inclusive : {false, true}) {
    const check_result r = run_scan_once<std::int32_t>(
        inclusive ? v.inclusive_int32 : v.exclusive_int32, v, n, 21, inclusive);
    INFO(v.name, inclusive ? " inclusive " : " exclusive ", describe(r));
    CHECK(r.ok());
  }
}

}  // namespace common::testing
