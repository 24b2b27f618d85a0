// transpose_cpu: tests. Host only: both loops equal the harness's reference at every test shape
// (the CPU step has no GPU code; its program still needs the GPU machine for the contract).
#include <vector>

#include "common/random.hpp"
#include "common/testing.hpp"
#include "common/transpose/program.cuh"
#include "transpose_cpu.cuh"

HOST_TEST_CASE("naive and blocked CPU transposes equal the reference at every test shape") {
  for (const auto& shape : common::test_shapes()) {
    const std::int64_t rows = shape.first, cols = shape.second;
    if (rows * cols > 4096 * 4096) continue;  // the 16384^2 case belongs to the GPU tests
    CAPTURE(rows);
    CAPTURE(cols);
    const std::vector<float> in = common::random_floats(rows * cols, 11, -5.0f, 5.0f);
    std::vector<float> want(in.size()), naive(in.size()), blocked(in.size());
    common::transpose_reference(in.data(), want.data(), rows, cols);
    transpose_cpu::naive(in.data(), naive.data(), rows, cols);
    transpose_cpu::blocked(in.data(), blocked.data(), rows, cols);
    CHECK(naive == want);
    CHECK(blocked == want);
  }
}
