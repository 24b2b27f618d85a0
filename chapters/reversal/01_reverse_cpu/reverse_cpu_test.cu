// reverse_cpu: tests. Host only: the loop equals the reference at every test size.
#include <vector>

#include "common/reversal/program.cuh"
#include "common/reversal/reference.hpp"
#include "common/testing.hpp"
#include "reverse_cpu.cuh"

HOST_TEST_CASE("reverse_cpu equals the reference at every test size") {
  for (const std::int64_t n : common::reversal_test_sizes(256)) {
    CAPTURE(n);
    const auto in = common::reversal_input<std::int32_t>(std::size_t(n), 3 + n);
    std::vector<std::int32_t> want(in.size()), got(in.size(), -1);
    common::reverse_reference(in.data(), want.data(), n);
    reverse_cpu::reverse(in.data(), got.data(), n);
    CHECK(got == want);
  }
}
