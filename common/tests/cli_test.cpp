#include <sstream>

#include "common/cli.hpp"
#include "common/testing.hpp"

using common::cli;
using common::parse_int_expression;
using common::usage_error;

namespace {
bool parse(cli& c, std::vector<const char*> args) {
  args.insert(args.begin(), "prog");
  std::ostringstream out;
  return c.parse(int(args.size()), args.data(), out);
}
}  // namespace

HOST_TEST_CASE("integer expressions") {
  CHECK(parse_int_expression("0") == 0);
  CHECK(parse_int_expression("1000") == 1000);
  CHECK(parse_int_expression("2^28") == (1 << 28));
  CHECK(parse_int_expression("2^28+3") == (1 << 28) + 3);
  CHECK(parse_int_expression("2^20-1") == (1 << 20) - 1);
  CHECK(parse_int_expression("4096*4096") == 4096 * 4096);
  CHECK(parse_int_expression("3*2^10+1") == 3 * 1024 + 1);
  CHECK(parse_int_expression("-5") == -5);
  CHECK(parse_int_expression(" 7 ") == 7);
  CHECK(parse_int_expression("2^62") == (std::int64_t(1) << 62));
  CHECK_THROWS_AS(parse_int_expression("abc"), usage_error);
  CHECK_THROWS_AS(parse_int_expression(""), usage_error);
  CHECK_THROWS_AS(parse_int_expression("12x"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1.5"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("2^"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("2^63"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("99999999999999999999"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("2^40*2^40"), usage_error);
}

HOST_TEST_CASE("options take values and flags and choices and keep defaults") {
  cli c("prog", "test");
  std::int64_t n = 7;
  int block = 64;
  bool quick = false;
  std::string format = "human";
  c.add_int("n", n, 0, 1000, "elements");
  c.add_int("block", block, 1, 1024, "threads");
  c.add_flag("quick", quick, "fast");
  c.add_choice("format", format, {"human", "csv"}, "output");
  CHECK(parse(c, {"--n", "2^9", "--block=128", "--quick", "--format", "csv"}));
  CHECK(n == 512);
  CHECK(block == 128);
  CHECK(quick);
  CHECK(format == "csv");
  CHECK(c.was_set("n"));

  cli d("prog", "test");
  std::int64_t m = 7;
  d.add_int("n", m, 0, 1000, "elements");
  CHECK(parse(d, {}));
  CHECK(m == 7);
  CHECK_FALSE(d.was_set("n"));
}

HOST_TEST_CASE("bad command lines say what is wrong") {
  cli c("prog", "test");
  std::int64_t n = 0;
  bool quick = false;
  std::string format = "human";
  c.add_int("n", n, 0, 1000, "elements");
  c.add_flag("quick", quick, "fast");
  c.add_choice("format", format, {"human", "csv"}, "output");
  auto message = [&](std::vector<const char*> args) -> std::string {
    try {
      parse(c, args);
    } catch (const usage_error& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(message({"--n", "-5"}) == "--n must be in [0, 1000], got -5");
  CHECK(message({"--n", "1001"}) == "--n must be in [0, 1000], got 1001");
  CHECK(message({"--n", "abc"}).find("--n: 'abc' is not an integer") == 0);
  CHECK(message({"--n"}) == "--n needs a value (N)");
  CHECK(message({"--bogus"}) == "unknown option --bogus (see --help)");
  CHECK(message({"n=5"}).find("unexpected argument 'n=5'") == 0);
  CHECK(message({"--quick=yes"}) == "--quick takes no value");
  CHECK(message({"--format", "xml"}) == "--format must be one of human|csv, got 'xml'");
}

HOST_TEST_CASE("choices with spaces or bars in their names are listed quoted") {
  cli c("prog", "test");
  std::string variant = "a b";
  c.add_choice("variant", variant, {"a b", "c|d e"}, "which");
  std::string message;
  try {
    parse(c, {"--variant", "x"});
  } catch (const usage_error& e) {
    message = e.what();
  }
  CHECK(message == "--variant must be one of 'a b' | 'c|d e', got 'x'");
  CHECK(parse(c, {"--variant", "c|d e"}));
  CHECK(variant == "c|d e");
}

HOST_TEST_CASE("--help prints every option and returns false") {
  cli c("prog", "does things");
  std::int64_t n = 0;
  c.add_int("n", n, 0, 10, "elements");
  const char* args[] = {"prog", "--help"};
  std::ostringstream out;
  CHECK_FALSE(c.parse(2, args, out));
  CHECK(out.str().find("prog: does things") != std::string::npos);
  CHECK(out.str().find("--n N") != std::string::npos);
  CHECK(out.str().find("[0, 10]") != std::string::npos);
  CHECK(out.str().find("77 no CUDA device") != std::string::npos);
}
