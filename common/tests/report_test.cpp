#include <algorithm>
#include "common/report.hpp"
#include "common/testing.hpp"

namespace {
common::result_row sample() {
  common::result_row r;
  r.part = "intro";
  r.step = "increment";
  r.variant = "block=64";
  r.type = "float";
  r.n = 1 << 28;
  r.bytes = 2.0 * (1 << 28) * 4;
  r.time = common::summarize({0.8, 0.7, 0.9});
  r.copy_gbps = 3000;
  r.read_gbps = 3200;
  r.ok = true;
  common::finish_row(r);
  return r;
}

int count(const std::string& s, char c) { return int(std::count(s.begin(), s.end(), c)); }
}  // namespace

HOST_TEST_CASE("CSV rows have the header's columns and percentages of the yardsticks") {
  const auto r = sample();
  CHECK(r.gbps == doctest::Approx(2684.35456));
  const std::string row = common::to_csv(r);
  CHECK(count(row, ',') == count(common::csv_header(), ','));
  CHECK(row ==
        "intro,increment,block=64,float,268435456,0,0,2147483648,3,0.800000,0.700000,0.900000,"
        "2684.4,3000.0,3200.0,89.5,83.9,,0.0,0.0,ok");
}

HOST_TEST_CASE("CSV fields cannot break the format") {
  auto r = sample();
  r.variant = "a,b\"c";
  CHECK(count(common::to_csv(r), ',') == count(common::csv_header(), ','));
}

HOST_TEST_CASE("JSON and human lines carry the same numbers") {
  auto r = sample();
  r.ok = false;
  const std::string json = common::to_json(r);
  CHECK(json.find("\"gbps\":2684.4") != std::string::npos);
  CHECK(json.find("\"check\":\"WRONG\"") != std::string::npos);
  CHECK(json.front() == '{');
  CHECK(json.back() == '}');
  const std::string human = common::to_human(r);
  CHECK(human.find("2684.4") != std::string::npos);
  CHECK(human.find("89.5") != std::string::npos);
  CHECK(human.find("WRONG") != std::string::npos);
}

HOST_TEST_CASE("show_bytes uses powers of 1000") {
  CHECK(common::show_bytes(512) == "512 B");
  CHECK(common::show_bytes(1073741824.0) == "1.07 GB");
  CHECK(common::show_bytes(50331648.0) == "50.3 MB");
}
