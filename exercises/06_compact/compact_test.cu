// Exercise 06, compact: tests (shared by the skeleton and the solution). Host: the reference. GPU:
// edge sizes around tiles of any size, thresholds that keep all, none, half and a few, inputs
// whose kept elements sit at the ends, repeated launches on the same scratch, and guard elements
// after the output that must stay untouched.
#include <compact.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "compact_problem.hpp"

namespace {

constexpr std::int32_t INT_LOWEST = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t INT_HIGHEST = std::numeric_limits<std::int32_t>::max();

struct gpu_result {
  unsigned long long count = 0;
  std::vector<std::int32_t> kept;  // the first min(count, n) outputs
  std::int64_t guards_changed = 0;
};

// Runs compact::launch() `launches` times on the same scratch (poisoned first) and returns the
// last result; the output has GUARD sentinels after its n elements.
gpu_result run_gpu(const std::vector<std::int32_t>& in, std::int32_t threshold, int launches = 1) {
  constexpr std::int64_t GUARD = 37;
  constexpr std::int32_t SENTINEL = -12345;
  const auto n = std::int64_t(in.size());
  common::device_buffer<std::int32_t> d_in(n), d_out(n + GUARD);
  common::device_buffer<unsigned long long> d_count(1);
  common::device_buffer<unsigned char> d_scratch(compact::scratch_bytes(n));
  d_in.upload(in);
  std::vector<std::int32_t> out(n + GUARD, SENTINEL);
  d_out.upload(out);
  d_count.poison();
  d_scratch.poison();
  for (int l = 0; l < launches; ++l)
    compact::launch(d_in.data(), n, threshold, d_out.data(), d_count.data(), d_scratch.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  gpu_result r;
  r.count = d_count.download()[0];
  d_out.download(out);
  r.kept.assign(out.begin(), out.begin() + std::min<std::int64_t>(n, std::int64_t(r.count)));
  for (std::int64_t i = n; i < n + GUARD; ++i) r.guards_changed += out[i] != SENTINEL;
  return r;
}

void check_against_reference(const std::vector<std::int32_t>& in, std::int32_t threshold,
                             int launches = 1) {
  const std::vector<std::int32_t> want = compact_problem::compact_reference(in, threshold);
  const gpu_result got = run_gpu(in, threshold, launches);
  CHECK(got.count == want.size());
  CHECK(got.kept == want);
  CHECK(got.guards_changed == 0);
}

}  // namespace

HOST_TEST_CASE("compact_cpu keeps the elements strictly above the threshold in order") {
  const std::vector<std::int32_t> in{5, -3, 7, 7, 0, 8, INT_HIGHEST, INT_LOWEST};
  std::vector<std::int32_t> out(in.size());
  CHECK(compact_problem::compact_cpu(in.data(), std::int64_t(in.size()), 5, out.data()) == 4);
  out.resize(4);
  CHECK(out == std::vector<std::int32_t>{7, 7, 8, INT_HIGHEST});
  CHECK(compact_problem::compact_reference(in, INT_HIGHEST).empty());
  CHECK(compact_problem::compact_reference(in, INT_LOWEST).size() == in.size() - 1);
}

HOST_TEST_CASE("compact_reference on all cores equals the sequential loop") {
  const std::vector<std::int32_t> in = compact_problem::make_input((1 << 22) + 5, 99);
  std::vector<std::int32_t> want(in.size());
  want.resize(std::size_t(
      compact_problem::compact_cpu(in.data(), std::int64_t(in.size()), 12345, want.data())));
  CHECK(compact_problem::compact_reference(in, 12345) == want);
  CHECK(want.size() > in.size() / 3);  // about half of a uniform input
}

GPU_TEST_CASE("compact matches the CPU at edge sizes with thresholds keeping half all none few") {
  // 2^32 / 100 below the top keeps about 1% (a sparse output); INT_LOWEST keeps all but INT_MIN.
  constexpr std::int32_t FEW = INT_HIGHEST - 42949673;
  for (const std::int32_t threshold : {0, INT_LOWEST, INT_HIGHEST, FEW}) {
    for (const std::int64_t n : common::testing::edge_sizes(4096)) {
      CAPTURE(threshold);
      CAPTURE(n);
      check_against_reference(compact_problem::make_input(n, 5 + n), threshold);
    }
  }
}

GPU_TEST_CASE("compact keeps the first only the last and alternate elements") {
  for (const std::int64_t n : {1, 2, 255, 256, 257, 4095, 4096, 4097, 12289, 1000003}) {
    CAPTURE(n);
    std::vector<std::int32_t> in(n, 10);  // 10 is not above the threshold 10
    in.back() = 11;                       // only the last one: the last, partial tile
    check_against_reference(in, 10);
    in.back() = 10;
    in.front() = 11;  // only the first one
    check_against_reference(in, 10);
    for (std::int64_t i = 0; i < n; ++i) in[i] = std::int32_t(i % 2 == 0 ? i + 100 : -i);
    check_against_reference(in, 0);  // every other element, each a distinct value
  }
}

GPU_TEST_CASE("compact gives the same answer when launched again on the same scratch") {
  for (const std::int64_t n : {4097, 100003, (1 << 22) + 1}) {
    CAPTURE(n);
    check_against_reference(compact_problem::make_input(n, 17), 1000, 3);
  }
}

GPU_TEST_CASE("compact of n = 0 writes a count of 0 and leaves no error") {
  common::device_buffer<unsigned long long> d_count(1);
  d_count.poison();
  common::device_buffer<unsigned char> d_scratch(compact::scratch_bytes(0));
  compact::launch(nullptr, 0, 0, nullptr, d_count.data(), d_scratch.data());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(d_count.download()[0] == 0);
}
