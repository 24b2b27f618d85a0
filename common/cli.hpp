// Command-line parsing shared by every program: --name value or --name=value, integer values
// written as expressions (1000, 2^28, 2^28+3, 4096*4096), range checks with clear messages.
#pragma once

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

// Evaluates + - * ^ over non-negative decimal integers (^ binds tightest, then *, then + -;
// a leading - is allowed). Throws usage_error for anything else or on overflow past 2^62.
std::int64_t parse_int_expression(const std::string& text);

class cli {
 public:
  cli(std::string program, std::string summary);

  // An integer option with an inclusive valid range; the target keeps its value if not given.
  template <class Int>
  void add_int(const std::string& name, Int& target, std::int64_t min, std::int64_t max,
               const std::string& help) {
    add_option(name, "N", help + " [" + show_range(min, max) + "]", false,
               [&target, name, min, max](const std::string& value) {
                 target = static_cast<Int>(checked_int(name, value, min, max));
               });
  }
  void add_flag(const std::string& name, bool& target, const std::string& help);
  void add_choice(const std::string& name, std::string& target, std::vector<std::string> choices,
                  const std::string& help);

  // Parses argv[1..]. Returns false after printing the help text to `out` for --help / -h.
  // Throws usage_error for unknown options, missing values and values out of range.
  bool parse(int argc, const char* const argv[], std::ostream& out);
  bool was_set(const std::string& name) const;
  std::string help() const;
  const std::string& program() const { return program_; }

  static std::int64_t checked_int(const std::string& name, const std::string& value,
                                  std::int64_t min, std::int64_t max);

 private:
  struct option {
    std::string name, value_name, help;
    bool is_flag = false;
    std::function<void(const std::string&)> apply;
    bool set = false;
  };
  void add_option(const std::string& name, const std::string& value_name, const std::string& help,
                  bool is_flag, std::function<void(const std::string&)> apply);
  static std::string show_range(std::int64_t min, std::int64_t max);
  option* find(const std::string& name);
  const option* find(const std::string& name) const;

  std::string program_, summary_;
  std::vector<option> options_;
};

}  // namespace common
