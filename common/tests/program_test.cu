// Tests of common/program (usage checked before the device probe, the defaults --help shows) and
// GPU tests of common/'s device side: buffers, timing, the L2 flush, the yardsticks.
#include <cmath>
#include <limits>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/device_info.cuh"
#include "common/exit_codes.hpp"
#include "common/program.cuh"
#include "common/testing.hpp"
#include "common/timing.cuh"
#include "common/yardsticks.cuh"

namespace {
__global__ void spin(float* out, int iterations) {
  float x = threadIdx.x;
  for (int i = 0; i < iterations; ++i) x = x * 0.999f + 1.0f;
  out[threadIdx.x] = x;
}
}  // namespace

namespace {
// program::run() on these arguments; body_ran says whether it got past the device probe.
int run_program(common::program& p, std::vector<const char*> args, bool& body_ran) {
  args.insert(args.begin(), "prog");
  body_ran = false;
  return p.run(int(args.size()), const_cast<char**>(args.data()), [&](common::context&) {
    body_ran = true;
    return common::EXIT_CORRECT;
  });
}
}  // namespace

// Exit 2 GPU or not: each case must be decided before the device probe (which exits 77 without a
// GPU), and never reach the body.
HOST_TEST_CASE("usage errors are reported before the device probe") {
  bool body_ran = true;
  common::program limited("part", "prog", "test");
  limited.limit_n(1000, "one block");
  CHECK(run_program(limited, {"--n", "1e3+1"}, body_ran) == common::EXIT_BAD_USAGE);
  CHECK_FALSE(body_ran);

  common::program checked("part", "prog", "test");
  int checks = 0;
  checked.add_usage_check([&] {
    ++checks;
    throw common::usage_error("a bad combination");
  });
  CHECK(run_program(checked, {}, body_ran) == common::EXIT_BAD_USAGE);
  CHECK(checks == 1);
  CHECK_FALSE(body_ran);

  common::program matrix("part", "prog", "test");
  matrix.add_matrix_size();
  CHECK(run_program(matrix, {"--n", "1000"}, body_ran) == common::EXIT_BAD_USAGE);
  matrix.limit_matrix(1000);
  CHECK(run_program(matrix, {"--rows", "100", "--cols", "11"}, body_ran) ==
        common::EXIT_BAD_USAGE);
  CHECK_FALSE(body_ran);
  CHECK(matrix.given_matrix().rows == 100);
  CHECK(matrix.given_matrix().cols == 11);
}

HOST_TEST_CASE("check_n_limit and check_matrix_limit say the step and its limit") {
  std::string message;
  try {
    common::check_n_limit("prog", 2000, 1000, "one block");
  } catch (const common::usage_error& e) {
    message = e.what();
  }
  CHECK(message == "--n 2000 is more than prog handles (at most 1000: one block)");
  CHECK_NOTHROW(common::check_n_limit("prog", 1000, 1000));
  message.clear();
  try {
    common::check_matrix_limit("prog", {65536, 65536}, common::MAX_N_INT32_INDEX);
  } catch (const common::usage_error& e) {
    message = e.what();
  }
  CHECK(message.find("65536 x 65536 is more than prog handles") != std::string::npos);
  CHECK(message.find("32-bit ints") != std::string::npos);
}

HOST_TEST_CASE("--help shows the defaults the program uses") {
  common::program p("part", "prog", "test");
  p.limit_n(1 << 20);
  const std::string help = p.args().help();
  CHECK(help.find("(default 2^20, the most this step takes") != std::string::npos);
  CHECK(help.find("small size (100003)") != std::string::npos);
  CHECK(help.find("timed repetitions, median reported (default 30)") != std::string::npos);
  common::program matrix("part", "prog", "test");
  matrix.add_matrix_size({96, 64});
  const std::string matrix_help = matrix.args().help();
  CHECK(matrix_help.find("--n ") == std::string::npos);  // refused: not a size of a 2-D part
  CHECK(matrix_help.find("small matrix (96 x 64)") != std::string::npos);
  CHECK(matrix_help.find("--rows N") != std::string::npos);
}

HOST_TEST_CASE("poison bytes are NaN for floats and a sentinel for integers") {
  CHECK(common::poison_byte<float>() == 0xFF);
  CHECK(common::poison_byte<int>() == 0xAB);
}

GPU_TEST_CASE("device_holds says yes to a MiB and no to more memory than any GPU has") {
  CHECK(common::testing::device_holds(std::size_t(1) << 20, "one MiB"));
  CHECK_FALSE(common::testing::device_holds(std::size_t(1) << 50, "a PiB"));
}

GPU_TEST_CASE("device_buffer uploads downloads poisons and moves") {
  common::device_buffer<float> a(5);
  a.upload({1, 2, 3, 4, 5});
  CHECK(a.download() == std::vector<float>{1, 2, 3, 4, 5});
  a.poison();
  for (float x : a.download()) CHECK(std::isnan(x));
  common::device_buffer<float> b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(b.size() == 5);
  CHECK_THROWS(b.upload({1, 2}));
  common::device_buffer<int> empty(0);
  CHECK(empty.download().empty());
  empty.poison();
}

