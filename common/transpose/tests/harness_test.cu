// Host tests of the 2-D additions to the program contract (program::add_matrix_size,
// context::resolve_matrix) and of the transpose harness's references and shape limits. The
// context is built on a made-up device, so no GPU is needed.
#include <sstream>
#include <string>
#include <vector>

#include "common/program.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "common/transpose/program.cuh"

namespace {

common::device_info fake_device(std::size_t free_bytes) {
  common::device_info d;
  d.name = "test device";
  d.free_bytes = free_bytes;
  d.total_bytes = free_bytes;
  d.l2_bytes = std::size_t(50) << 20;
  return d;
}

// Parses args into a program with --rows/--cols and resolves its matrix on a device with `free`.
common::matrix_size resolve(std::vector<const char*> args, std::size_t free_bytes,
                            common::matrix_size quick = common::QUICK_MATRIX) {
  common::program p("transpose", "test_step", "a test");
  p.add_matrix_size(quick);
  args.insert(args.begin(), "test_step");
  std::ostringstream out;
  p.args().parse(int(args.size()), args.data(), out);
  common::context ctx(p, fake_device(free_bytes));
  return ctx.resolve_matrix(8, 4);
}

constexpr std::size_t GB = 1000000000;

}  // namespace

HOST_TEST_CASE("resolve_matrix defaults to 16384 x 16384 and shrinks to fit a small device") {
  const auto big = resolve({}, 80 * GB);
  CHECK(big.rows == 16384);
  CHECK(big.cols == 16384);
  const auto small = resolve({}, 1 * GB);  // 2^28 * 8 bytes do not fit in 0.9 GB
  CHECK(small.elements() * 8 <= 0.9 * GB);
  CHECK(small.rows >= small.cols);  // the longer side is halved first: cols, then rows
}

HOST_TEST_CASE("resolve_matrix takes --quick and one side alone as a square") {
  const auto quick = resolve({"--quick"}, 80 * GB);
  CHECK(quick.rows == 257);
  CHECK(quick.cols == 131);
  const auto tiles = resolve({"--quick"}, 80 * GB, {256, 128});
  CHECK(tiles.rows == 256);
  const auto square = resolve({"--rows", "1000"}, 80 * GB);
  CHECK(square.cols == 1000);
  const auto wide = resolve({"--rows", "1", "--cols", "2^20"}, 80 * GB);
  CHECK(wide.rows == 1);
  CHECK(wide.cols == 1 << 20);
  const auto empty = resolve({"--rows", "0", "--cols", "5"}, 80 * GB);
  CHECK(empty.elements() == 0);
}

HOST_TEST_CASE("resolve_matrix rejects --n and sizes beyond the device or 32-bit indices") {
  CHECK_THROWS_AS(resolve({"--n", "100"}, 80 * GB), common::usage_error);
  CHECK_THROWS_WITH_AS(resolve({"--rows", "2^16", "--cols", "2^16"}, 80 * GB),
                       doctest::Contains("32-bit ints"), common::usage_error);
  CHECK_THROWS_WITH_AS(resolve({"--rows", "2^15", "--cols", "2^15"}, 1 * GB),
                       doctest::Contains("device memory"), common::usage_error);
}

HOST_TEST_CASE("why_unsupported explains tile multiples int32 indices and the grid limit") {
  using common::matrix_result;
  const common::matrix_limits classic{};
  CHECK(common::why_unsupported(classic, matrix_result::transpose, 31, 33).empty());
  CHECK(common::why_unsupported(classic, matrix_result::tiles_moved, 31, 33).find("multiples") !=
        std::string::npos);
  CHECK(common::why_unsupported(classic, matrix_result::tiles_moved, 64, 96).empty());
  CHECK(common::why_unsupported(classic, matrix_result::transpose, 65536, 65536).find("32-bit") !=
        std::string::npos);
  // 65535 blocks of 32 rows in y: 2097120 rows fit, one more does not.
  CHECK(common::why_unsupported(classic, matrix_result::transpose, 2097120, 1).empty());
  CHECK(common::why_unsupported(classic, matrix_result::transpose, 2097121, 1).find("rows") !=
        std::string::npos);
  const common::matrix_limits by_cols{8, true};
  CHECK(common::why_unsupported(by_cols, matrix_result::transpose, 1, 524281).find("cols") !=
        std::string::npos);
  const common::matrix_limits any{0, false, 64, false};
  CHECK(common::why_unsupported(any, matrix_result::transpose, 5000000, 1).empty());
}

HOST_TEST_CASE("expected_output of a copy is the input and of a transpose its transpose") {
  const std::vector<float> in = common::random_floats(6 * 7, 2, -1.0f, 1.0f);
  CHECK(common::expected_output(common::matrix_result::copy, in, 6, 7, 32) == in);
  const auto t = common::expected_output(common::matrix_result::transpose, in, 6, 7, 32);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 7; ++c) CHECK(t[c * 6 + r] == in[r * 7 + c]);
}
