#include <sstream>
#include <string>
#include <utility>
#include <vector>

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
// What parsing args throws, or "(no error)".
std::string usage_message(cli& c, std::vector<const char*> args) {
  try {
    parse(c, std::move(args));
  } catch (const usage_error& e) {
    return e.what();
  }
  return "(no error)";
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
  auto message = [&](std::vector<const char*> args) {
    return usage_message(c, std::move(args));
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
  std::string message = usage_message(c, {"--variant", "x"});
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

HOST_TEST_CASE("every size option reads 1e9 and 2^28+3 and 4096*4096 as exact integers") {
  CHECK(parse_int_expression("1e9") == 1000000000);
  CHECK(parse_int_expression("1E9") == 1000000000);
  CHECK(parse_int_expression("1e0") == 1);
  CHECK(parse_int_expression("10e2") == 1000);
  CHECK(parse_int_expression("1e12+1000") == 1000000001000);
  CHECK(parse_int_expression("1e3-1e2") == 900);
  CHECK(parse_int_expression("2*1e3") == 2000);
  CHECK(parse_int_expression("1e18") == 1000000000000000000);
  CHECK(parse_int_expression("0e30") == 0);
  // Not integers, or past 2^62: refused, never rounded.
  CHECK_THROWS_AS(parse_int_expression("1.5e9"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1e-3"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("e9"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1e"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1e19"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("7e19"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1e999999999999"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("3.1e3+1"), usage_error);
  CHECK_THROWS_AS(parse_int_expression("1e20+1"), usage_error);

  cli c("prog", "test");
  std::int64_t n = 0, rows = 0;
  c.add_int("n", n, 0, std::int64_t(1) << 40, "elements");
  c.add_int("rows", rows, 0, 1 << 30, "rows");
  CHECK(parse(c, {"--n=1e9", "--rows", "4096*4096"}));
  CHECK(n == 1000000000);
  CHECK(rows == 4096 * 4096);
  CHECK(parse(c, {"--n", "2^28+3"}));
  CHECK(n == (1 << 28) + 3);
  std::string message = usage_message(c, {"--n", "1.5e9"});
  CHECK(message.find("--n: '1.5e9' is not an integer") == 0);
  CHECK(message.find("1e9") != std::string::npos);  // the message shows the grammar
  message = usage_message(c, {"--n", "1e13"});
  CHECK(message == "--n must be in [0, 1099511627776], got 1e13");
}

HOST_TEST_CASE("defaults shown by --help are the targets' values or what the program says") {
  CHECK(common::show_int(30) == "30");
  CHECK(common::show_int(1 << 28) == "2^28");
  CHECK(common::show_int(1024) == "1024");
  CHECK(common::show_int(10000000000) == "10^10");
  CHECK(common::show_int(20261121) == "20261121");

  cli c("prog", "test");
  std::int64_t n = -1;
  int reps = 30;
  std::uint64_t seed = 7;
  std::string format = "human";
  c.add_int("n", n, 0, 1000, "elements");
  c.add_int("reps", reps, 1, 100, "repetitions");
  c.add_int("seed", seed, 0, 100, "seed");
  c.add_choice("format", format, {"human", "csv"}, "output");
  c.set_default("n", "2^28, fewer if the device lacks memory");
  c.refuse("seed", "--seed does not apply to prog: its input is not random");
  const std::string help = c.help();
  CHECK(help.find("--n N") != std::string::npos);
  CHECK(help.find("elements (default 2^28, fewer if the device lacks memory) [0, 1000]\n") !=
        std::string::npos);
  CHECK(help.find("repetitions (default 30) [1, 100]") != std::string::npos);
  CHECK(help.find("output (default human)") != std::string::npos);
  CHECK(help.find("--seed") == std::string::npos);  // refused options are not shown
  std::string message = usage_message(c, {"--seed", "3"});
  CHECK(message == "--seed does not apply to prog: its input is not random");
}

HOST_TEST_CASE("a long choice is listed by --list-<name>s instead of --help") {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) names.push_back("variant " + std::to_string(i));
  cli c("prog", "test");
  std::string variant;
  c.add_choice("variant", variant, names, "which");
  const std::string help = c.help();
  CHECK(help.find("--variant NAME") != std::string::npos);
  CHECK(help.find("--list-variants names the 12 choices") != std::string::npos);
  CHECK(help.find("variant 11") == std::string::npos);
  CHECK(help.find("--list-variants") != std::string::npos);

  const char* list_args[] = {"prog", "--list-variants"};
  std::ostringstream out;
  CHECK_FALSE(c.parse(2, list_args, out));
  CHECK(out.str().find("variant 0\nvariant 1\n") == 0);
  CHECK(out.str().find("variant 11\n") != std::string::npos);

  std::string message = usage_message(c, {"--variant", "x"});
  CHECK(message == "--variant must be one of the 12 names --list-variants prints, got 'x'");
  CHECK(parse(c, {"--variant", "variant 11"}));
  CHECK(variant == "variant 11");

  // A short choice is listed in --help and in its error, with no --list option.
  cli d("prog", "test");
  std::string type = "int32";
  d.add_choice("type", type, {"int32", "float"}, "element type");
  CHECK(d.help().find("--type int32|float") != std::string::npos);
  CHECK(d.help().find("--list-") == std::string::npos);
}