GPU_TEST_CASE("device_buffer counts the bytes held now and at most") {
  const std::size_t before = common::device_buffer_bytes_now.load();
  {
    common::device_buffer<float> a(1000);
    common::device_buffer<double> b(10);
    CHECK(common::device_buffer_bytes_now.load() == before + 4080);
    common::device_buffer<float> moved = std::move(a);  // a move holds no more
    CHECK(common::device_buffer_bytes_now.load() == before + 4080);
  }
  CHECK(common::device_buffer_bytes_now.load() == before);
  CHECK(common::device_buffer_bytes_peak.load() >= before + 4080);
}

GPU_TEST_CASE("upload_generated writes every element through chunks of any size") {
  const std::size_t n = 1000;
  const auto make = [](std::size_t i) { return float(3 * i + 1); };
  for (const std::size_t chunk_bytes : {std::size_t(4), std::size_t(64), std::size_t(1) << 20}) {
    CAPTURE(chunk_bytes);
    common::device_buffer<float> d(n);
    d.poison();
    common::upload_generated(d.data(), n, make, chunk_bytes);
    const std::vector<float> got = d.download();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += got[i] != make(i);
    CHECK(wrong == 0);
  }
  common::upload_generated(static_cast<float*>(nullptr), 0, make);  // nothing to do
}

GPU_TEST_CASE("compare_device_elements checks every chunk and reports as a host check does") {
  // 1000 elements in chunks of 64 bytes (16 floats), the last one short: wrong elements at both
  // ends, on either side of a chunk's edge and in the last chunk.
  const std::size_t n = 1000;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = float(i);
  const std::vector<std::size_t> wrong_at{0, 15, 16, 31, 500, 999};
  for (const std::size_t i : wrong_at) host[i] = -1;
  common::device_buffer<float> d(n);
  d.upload(host);
  const auto wrong = [](std::size_t i, float got) { return got != float(i); };
  const auto describe = [](std::size_t i, float got) {
    return common::mismatch{i, common::show_value(got), common::show_value(float(i))};
  };
  for (const std::size_t chunk_bytes :
       {std::size_t(64), std::size_t(4) * n, std::size_t(1) << 20}) {
    CAPTURE(chunk_bytes);
    const common::check_result r =
        common::compare_device_elements("out", d.data(), n, wrong, describe, chunk_bytes);
    const common::check_result on_host = common::compare_elements(
        "out", n, [&](std::size_t i) { return wrong(i, host[i]); },
        [&](std::size_t i) { return describe(i, host[i]); });
    CHECK(r.checked == n);
    CHECK(r.mismatches == wrong_at.size());
    CHECK(common::describe(r) == common::describe(on_host));
  }
  const common::check_result none =
      common::compare_device_elements("out", d.data(), 0, wrong, describe);
  CHECK(none.ok());
  CHECK(none.checked == 0);
}

GPU_TEST_CASE("compare_device_exact reports what compare_exact reports and a NaN never matches") {
  const std::size_t n = 1001;
  std::vector<double> want(n), got(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = got[i] = double(i) * 0.5 - 7;
  // Wrong at both ends and on either side of the first edge between chunks of 72 bytes (9
  // doubles); the last one a NaN, the poison.
  got[0] = 1e300;
  got[8] = -0.25;
  got[9] = 3;
  got[n - 1] = std::numeric_limits<double>::quiet_NaN();
  common::device_buffer<double> d(n);
  d.upload(got);
  for (const std::size_t chunk_bytes : {std::size_t(72), std::size_t(1) << 20}) {
    CAPTURE(chunk_bytes);
    const common::check_result r =
        common::compare_device_exact("out", d.data(), want.data(), n, chunk_bytes);
    CHECK(r.checked == n);
    CHECK(r.mismatches == 4);
    CHECK(common::describe(r) == common::describe(common::compare_exact("out", got, want)));
  }
  d.upload(want);
  CHECK(common::compare_device_exact("out", d.data(), want.data(), n, 72).ok());
  CHECK(common::compare_device_exact("out", d.data(), want.data(), 0).checked == 0);
}

GPU_TEST_CASE("time_repeated takes the requested samples and longer work takes longer") {
  common::l2_flusher flusher(common::query_device().l2_bytes);
  common::device_buffer<float> out(32);
  common::timing_options options{2, 21};
  int prepared = 0;
  const auto short_run = common::time_repeated(options, flusher, [&] { ++prepared; }, [&] {
    spin<<<1, 32>>>(out.data(), 1000);
  });
  const auto long_run = common::time_repeated(options, flusher, [] {}, [&] {
    spin<<<1, 32>>>(out.data(), 1000000);
  });
  CHECK(prepared == 23);
  CHECK(short_run.reps == 21);
  CHECK(short_run.min_ms <= short_run.median_ms);
  CHECK(short_run.median_ms <= short_run.max_ms);
  CHECK(long_run.median_ms > 10 * short_run.median_ms);
}

GPU_TEST_CASE("yardsticks at 256 MB are positive and below the theoretical bandwidth") {
  const auto device = common::query_device();
  common::l2_flusher flusher(device.l2_bytes);
  const auto y = common::measure_yardsticks(std::size_t(1) << 28, {2, 20}, flusher);
  CHECK(y.copy_gbps > 0.3 * device.theoretical_gbps);
  CHECK(y.read_gbps > 0.3 * device.theoretical_gbps);
  CHECK(y.copy_gbps < 1.05 * device.theoretical_gbps);
  CHECK(y.read_gbps < 1.05 * device.theoretical_gbps);
  CHECK(common::measure_yardsticks(0, {1, 1}, flusher).copy_gbps == 0);
}
