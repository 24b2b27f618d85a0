#include <algorithm>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "common/exit_codes.hpp"
#include "common/program.cuh"

namespace common {

program::program(std::string part, std::string step, std::string summary)
    : part_(std::move(part)), step_(std::move(step)), cli_(step_, std::move(summary)) {
  cli_.add_int("n", n_, 0, MAX_N, "elements, e.g. 2^20+3 or 1e9");
  cli_.add_int("reps", reps_, 1, 100000, "timed repetitions, median reported");
  cli_.add_int("warmup", warmup_, 0, 1000, "untimed warm-up runs");
  cli_.add_int("seed", seed_, 0, std::numeric_limits<std::int64_t>::max(),
               "seed of the random input");
  cli_.add_flag("quick", quick_, "");
  cli_.add_choice("format", format_, {"human", "csv", "json"}, "how results are printed");
  limit_n(MAX_N);
}

void program::limit_n(std::int64_t max_n, std::string reason) {
  max_n_ = max_n;
  max_n_reason_ = std::move(reason);
  // The defaults resolve_n() picks, as --help shows them.
  const std::int64_t reference = std::min(REFERENCE_N, max_n);
  cli_.set_default("n", show_int(reference) + (reference == max_n ? ", the most this step takes"
                                                                  : "") +
                            ", fewer if the device lacks memory");
  if (!has_matrix_)
    cli_.set_help("quick", "small size (" + show_int(std::min(QUICK_N, max_n)) +
                               "), 3 reps (unless --reps), 1 warm-up: a fast full check");
}

void program::limit_matrix(std::int64_t max_elements) { max_elements_ = max_elements; }

void program::add_usage_check(std::function<void()> check) {
  usage_checks_.push_back(std::move(check));
}

void program::add_matrix_size(matrix_size quick) {
  has_matrix_ = true;
  quick_matrix_ = quick;
  const std::string side = std::to_string(REFERENCE_MATRIX.rows);
  cli_.add_int("rows", matrix_.rows, 0, MAX_MATRIX_SIDE, "matrix rows, e.g. 2^12+1");
  cli_.set_default("rows", side + ", fewer if the device lacks memory");
  cli_.add_int("cols", matrix_.cols, 0, MAX_MATRIX_SIDE, "matrix columns");
  cli_.set_default("cols", "as many as --rows, else " + side);
  cli_.refuse("n", "--n does not apply to " + step_ + ": give --rows and --cols");
  cli_.set_help("quick", "small matrix (" + std::to_string(quick.rows) + " x " +
                             std::to_string(quick.cols) +
                             "), 3 reps (unless --reps), 1 warm-up: a fast full check");
}

matrix_size program::given_matrix() const {
  const bool rows_set = cli_.was_set("rows"), cols_set = cli_.was_set("cols");
  if (!rows_set && !cols_set) return {-1, -1};
  return {rows_set ? matrix_.rows : matrix_.cols, cols_set ? matrix_.cols : matrix_.rows};
}

void check_n_limit(const std::string& step, std::int64_t n, std::int64_t max_n,
                   const std::string& reason) {
  if (n <= max_n) return;
  const std::string why = !reason.empty()                ? ": " + reason
                          : max_n == MAX_N_INT32_INDEX ? ": its kernels index with 32-bit ints"
                                                       : "";
  throw usage_error("--n " + std::to_string(n) + " is more than " + step + " handles (at most " +
                    std::to_string(max_n) + why + ")");
}

void check_matrix_limit(const std::string& step, matrix_size m, std::int64_t max_elements) {
  if (m.elements() <= max_elements) return;
  throw usage_error(
      "--rows x --cols = " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
      " is more than " + step + " handles (at most " + std::to_string(max_elements) +
      " elements" +
      (max_elements == MAX_N_INT32_INDEX ? ": its kernels index with 32-bit ints)" : ")"));
}

int run_with_device(const std::string& name, cli& args, int argc, char** argv,
                    const std::function<int(const device_info&)>& body,
                    const std::function<void()>& check_usage) {
  try {
    if (!args.parse(argc, argv, std::cout)) return EXIT_CORRECT;  // --help
    if (check_usage) check_usage();
    const std::string why = why_no_cuda_device();
    if (!why.empty()) {
      std::fprintf(stderr, "%s: no CUDA device (%s); skipped, exit %d\n", name.c_str(), why.c_str(),
                   EXIT_NO_DEVICE);
      return EXIT_NO_DEVICE;
    }
    return body(query_device(0));
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
    return EXIT_BAD_USAGE;
  }
}

int program::run(int argc, char** argv, const std::function<int(context&)>& body) {
  try {
    const auto check_usage = [&] {
      if (cli_.was_set("n")) check_n_limit(step_, n_, max_n_, max_n_reason_);
      if (has_matrix_ && given_matrix().rows >= 0)
        check_matrix_limit(step_, given_matrix(), max_elements_);
      for (const auto& check : usage_checks_) check();
    };
    return run_with_device(
        step_, cli_, argc, argv,
        [&](const device_info& device) {
          if (quick_ && !cli_.was_set("reps")) reps_ = 3;
          if (quick_ && !cli_.was_set("warmup")) warmup_ = 1;
          context ctx(*this, device);
          return body(ctx);
        },
        check_usage);
  } catch (const not_implemented& e) {
    std::fprintf(stderr, "%s: not implemented: %s (fill in the TODO regions)\n", step_.c_str(),
                 e.what());
    return EXIT_WRONG_RESULT;
  } catch (const not_available& e) {
    std::fprintf(stderr, "%s: not available on this GPU: %s; skipped, exit %d\n", step_.c_str(),
                 e.what(), EXIT_NOT_AVAILABLE);
    return EXIT_NOT_AVAILABLE;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of host memory\n", step_.c_str());
    return EXIT_BAD_USAGE;
  }
}

context::context(program& p, device_info device)
    : program_(p), device_(std::move(device)), machine_output_(p.format_ != "human") {
  timing_.reps = p.reps_;
  timing_.warmup = p.warmup_;
  std::FILE* out = log();
  std::fprintf(out, "%s on %s (%d SMs, L2 %s, %s free, %.0f GB/s theoretical, CUDA %s)\n",
               program_.step_.c_str(), device_.name.c_str(), device_.sm_count,
               show_bytes(double(device_.l2_bytes)).c_str(),
               show_bytes(double(device_.free_bytes)).c_str(), device_.theoretical_gbps,
               cuda_version_string(device_.runtime_version).c_str());
}

l2_flusher& context::flusher() {
  if (!flusher_) flusher_ = std::make_unique<l2_flusher>(device_.l2_bytes);
  return *flusher_;
}

std::int64_t context::resolve_n(double device_bytes_per_element, double input_bytes_per_element,
                                std::int64_t max_n) {
  const double per_element = std::max(device_bytes_per_element, 2 * input_bytes_per_element);
  const double flush_bytes = 2.0 * double(device_.l2_bytes) + double(1 << 20);
  const double budget = 0.9 * double(device_.free_bytes) - flush_bytes;
  const auto fits = [&](std::int64_t n) { return double(n) * per_element <= budget; };
  if (program_.cli_.was_set("n")) {
    check_n_limit(program_.step_, program_.n_, program_.max_n_, program_.max_n_reason_);
    check_n_limit(program_.step_, program_.n_, max_n);
    if (!fits(program_.n_)) {
      std::int64_t largest = std::int64_t(std::max(0.0, budget / per_element));
      throw usage_error("--n " + std::to_string(program_.n_) + " needs " +
                        show_bytes(double(program_.n_) * per_element) + " of device memory; " +
                        device_.name + " has " + show_bytes(double(device_.free_bytes)) +
                        " free, so n can be at most " + std::to_string(largest));
    }
    return program_.n_;
  }
  std::int64_t n = std::min({quick() ? QUICK_N : REFERENCE_N, max_n, program_.max_n_});
  while (n > 1 && !fits(n)) n /= 2;
  return n;
}

matrix_size context::resolve_matrix(double device_bytes_per_element, double input_bytes_per_element,
                                    std::int64_t max_elements) {
  if (!program_.has_matrix_) throw std::logic_error("resolve_matrix() without add_matrix_size()");
  const double per_element = std::max(device_bytes_per_element, 2 * input_bytes_per_element);
  const double flush_bytes = 2.0 * double(device_.l2_bytes) + double(1 << 20);
  const double budget = 0.9 * double(device_.free_bytes) - flush_bytes;
  const auto fits = [&](matrix_size m) { return double(m.elements()) * per_element <= budget; };
  max_elements = std::min(max_elements, program_.max_elements_);
  if (program_.given_matrix().rows >= 0) {
    const matrix_size m = program_.given_matrix();
    const std::string shape = std::to_string(m.rows) + " x " + std::to_string(m.cols);
    check_matrix_limit(program_.step_, m, max_elements);
    if (!fits(m))
      throw usage_error("--rows x --cols = " + shape + " needs " +
                        show_bytes(double(m.elements()) * per_element) + " of device memory; " +
                        device_.name + " has " + show_bytes(double(device_.free_bytes)) +
                        " free, so rows * cols can be at most " +
                        std::to_string(std::int64_t(std::max(0.0, budget / per_element))));
    return m;
  }
  matrix_size m = quick() ? program_.quick_matrix_ : REFERENCE_MATRIX;
  while ((m.elements() > max_elements || !fits(m)) && m.elements() > 1) {
    if (m.cols >= m.rows)
      m.cols = std::max<std::int64_t>(1, m.cols / 2);
    else
      m.rows = std::max<std::int64_t>(1, m.rows / 2);
  }
  return m;
}

const yardsticks& context::measure_yardsticks(std::size_t bytes) {
  if (!yardsticks_ || yardsticks_->bytes != bytes)
    yardsticks_ = common::measure_yardsticks(bytes, timing_, flusher());
  return *yardsticks_;
}

bool context::check(const check_result& result) {
  if (!result.ok()) ++failed_checks_;
  std::fprintf(result.ok() ? log() : stderr, "check %s\n", describe(result).c_str());
  return result.ok();
}

void context::report(result_row row) {
  if (row.part.empty()) row.part = program_.part_;
  if (row.step.empty()) row.step = program_.step_;
  if (yardsticks_ && row.copy_gbps == 0) row.copy_gbps = yardsticks_->copy_gbps;
  if (yardsticks_ && row.read_gbps == 0) row.read_gbps = yardsticks_->read_gbps;
  finish_row(row);
  if (program_.format_ == "json") {
    std::printf("%s\n", to_json(row).c_str());
  } else if (program_.format_ == "csv") {
    if (!header_printed_) std::printf("%s\n", csv_header().c_str());
    std::printf("%s\n", to_csv(row).c_str());
  } else {
    if (!header_printed_) std::printf("%s\n", human_header().c_str());
    std::printf("%s\n", to_human(row).c_str());
  }
  header_printed_ = true;
  std::fflush(stdout);
}

int context::exit_code() const { return failed_checks_ == 0 ? EXIT_CORRECT : EXIT_WRONG_RESULT; }

}  // namespace common
