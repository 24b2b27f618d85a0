// Command-line parsing shared by every program: --name value or --name=value, integer values
// written as expressions (1000, 1e9, 2^28, 2^28+3, 4096*4096), range checks with clear messages.
// The option table that parses is also the one --help prints, defaults included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace common {

// A bad command line; the message says what was wrong and what is valid. Programs exit with 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Evaluates + - * ^ over non-negative decimal integers, each written as digits or as digits e
// digits (1e9, 3E6: exact integers); ^ binds tightest, then *, then + -; a leading - is allowed.
// Throws usage_error for anything else (1.5, 1e-3) or on overflow past 2^62.
std::int64_t parse_int_expression(const std::string& text);

// An integer as --help shows a default: 2^k for powers of two from 2^16, 10^k for powers of ten
// from 10^6, else decimal digits.
std::string show_int(std::int64_t value);

// A choice with more names than this shows a line in --help and lists its names with
// --list-<name>s (--list-variants) instead.
constexpr std::size_t MAX_CHOICES_IN_HELP = 8;

class cli {
 public:
  cli(std::string program, std::string summary);

  // An integer option with an inclusive valid range; the target keeps its value if not given.
  // --help shows the target's value as the default (set_default() says it in words instead, for
  // a default computed later).
  template <class Int>
  void add_int(const std::string& name, Int& target, std::int64_t min, std::int64_t max,
               const std::string& help) {
    add_option(name, "N", help, "[" + show_range(min, max) + "]", false,
               [&target, name, min, max](const std::string& value) {
                 target = static_cast<Int>(checked_int(name, value, min, max));
               });
    set_default(name, show_int(std::int64_t(target)));
  }
  void add_flag(const std::string& name, bool& target, const std::string& help);
  // --help shows the target's value as the default (none if empty: the help says what no choice
  // means). A choice of more than MAX_CHOICES_IN_HELP names is listed by --list-<name>s.
  void add_choice(const std::string& name, std::string& target, std::vector<std::string> choices,
                  const std::string& help);

  // What --help shows as an option's default ("" shows none).
  void set_default(const std::string& name, const std::string& text);
  void set_help(const std::string& name, const std::string& help);
  // An option this program does not use: giving it is a usage error with this message, and --help
  // does not show it.
  void refuse(const std::string& name, const std::string& why);

  // Parses argv[1..]. Returns false after printing the help text to `out` for --help / -h (or a
  // long choice's names for --list-<name>s). Throws usage_error for unknown options, missing
  // values and values out of range.
  bool parse(int argc, const char* const argv[], std::ostream& out);
  bool was_set(const std::string& name) const;
  std::string help() const;
  const std::string& program() const { return program_; }

  static std::int64_t checked_int(const std::string& name, const std::string& value,
                                  std::int64_t min, std::int64_t max);

 private:
  struct option {
    std::string name, value_name, help;
    std::string valid;         // shown after the default: "[0, 1000]"
    std::string default_text;  // shown as "(default ...)" unless empty
    bool is_flag = false;
    std::function<void(const std::string&)> apply;
    bool set = false;
    bool hidden = false;  // refused: not in --help
    std::string listing;  // non-empty: giving this flag prints it (--list-variants) and stops
  };
  void add_option(const std::string& name, const std::string& value_name, const std::string& help,
                  const std::string& valid, bool is_flag,
                  std::function<void(const std::string&)> apply);
  option& get(const std::string& name);
  static std::string show_range(std::int64_t min, std::int64_t max);
  option* find(const std::string& name);
  const option* find(const std::string& name) const;

  std::string program_, summary_;
  std::vector<option> options_;
};

}  // namespace common
