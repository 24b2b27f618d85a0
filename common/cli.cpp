#include "common/cli.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace common {
namespace {

constexpr std::int64_t EXPRESSION_LIMIT = std::int64_t(1) << 62;

// Recursive descent over: sum := ['-'] product (('+'|'-') product)*
//                         product := power ('*' power)*     power := number ['^' number]
class expression_parser {
 public:
  explicit expression_parser(const std::string& text) : text_(text) {}

  std::int64_t parse() {
    skip_spaces();
    if (pos_ == text_.size()) fail("empty value");
    const bool negative = accept('-');
    std::int64_t value = product();
    if (negative) value = -value;
    while (true) {
      if (accept('+')) value = checked(value + product());
      else if (accept('-')) value = checked(value - product());
      else break;
    }
    skip_spaces();
    if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_) + "'");
    return value;
  }

 private:
  std::int64_t product() {
    std::int64_t value = power();
    while (accept('*')) {
      const std::int64_t factor = power();
      if (factor != 0 && std::abs(value) > EXPRESSION_LIMIT / factor) fail("too large");
      value *= factor;
    }
    return value;
  }
  std::int64_t power() {
    const std::int64_t base = number();
    if (!accept('^')) return base;
    const std::int64_t exponent = number();
    std::int64_t value = 1;
    for (std::int64_t i = 0; i < exponent; ++i) {
      if (base != 0 && value > EXPRESSION_LIMIT / base) fail("too large");
      value *= base;
    }
    return value;
  }
  // digits, or digits e digits (1e9 = 1000000000): always an exact integer.
  std::int64_t number() {
    std::int64_t value = digits();
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
        fail("the exponent after e must be digits");
      const std::int64_t exponent = digits();
      for (std::int64_t i = 0; i < exponent && value != 0; ++i) {
        if (value > EXPRESSION_LIMIT / 10) fail("too large");
        value *= 10;
      }
    }
    return value;
  }
  std::int64_t digits() {
    skip_spaces();
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      fail("expected a number");
    std::int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_++] - '0');
      if (value > EXPRESSION_LIMIT) fail("too large");
    }
    return value;
  }
  bool accept(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void skip_spaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  std::int64_t checked(std::int64_t v) {
    if (std::abs(v) > EXPRESSION_LIMIT) fail("too large");
    return v;
  }
  [[noreturn]] void fail(const std::string& why) {
    throw usage_error("'" + text_ + "' is not an integer (" + why +
                      "); write e.g. 1000, 1e9, 2^28, 2^28+3 or 4096*4096");
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::int64_t parse_int_expression(const std::string& text) {
  return expression_parser(text).parse();
}

std::string show_int(std::int64_t value) {
  if (value >= (std::int64_t(1) << 16) && (value & (value - 1)) == 0) {
    int k = 0;
    while ((std::int64_t(1) << k) != value) ++k;
    return "2^" + std::to_string(k);
  }
  if (value >= 1000000) {
    int k = 0;
    std::int64_t v = value;
    while (v % 10 == 0) {
      v /= 10;
      ++k;
    }
    if (v == 1) return "10^" + std::to_string(k);
  }
  return std::to_string(value);
}

cli::cli(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  add_option("help", "", "print this help and exit", "", true, [](const std::string&) {});
}

std::string cli::show_range(std::int64_t min, std::int64_t max) {
  return std::to_string(min) + ", " + std::to_string(max);
}

std::int64_t cli::checked_int(const std::string& name, const std::string& value, std::int64_t min,
                              std::int64_t max) {
  std::int64_t v = 0;
  try {
    v = parse_int_expression(value);
  } catch (const usage_error& e) {
    throw usage_error("--" + name + ": " + e.what());
  }
  if (v < min || v > max)
    throw usage_error("--" + name + " must be in [" + show_range(min, max) + "], got " + value);
  return v;
}

void cli::add_option(const std::string& name, const std::string& value_name,
                     const std::string& help, const std::string& valid, bool is_flag,
                     std::function<void(const std::string&)> apply) {
  if (find(name) != nullptr) throw std::logic_error("cli: option --" + name + " added twice");
  option o;
  o.name = name;
  o.value_name = value_name;
  o.help = help;
  o.valid = valid;
  o.is_flag = is_flag;
  o.apply = std::move(apply);
  options_.push_back(std::move(o));
}

cli::option& cli::get(const std::string& name) {
  option* o = find(name);
  if (o == nullptr) throw std::logic_error("cli: no option --" + name);
  return *o;
}

void cli::set_default(const std::string& name, const std::string& text) {
  get(name).default_text = text;
}

void cli::set_help(const std::string& name, const std::string& help) { get(name).help = help; }

void cli::refuse(const std::string& name, const std::string& why) {
  option& o = get(name);
  o.hidden = true;
  o.apply = [why](const std::string&) { throw usage_error(why); };
}

void cli::add_flag(const std::string& name, bool& target, const std::string& help) {
  add_option(name, "", help, "", true, [&target](const std::string&) { target = true; });
}

void cli::add_choice(const std::string& name, std::string& target,
                     std::vector<std::string> choices, const std::string& help) {
  // Choices of one word read a|b|c; a choice with a space or a '|' in it (a variant's name) is
  // quoted, so that the list cannot be misread: 'a b' | 'c|d'.
  const bool quote = std::any_of(choices.begin(), choices.end(), [](const std::string& c) {
    return c.find_first_of(" |") != std::string::npos;
  });
  std::string list;
  for (const auto& c : choices)
    list += (list.empty() ? "" : (quote ? " | " : "|")) + (quote ? "'" + c + "'" : c);
  // A long list would bury --help (and the error) in names: both point at --list-<name>s.
  const bool long_list = choices.size() > MAX_CHOICES_IN_HELP;
  const std::string lister = "list-" + name + "s";
  const std::string valid = long_list ? "one of the " + std::to_string(choices.size()) +
                                            " names --" + lister + " prints"
                                      : "one of " + list;
  add_option(name, long_list ? "NAME" : list,
             help + (long_list ? " (--" + lister + " names the " +
                                     std::to_string(choices.size()) + " choices)"
                               : ""),
             "", false, [&target, name, choices, valid](const std::string& value) {
               if (std::find(choices.begin(), choices.end(), value) == choices.end())
                 throw usage_error("--" + name + " must be " + valid + ", got '" + value + "'");
               target = value;
             });
  set_default(name, target);
  if (long_list && find(lister) == nullptr) {
    std::string listing;
    for (const auto& c : choices) listing += c + "\n";
    add_option(lister, "", "list the names --" + name + " takes and exit", "", true,
               [](const std::string&) {});
    get(lister).listing = listing;
  }
}

cli::option* cli::find(const std::string& name) {
  for (auto& o : options_)
    if (o.name == name) return &o;
  return nullptr;
}
const cli::option* cli::find(const std::string& name) const {
  return const_cast<cli*>(this)->find(name);
}

bool cli::was_set(const std::string& name) const {
  const option* o = find(name);
  return o != nullptr && o->set;
}

bool cli::parse(int argc, const char* const argv[], std::ostream& out) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h") arg = "--help";
    if (arg.rfind("--", 0) != 0 || arg.size() == 2)
      throw usage_error("unexpected argument '" + arg + "' (options start with --; see --help)");
    std::string name = arg.substr(2), value;
    const auto eq = name.find('=');
    const bool has_inline_value = eq != std::string::npos;
    if (has_inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    option* o = find(name);
    if (o == nullptr) throw usage_error("unknown option --" + name + " (see --help)");
    if (o->is_flag) {
      if (has_inline_value) throw usage_error("--" + name + " takes no value");
    } else if (!has_inline_value) {
      if (i + 1 >= argc) throw usage_error("--" + name + " needs a value (" + o->value_name + ")");
      value = argv[++i];
    }
    if (name == "help" && !o->hidden) {
      out << help();
      return false;
    }
    if (!o->listing.empty() && !o->hidden) {
      out << o->listing;
      return false;
    }
    o->apply(value);
    o->set = true;
  }
  return true;
}

std::string cli::help() const {
  std::ostringstream os;
  os << program_ << ": " << summary_ << "\n\nUsage: " << program_ << " [options]\n\nOptions:\n";
  for (const auto& o : options_) {
    if (o.hidden) continue;
    std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
    os << left << std::string(left.size() < 24 ? 24 - left.size() : 1, ' ') << o.help
       << (o.default_text.empty() ? "" : " (default " + o.default_text + ")")
       << (o.valid.empty() ? "" : " " + o.valid) << "\n";
  }
  os << "\nExit codes: 0 correct, 1 wrong result, 2 bad usage, 3 CUDA error, 77 no CUDA device.\n";
  return os.str();
}

}  // namespace common
