// The reversal harness: the CPU reference, the inputs, the test sizes (host), and the Thrust peer
// and the guard checks of the test helpers (GPU).
#include <algorithm>
#include <vector>

#include "common/reversal/peer_thrust.cuh"
#include "common/reversal/testing.cuh"

HOST_TEST_CASE("reverse_reference reverses and handles n = 0 and 1") {
  const std::vector<int> in{1, 2, 3, 4, 5};
  std::vector<int> out(5, 0);
  common::reverse_reference(in.data(), out.data(), 5);
  CHECK(out == std::vector<int>{5, 4, 3, 2, 1});
  common::reverse_reference(in.data(), out.data(), 1);
  CHECK(out[0] == 1);
  common::reverse_reference(in.data(), out.data(), 0);  // touches nothing
  CHECK(out[1] == 4);
}

HOST_TEST_CASE("reversal inputs are seeded and not palindromes") {
  for (const std::size_t n : {2, 3, 1000}) {
    const auto a = common::reversal_input<std::int32_t>(n, 7);
    CHECK(a == common::reversal_input<std::int32_t>(n, 7));
    CHECK(a != common::reversal_input<std::int32_t>(n, 8));
    std::vector<std::int32_t> r(a.rbegin(), a.rend());
    CHECK(r != a);  // a reversal that does nothing must fail
  }
  const auto f = common::reversal_input<float>(1000, 3);
  for (const float x : f) CHECK((x >= -1000.0f && x < 1000.0f));
  const auto w = common::reversal_input<std::int64_t>(1000, 3);
  bool high_bits = false;
  for (const std::int64_t x : w) high_bits = high_bits || (x >> 32) != 0;
  CHECK(high_bits);  // int64 elements use their upper half too
}

HOST_TEST_CASE("reversal test sizes hold the issue's edges") {
  const auto sizes = common::reversal_test_sizes(256);
  for (const std::int64_t n : {0, 1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1023, 1025, 65535,
                               65537, (1 << 20) - 1, (1 << 20) + 1, (1 << 24) + 7})
    CHECK(std::count(sizes.begin(), sizes.end(), n) == 1);
  CHECK(std::is_sorted(sizes.begin(), sizes.end()));
}

GPU_TEST_CASE("thrust peers reverse at odd sizes and offsets") {
  for (const std::int64_t n : {0, 1, 5, 257, 100003}) {
    CAPTURE(n);
    const auto r = common::testing::check_out_of_place<float>(
        [](const float* in, float* out, std::int64_t m) {
          common::thrust_reverse_copy(in, out, m);
        },
        n, 1, 1, 3);
    INFO(common::describe(r));
    CHECK(r.ok());
    const auto s = common::testing::check_in_place<std::int64_t>(
        [](std::int64_t* d, std::int64_t m) { common::thrust_reverse(d, m); }, n, 2, 1);
    INFO(common::describe(s));
    CHECK(s.ok());
  }
}

GPU_TEST_CASE("the guard check catches a launch that writes past the output") {
  const auto r = common::testing::check_out_of_place<std::int32_t>(
      [](const std::int32_t* in, std::int32_t* out, std::int64_t m) {
        common::thrust_reverse_copy(in, out + 1, m);  // one place too far
      },
      100, 3);
  CHECK_FALSE(r.ok());
}

GPU_TEST_CASE("the on-device check counts a wrong reversal") {
  // Thrust's in-place reverse is correct: 0 wrong; reversing only n - 1 elements is not.
  CHECK(common::testing::wrong_elements_on_device(
            {}, [](std::int32_t* d, std::int64_t m) { common::thrust_reverse(d, m); }, 100003, 5) ==
        0);
  CHECK(common::testing::wrong_elements_on_device(
            {}, [](std::int32_t* d, std::int64_t m) { common::thrust_reverse(d, m - 1); }, 100003,
            5) > 0);
}
