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

}  // namespace common::testing
