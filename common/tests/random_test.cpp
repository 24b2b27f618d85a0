#include <algorithm>
#include <set>

#include "common/random.hpp"
#include "common/testing.hpp"

HOST_TEST_CASE("random floats are seeded and in range and prefix-stable and varied") {
  const auto a = common::random_floats(5000, 42, -1.0f, 2.0f);
  const auto b = common::random_floats(5000, 42, -1.0f, 2.0f);
  const auto c = common::random_floats(5000, 43, -1.0f, 2.0f);
  const auto prefix = common::random_floats(100, 42, -1.0f, 2.0f);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
  CHECK(*std::min_element(a.begin(), a.end()) >= -1.0f);
  CHECK(*std::max_element(a.begin(), a.end()) < 2.0f);
  CHECK(std::set<float>(a.begin(), a.end()).size() > 4900);
  std::size_t differ = 0;  // the element function makes the same array, element by element
  for (std::size_t i = 0; i < a.size(); ++i)
    differ += common::random_float_at(42, i, -1.0f, 2.0f) != a[i];
  CHECK(differ == 0);
  CHECK(common::random_floats(0, 1, 0.0f, 1.0f).empty());
  CHECK_THROWS(common::random_floats(1, 1, 1.0f, 1.0f));
}

HOST_TEST_CASE("random ints cover the inclusive range and do not depend on the thread split") {
  const auto a = common::random_ints(10000, 7, -3, 3);
  CHECK(std::set<int>(a.begin(), a.end()) == std::set<int>{-3, -2, -1, 0, 1, 2, 3});
  // Above 2^20 elements the fill runs on several threads; the values must not depend on that.
  const auto big = common::random_ints((1 << 22) + 5, 7, -3, 3);
  CHECK(std::equal(a.begin(), a.end(), big.begin()));
  CHECK(big.back() == common::random_ints((1 << 22) + 5, 7, -3, 3).back());
  const auto extremes = common::random_ints(1000, 1, INT32_MIN, INT32_MAX);
  CHECK(std::set<int>(extremes.begin(), extremes.end()).size() > 990);
}
