// Host tests of Part I's shared pieces: references, checks, and the multi-pass driver (run with a
#include <algorithm>
#include <functional>
// host "pass" that sums in host memory, so its bookkeeping is tested without a GPU).
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "common/reduction/reduction.cuh"
#include "common/reduction/reference.hpp"
#include "common/testing.hpp"

HOST_TEST_CASE("int32 reference wraps modulo 2^32 like the GPU adder") {
  CHECK(common::reference_sum(std::vector<std::int32_t>{1, 2, 3, -10}) == -4);
  CHECK(common::reference_sum(std::vector<std::int32_t>{}) == 0);
  const std::int32_t max = std::numeric_limits<std::int32_t>::max();
  CHECK(common::reference_sum(std::vector<std::int32_t>{max, 1}) ==
        std::numeric_limits<std::int32_t>::min());
}

HOST_TEST_CASE("float reference is in double and carries the magnitudes") {
  const auto r = common::reference_sum(std::vector<float>{1.5f, -2.0f, 0.25f});
  CHECK(r.sum == -0.25);
  CHECK(r.sum_abs == 3.75);
  CHECK(r.n == 3);
  CHECK(common::check_sum("s", -0.25f, r).ok());
  CHECK_FALSE(common::check_sum("s", 0.25f, r).ok());
  CHECK_FALSE(common::check_sum("s", std::numeric_limits<float>::quiet_NaN(), r).ok());
}

HOST_TEST_CASE("inputs are seeded and in their documented ranges") {
  const auto ints = common::reduction_input_int32(10000, 3);
  CHECK(*std::min_element(ints.begin(), ints.end()) == -100);
  CHECK(*std::max_element(ints.begin(), ints.end()) == 100);
  const auto floats = common::reduction_input_float(10000, 3);
  CHECK(*std::min_element(floats.begin(), floats.end()) >= -1.0f);
  CHECK(*std::max_element(floats.begin(), floats.end()) < 2.0f);
  CHECK(floats == common::reduction_input_float(10000, 3));
}

namespace {
// A host stand-in for a kernel pass: block b sums in[b*per_block, (b+1)*per_block).
struct host_pass {
  int per_block;
  int passes = 0;
  void operator()(const long* in, int count, long* out, int blocks) {
    ++passes;
    for (int b = 0; b < blocks; ++b) {
      long sum = 0;
      for (int i = b * per_block; i < std::min(count, (b + 1) * per_block); ++i) sum += in[i];
      out[b] = sum;
    }
  }
};
}  // namespace

HOST_TEST_CASE("reduce_in_passes reaches one value through ping-pong passes at any n") {
  for (const int per_block : {2, 3, 512}) {
    auto blocks_for = [per_block](int count) { return (count + per_block - 1) / per_block; };
    for (const int n : {1, 2, 3, 7, 512, 513, 100000, 262147}) {
      std::vector<long> in(n);
      std::iota(in.begin(), in.end(), 1);
      std::vector<long> workspace(common::passes_workspace_elements(n, blocks_for), -1);
      long out = -1;
      host_pass pass{per_block};
      common::reduce_in_passes(in.data(), n, &out, workspace.data(), blocks_for, std::ref(pass));
      CAPTURE(per_block);
      CAPTURE(n);
      CHECK(out == long(n) * (n + 1) / 2);
      int expected_passes = 1;
      for (int c = n; c > per_block; c = blocks_for(c)) ++expected_passes;
      CHECK(pass.passes == expected_passes);
    }
  }
  CHECK(common::passes_workspace_elements(0, [](int c) { return c; }) == 0);
  CHECK(common::passes_workspace_elements(1000, [](int c) { return (c + 9) / 10; }) == 100 + 10);
}
