// scan_cpu: tests (host only): the slides' example, every edge size against the reference check,
// int32 wrap-around, in place.
#include <cstdint>
#include <limits>
#include <vector>

#include "common/scan/program.cuh"
#include "common/scan/reference.hpp"
#include "common/testing.hpp"
#include "scan_cpu.cuh"

HOST_TEST_CASE("scan_cpu gives the slides' exclusive scan of 3 1 7 0 4 1 6 3") {
  const std::vector<std::int32_t> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<std::int32_t> out(in.size());
  scan_cpu::scan(in.data(), out.data(), std::int64_t(in.size()));
  CHECK(out == std::vector<std::int32_t>{0, 3, 4, 11, 11, 15, 16, 22});
}

HOST_TEST_CASE("scan_cpu scans int32 and float at every edge size") {
  for (const std::int64_t n : {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 100003, 1 << 22}) {
    const auto ints = common::scan_input<std::int32_t>(std::size_t(n), 3);
    const auto floats = common::scan_input<float>(std::size_t(n), 3);
    std::vector<std::int32_t> out_ints(ints.size());
    std::vector<float> out_floats(floats.size());
    scan_cpu::scan(ints.data(), out_ints.data(), n);
    scan_cpu::scan(floats.data(), out_floats.data(), n);
    CAPTURE(n);
    CHECK(common::check_scan("int32", ints.data(), out_ints.data(), std::size_t(n), false).ok());
    CHECK(
        common::check_scan("float", floats.data(), out_floats.data(), std::size_t(n), false).ok());
  }
}

HOST_TEST_CASE("scan_cpu wraps int32 modulo 2^32 and may scan in place") {
  const std::int32_t max = std::numeric_limits<std::int32_t>::max();
  std::vector<std::int32_t> a = {max, 1, 5};
  scan_cpu::scan(a.data(), a.data(), 3);
  CHECK(a == std::vector<std::int32_t>{0, max, std::numeric_limits<std::int32_t>::min()});
}
