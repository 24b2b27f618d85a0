// multigpu_test: the final steps as reusable code on a machine with two GPUs (label multigpu).
// Each final step's launch keeps its per-device facts (grid limits, resident blocks, shared-memory
// opt-ins) per device and context; these cases show that a launch on device 1 never uses what was
// learned on device 0: launches alternate 0, 1, 0, 1 at sizes that take different paths, then
// both devices run at once from two host threads. Every result is checked against the CPU.
// With fewer than two devices every case exits 77 (CTest: Skipped), as it does without a GPU.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "chapters/reduction/13_reduce11/reduce11.cuh"
#include "chapters/reversal/05_reverse_fast/reverse_fast.cuh"
#include "chapters/reversal/06_reverse_in_place/reverse_in_place.cuh"
#include "chapters/scan/08_scan_pipelined/scan_pipelined.cuh"
#include "chapters/sieve/10_sieve_segmented/sieve_segmented.cuh"
#include "chapters/transpose/18_transpose_any_shape/transpose_any_shape.cuh"
#include "common/device_buffer.cuh"
#include "common/exit_codes.hpp"
#include "common/random.hpp"
#include "common/reduction/reference.hpp"
#include "common/scan/reference.hpp"
#include "common/sieve/reference.hpp"
#include "common/testing.hpp"

namespace {

// Exits 77 (CTest: Skipped) unless two CUDA devices are visible.
void skip_without_two_devices() {
  common::testing::skip_without_gpu();
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) {
    std::fprintf(stderr, "multigpu: %d CUDA device(s) visible, 2 needed: skipped, exit %d\n",
                 devices, common::EXIT_NO_DEVICE);
    std::exit(common::EXIT_NO_DEVICE);
  }
}

// One check of one step at one size on the current device, on `stream`: returns "" when right,
// else what went wrong (the cases collect them: doctest's CHECK is not thread-safe).
using job = std::function<std::string(cudaStream_t)>;

std::string failed(const std::string& step, std::int64_t n, const std::string& what) {
  return step + " n=" + std::to_string(n) + ": " + what;
}

std::string sum_job(std::int64_t n, cudaStream_t stream) {
  const std::vector<std::int32_t> input = common::reduction_input<std::int32_t>(std::size_t(n), 5);
  std::size_t workspace = 0;
  if (reduce11::query_workspace_elements(n, workspace) != cudaSuccess)
    return failed("reduce11", n, "workspace query failed");
  common::device_buffer<std::int32_t> d_in{std::size_t(n)}, d_out{1},
      d_workspace{std::max<std::size_t>(1, workspace)};
  d_in.upload(input);
  d_out.poison();
  const cudaError_t e = reduce11::launch(d_in.data(), n, d_out.data(), d_workspace.data(), stream);
  if (e != cudaSuccess) return failed("reduce11", n, cudaGetErrorName(e));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto r = common::check_sum("sum", d_out.download()[0], common::reference_sum(input));
  return r.ok() ? "" : failed("reduce11", n, "wrong sum");
}

std::string scan_job(std::int64_t n, cudaStream_t stream) {
  const std::vector<std::int32_t> input = common::random_ints(std::size_t(n), 7, -100, 100);
  common::device_buffer<std::int32_t> d_in{std::size_t(n)}, d_out{std::size_t(n)};
  common::device_buffer<unsigned char> d_workspace{scan_pipelined::workspace_bytes_by_size(n)};
  d_in.upload(input);
  d_out.poison();
  const cudaError_t e = scan_pipelined::launch_by_size<std::int32_t>(
      d_in.data(), n, d_out.data(), d_workspace.data(), stream);
  if (e != cudaSuccess) return failed("scan_pipelined", n, cudaGetErrorName(e));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<std::int32_t> got = d_out.download();
  const auto r = common::check_scan("scan", input.data(), got.data(), std::size_t(n), false);
  return r.ok() ? "" : failed("scan_pipelined", n, "wrong scan");
}

std::string reverse_job(std::int64_t n, cudaStream_t stream) {
  const std::vector<std::int32_t> input = common::random_ints(std::size_t(n), 11, -1000, 1000);
  common::device_buffer<std::int32_t> d_in{std::size_t(n)}, d_out{std::size_t(n)},
      d_data{std::size_t(n)};
  d_in.upload(input);
  d_data.upload(input);
  d_out.poison();
  cudaError_t e = reverse_fast::launch(d_in.data(), d_out.data(), n, stream);
  if (e != cudaSuccess) return failed("reverse_fast", n, cudaGetErrorName(e));
  e = reverse_in_place::launch(d_data.data(), n, stream);
  if (e != cudaSuccess) return failed("reverse_in_place", n, cudaGetErrorName(e));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<std::int32_t> out = d_out.download(), data = d_data.download();
  for (std::int64_t i = 0; i < n; ++i) {
    if (out[std::size_t(i)] != input[std::size_t(n - 1 - i)])
      return failed("reverse_fast", n, "wrong at " + std::to_string(i));
    if (data[std::size_t(i)] != input[std::size_t(n - 1 - i)])
      return failed("reverse_in_place", n, "wrong at " + std::to_string(i));
  }
  return "";
}

