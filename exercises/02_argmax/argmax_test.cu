// Exercise 02, argmax: tests (shared by the skeleton and the solution). Host: the reference and
// its rules. GPU: every input kind at edge sizes, the maximum at each end, misaligned starts, and
// an index past 2^31.
#include <argmax.cuh>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "argmax_problem.hpp"
#include "common/device_buffer.cuh"
#include "common/testing.hpp"

namespace {

constexpr float NAN_VALUE = std::numeric_limits<float>::quiet_NaN();
constexpr float INF = std::numeric_limits<float>::infinity();

// The GPU's answer for in[offset, offset + n): d_in starts `offset` floats into its allocation,
// so offsets 1 to 3 start off a 16-byte boundary.
argmax_problem::result gpu_argmax(const std::vector<float>& in, std::int64_t n,
                                  std::int64_t offset = 0) {
  std::vector<float> padded(std::size_t(offset), 1e30f);    // bigger than any element: must be
  padded.insert(padded.end(), in.begin(), in.begin() + n);  // left alone
  padded.push_back(2e30f);                                  // past the end: must not be read
  common::device_buffer<float> d_in(padded.size());
  d_in.upload(padded);
  common::device_buffer<unsigned char> d_workspace(argmax::workspace_bytes(n));
  common::device_buffer<argmax_problem::result> d_result(1);
  d_result.poison();
  argmax::launch(d_in.data() + offset, n, d_workspace.data(), d_result.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_result.download().at(0);
}

void check_gpu(const std::vector<float>& in, std::int64_t offset = 0) {
  const std::int64_t n = std::int64_t(in.size());
  const argmax_problem::result want = argmax_problem::argmax_cpu(in.data(), n);
  const argmax_problem::result got = gpu_argmax(in, n, offset);
  CAPTURE(n);
  CAPTURE(offset);
  CAPTURE(got.index);
  CAPTURE(got.value);
  CAPTURE(want.index);
  CHECK(argmax_problem::same_result(got, want, in.data()));
}

}  // namespace

HOST_TEST_CASE("argmax_cpu follows the rules: NaN skipped and ties to the smallest index") {
  using argmax_problem::argmax_cpu;
  using argmax_problem::NO_INDEX;
  const std::vector<float> ties{1.0f, 3.0f, NAN_VALUE, 3.0f, -INF};
  CHECK(argmax_cpu(ties.data(), 5).index == 1);
  const std::vector<float> nan_first{NAN_VALUE, -5.0f, -2.0f, NAN_VALUE};
  CHECK(argmax_cpu(nan_first.data(), 4).index == 2);
  const std::vector<float> neg_inf{NAN_VALUE, -INF, -INF};
  CHECK(argmax_cpu(neg_inf.data(), 3).index == 1);
  CHECK(argmax_cpu(neg_inf.data(), 3).value == -INF);
  const std::vector<float> all_nan{NAN_VALUE, NAN_VALUE};
  CHECK(argmax_cpu(all_nan.data(), 2).index == NO_INDEX);
  CHECK(std::isnan(argmax_cpu(all_nan.data(), 2).value));
  CHECK(argmax_cpu(nullptr, 0).index == NO_INDEX);
  const std::vector<float> zeros{-1.0f, -0.0f, 0.0f};  // -0 and +0 tie: the first one wins
  const argmax_problem::result zero = argmax_cpu(zeros.data(), 3);
  CHECK(zero.index == 1);
  CHECK(std::signbit(zero.value));
  CHECK(argmax_problem::same_result(zero, zero, zeros.data()));
  CHECK_FALSE(argmax_problem::same_result({0.0f, 1}, zero, zeros.data()));  // +0 is not -0 here
  const std::vector<float> inf{INF, 1.0f, INF};
  CHECK(argmax_cpu(inf.data(), 3).index == 0);
}

HOST_TEST_CASE("argmax_cpu on several host cores equals one sequential scan") {
  const std::int64_t n = (std::int64_t(1) << 22) + 5;
  for (const std::string& kind : argmax_problem::input_kind_names()) {
    CAPTURE(kind);
    const std::vector<float> in =
        argmax_problem::make_input(argmax_problem::parse_input_kind(kind), n, 99);
    std::int64_t best = argmax_problem::NO_INDEX;
    for (std::int64_t i = 0; i < n; ++i)
      if (!std::isnan(in[i]) && (best == argmax_problem::NO_INDEX || in[i] > in[best])) best = i;
    CHECK(argmax_problem::argmax_cpu(in.data(), n).index == best);
  }
  const std::vector<float> last =
      argmax_problem::make_input(argmax_problem::input_kind::last, 7, 1);
  CHECK(argmax_problem::argmax_cpu(last.data(), 7).index == 6);
}

GPU_TEST_CASE("argmax matches the CPU for every input kind at edge sizes") {
  std::uint64_t seed = 1;
  for (const std::string& kind : argmax_problem::input_kind_names()) {
    for (const std::int64_t n : common::testing::edge_sizes(1024)) {
      CAPTURE(kind);
      check_gpu(argmax_problem::make_input(argmax_problem::parse_input_kind(kind), n, seed++));
    }
  }
}

GPU_TEST_CASE("argmax finds a maximum at the first and at the last element at any size") {
  for (const std::int64_t n : {1, 2, 3, 4, 5, 7, 8, 31, 33, 1023, 1025, 4097, 100003, 1000003}) {
    std::vector<float> in(std::size_t(n), -7.0f);
    in.back() = 7.0f;
    check_gpu(in);
    in.back() = -7.0f;
    in.front() = 7.0f;
    check_gpu(in);
    in.front() = -INF;  // every other element -7
    check_gpu(in);
  }
}

GPU_TEST_CASE("argmax reads from any float offset and nothing outside the array") {
  for (const std::int64_t offset : {1, 2, 3}) {
    for (const std::int64_t n : {1, 2, 3, 4, 5, 6, 7, 64, 1001, 100003}) {
      std::vector<float> in =
          argmax_problem::make_input(argmax_problem::input_kind::ties, n, std::uint64_t(n));
      check_gpu(in, offset);
      in.back() = 5.0f;
      check_gpu(in, offset);
    }
  }
}

GPU_TEST_CASE("argmax returns indices past 2^31 (64-bit indices)") {
  const std::int64_t n = (std::int64_t(1) << 31) + 77;
  const std::size_t workspace = argmax::workspace_bytes(n);
  if (!common::testing::device_holds(std::size_t(n) * sizeof(float) + workspace,
                                     "argmax of 2^31 + 77 floats"))
    return;
  // All zeros (one memset, no host copy); then 1.0 at two places past 2^31: the first one wins.
  common::device_buffer<float> d_in(static_cast<std::size_t>(n));
  CUDA_CHECK(cudaMemset(d_in.data(), 0, d_in.bytes()));
  const float one = 1.0f;
  const std::int64_t first = (std::int64_t(1) << 31) + 3, second = n - 1;
  CUDA_CHECK(cudaMemcpy(d_in.data() + second, &one, sizeof(float), cudaMemcpyHostToDevice));
  common::device_buffer<unsigned char> d_workspace(workspace);
  common::device_buffer<argmax_problem::result> d_result(1);
  argmax::launch(d_in.data(), n, d_workspace.data(), d_result.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(d_result.download().at(0).index == second);
  CUDA_CHECK(cudaMemcpy(d_in.data() + first, &one, sizeof(float), cudaMemcpyHostToDevice));
  argmax::launch(d_in.data(), n, d_workspace.data(), d_result.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const argmax_problem::result got = d_result.download().at(0);
  CHECK(got.index == first);
  CHECK(got.value == 1.0f);
}

GPU_TEST_CASE("argmax with n = 0 writes no index and leaves no error") {
  common::device_buffer<argmax_problem::result> d_result(1);
  d_result.poison();
  argmax::launch(nullptr, 0, nullptr, d_result.data());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  const argmax_problem::result got = d_result.download().at(0);
  CHECK(got.index == argmax_problem::NO_INDEX);
  CHECK(std::isnan(got.value));
}
