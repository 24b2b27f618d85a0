// Exercise 07, segmented_scan: tests (shared by the skeleton and the solution). Host: the
// reference. GPU: edge sizes around tiles of any size with no heads, all heads and heads of
// several densities; heads placed at the first and last elements of tiles of several sizes;
// repeated launches on the same scratch; guard elements after the output that must stay untouched.
#include <segmented_scan.cuh>

#include <cstdint>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/testing.hpp"
#include "segmented_scan_problem.hpp"

namespace {

// Runs segmented_scan::launch() `launches` times on the same (first poisoned) scratch and
// returns the output; the GUARD sentinels after it must be unchanged.
std::vector<std::int32_t> run_gpu(const std::vector<std::int32_t>& values,
                                  const std::vector<std::uint8_t>& heads, int launches = 1) {
  constexpr std::int64_t GUARD = 37;
  constexpr std::int32_t SENTINEL = -12345;
  const auto n = std::int64_t(values.size());
  common::device_buffer<std::int32_t> d_values(n), d_out(n + GUARD);
  common::device_buffer<std::uint8_t> d_heads(n);
  common::device_buffer<unsigned char> d_scratch(segmented_scan::scratch_bytes(n));
  d_values.upload(values);
  d_heads.upload(heads);
  std::vector<std::int32_t> out(n + GUARD, SENTINEL);
  d_out.upload(out);
  d_scratch.poison();
  for (int l = 0; l < launches; ++l)
    segmented_scan::launch(d_values.data(), d_heads.data(), n, d_out.data(), d_scratch.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  d_out.download(out);
  std::int64_t guards_changed = 0;
  for (std::int64_t i = n; i < n + GUARD; ++i) guards_changed += out[i] != SENTINEL;
  CHECK(guards_changed == 0);
  out.resize(n);
  return out;
}

void check_against_reference(const std::vector<std::int32_t>& values,
                             const std::vector<std::uint8_t>& heads, int launches = 1) {
  const std::vector<std::int32_t> want =
      segmented_scan_problem::segmented_scan_reference(values, heads);
  const std::vector<std::int32_t> got = run_gpu(values, heads, launches);
  std::int64_t wrong = 0, first_wrong = -1;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i] && first_wrong < 0) first_wrong = std::int64_t(i);
    wrong += got[i] != want[i];
  }
  CAPTURE(first_wrong);
  CHECK(wrong == 0);
}

}  // namespace

HOST_TEST_CASE("segmented_scan_cpu restarts at every head and wraps around") {
  const std::vector<std::int32_t> values{1, 2, 3, 4, 5, 0x7FFFFFFF, 1};
  const std::vector<std::uint8_t> heads{0, 0, 1, 0, 7, 0, 0};  // any nonzero byte is a head
  std::vector<std::int32_t> out(values.size());
  segmented_scan_problem::segmented_scan_cpu(values.data(), heads.data(), 7, out.data());
  CHECK(out == std::vector<std::int32_t>{1, 3, 3, 7, 5, std::int32_t(0x80000004u),
                                         std::int32_t(0x80000005u)});
}

HOST_TEST_CASE("segmented_scan_reference on all cores equals the sequential loop") {
  const std::int64_t n = (std::int64_t(1) << 23) + 5;
  const std::vector<std::int32_t> values = segmented_scan_problem::make_values(n, 3);
  for (const std::int64_t mean : {0, 1, 7, 1000, 1 << 22, 1 << 30}) {
    CAPTURE(mean);
    const std::vector<std::uint8_t> heads = segmented_scan_problem::make_heads(n, 4, mean);
    std::vector<std::int32_t> want(n);
    segmented_scan_problem::segmented_scan_cpu(values.data(), heads.data(), n, want.data());
    CHECK(segmented_scan_problem::segmented_scan_reference(values, heads) == want);
  }
  std::int64_t heads_seen = 0;
  for (const std::uint8_t h : segmented_scan_problem::make_heads(n, 4, 1000)) heads_seen += h;
  CHECK(heads_seen > n / 2000);  // about n / 1000
  CHECK(heads_seen < n / 500);
}

GPU_TEST_CASE("segmented_scan matches the CPU at edge sizes with no all and random heads") {
  for (const std::int64_t mean : {0, 1, 3, 1000, 4096, 1 << 20}) {
    for (const std::int64_t n : common::testing::edge_sizes(4096)) {
      CAPTURE(mean);
      CAPTURE(n);
      check_against_reference(segmented_scan_problem::make_values(n, 5 + n),
                              segmented_scan_problem::make_heads(n, 6 + n, mean));
    }
  }
}

GPU_TEST_CASE("segmented_scan with heads at the first or last element of every tile") {
  // Tiles of 32 (a warp), 256, 512, 1024, 2048, 4096 and 8192 elements: whichever a solution
  // uses, its tiles then start with a head, end with one, or hold one in the middle.
  const std::int64_t n = 5 * 8192 + 77;
  const std::vector<std::int32_t> values = segmented_scan_problem::make_values(n, 11);
  for (const std::int64_t tile : {32, 256, 512, 1024, 2048, 4096, 8192}) {
    for (const std::int64_t at : {std::int64_t(0), tile - 1, tile / 2}) {
      CAPTURE(tile);
      CAPTURE(at);
      std::vector<std::uint8_t> heads(n, 0);
      for (std::int64_t i = at; i < n; i += tile) heads[i] = 1;
      check_against_reference(values, heads);
    }
  }
  std::vector<std::uint8_t> last_only(n, 0);
  last_only[n - 1] = 255;  // one head, on the last element of the last partial tile
  check_against_reference(values, last_only);
}

GPU_TEST_CASE("segmented_scan gives the same answer when launched again on the same scratch") {
  for (const std::int64_t n : {4097, 100003, (1 << 22) + 1}) {
    CAPTURE(n);
    check_against_reference(segmented_scan_problem::make_values(n, 17),
                            segmented_scan_problem::make_heads(n, 18, 5000), 3);
  }
}

GPU_TEST_CASE("segmented_scan with n = 0 launches nothing and leaves no error") {
  common::device_buffer<unsigned char> d_scratch(segmented_scan::scratch_bytes(0));
  segmented_scan::launch(nullptr, nullptr, 0, nullptr, d_scratch.data());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