std::string sieve_job(std::uint64_t lo, std::uint64_t hi, std::uint64_t want,
                      cudaStream_t stream) {
  sieve_segmented::counter counter(true, hi);
  counter.count_short_ranges_on_host(false);  // the GPU's kernels at every range
  std::uint64_t found = 0;
  const cudaError_t e = counter.count_on(lo, hi, found, stream);
  if (e != cudaSuccess) return failed("sieve_segmented", std::int64_t(hi), cudaGetErrorName(e));
  return found == want ? ""
                       : failed("sieve_segmented", std::int64_t(hi),
                                "counted " + std::to_string(found) + ", want " +
                                    std::to_string(want));
}

std::string transpose_job(std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const std::int64_t n = rows * cols;
  const std::vector<float> input = common::random_floats(std::size_t(n), 13, -1.0f, 1.0f);
  common::device_buffer<float> d_in{std::size_t(n)}, d_out{std::size_t(n)};
  d_in.upload(input);
  d_out.poison();
  const cudaError_t e = transpose_any_shape::launch(d_in.data(), d_out.data(), rows, cols, stream);
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (e != cudaSuccess) return "transpose_any_shape " + shape + ": " + cudaGetErrorName(e);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<float> out = d_out.download();
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      if (out[std::size_t(c * rows + r)] != input[std::size_t(r * cols + c)])
        return "transpose_any_shape " + shape + ": wrong at row " + std::to_string(r) +
               " col " + std::to_string(c);
  return "";
}

// Sizes on each step's different paths: reduce11's single block, cluster and grid; scan_pipelined's
// single block, middle band and large tiles; reverse_fast's element kernel and groups; the sieve's
// short and long ranges (counted on the GPU); transpose shapes on its several kernels.
std::vector<job> jobs() {
  std::vector<job> all;
  for (const std::int64_t n : {std::int64_t(5000), std::int64_t(reduce10::CLUSTER_ELEMENTS),
                               (std::int64_t(1) << 24) + 3})
    all.push_back([n](cudaStream_t s) { return sum_job(n, s); });
  for (const std::int64_t n : {std::int64_t(3000), (std::int64_t(1) << 20) + 1,
                               (std::int64_t(1) << 24) + 3})
    all.push_back([n](cudaStream_t s) { return scan_job(n, s); });
  for (const std::int64_t n : {std::int64_t(1000), (std::int64_t(1) << 24) + 3})
    all.push_back([n](cudaStream_t s) { return reverse_job(n, s); });
  all.push_back([](cudaStream_t s) { return sieve_job(0, 100000000, 5761455, s); });
  all.push_back([](cudaStream_t s) {
    return sieve_job(100000001, 1000000000, 50847534 - 5761455, s);
  });
  for (const auto& shape : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {4096, 4096}, {4097, 4099}, {300001, 30}, {30, 300001}, {1000, 1003}})
    all.push_back([shape](cudaStream_t s) { return transpose_job(shape.first, shape.second, s); });
  return all;
}

// Every job on `device`, on a stream of its own; the failures, each prefixed with the device.
std::vector<std::string> run_on(int device) {
  std::vector<std::string> failures;
  CUDA_CHECK(cudaSetDevice(device));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const job& j : jobs()) {
    const std::string what = j(stream);
    if (!what.empty()) failures.push_back("device " + std::to_string(device) + ": " + what);
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  return failures;
}

void check_none(const std::vector<std::string>& failures) {
  for (const std::string& f : failures) FAIL_CHECK(f);
  CHECK(failures.empty());
}

}  // namespace

TEST_CASE("every final step is right on device 0 then 1 then 0 and 1 again" *
          doctest::test_suite("multigpu")) {
  skip_without_two_devices();
  std::vector<std::string> failures;
  for (const int device : {0, 1, 0, 1, 1, 0})
    for (const std::string& f : run_on(device)) failures.push_back(f);
  check_none(failures);
}

TEST_CASE("every final step is right on both devices at once from two host threads" *
          doctest::test_suite("multigpu")) {
  skip_without_two_devices();
  std::vector<std::string> failures[2];
  for (int round = 0; round < 2; ++round) {
    std::thread first([&] {
      for (const std::string& f : run_on(0)) failures[0].push_back(f);
    });
    std::thread second([&] {
      for (const std::string& f : run_on(1)) failures[1].push_back(f);
    });
    first.join();
    second.join();
  }
  std::vector<std::string> all = failures[0];
  all.insert(all.end(), failures[1].begin(), failures[1].end());
  check_none(all);
}
