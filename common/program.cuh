// The program contract (DESIGN.md section 3), written once. A step's main.cu declares its flags,
// then hands run() a body that does: input -> CPU reference -> poisoned output -> run -> verify
// -> time -> verify again -> report. run() does the rest: parsing (exit 2 on bad usage), --help,
// the no-device skip (exit 77), the device banner, sizes that fit the device, and the exit code.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/device_info.cuh"
#include "common/report.hpp"
#include "common/timing.cuh"
#include "common/verify.hpp"
#include "common/yardsticks.cuh"

namespace common {

// The default element count of 1-D parts: 2^28 (1 GiB of floats, 20x an H100's L2).
constexpr std::int64_t REFERENCE_N = std::int64_t(1) << 28;
// --quick: small, not a power of two, fast under compute-sanitizer, still fully checked.
constexpr std::int64_t QUICK_N = 100003;
// The largest --n the parser takes; each step then applies its own limit in resolve_n().
constexpr std::int64_t MAX_N = std::int64_t(1) << 40;
// The limit of steps whose kernels index with 32-bit ints, as the classic code does.
constexpr std::int64_t MAX_N_INT32_INDEX = std::numeric_limits<std::int32_t>::max();

// 2-D parts (transpose): a rows x cols matrix, row-major.
struct matrix_size {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t elements() const { return rows * cols; }
};
// The default matrix: 16384 x 16384 floats (1 GiB, 20x an H100's L2), as the reports measure.
constexpr matrix_size REFERENCE_MATRIX{16384, 16384};
// --quick for 2-D parts: small, neither side a multiple of 32, not square.
constexpr matrix_size QUICK_MATRIX{257, 131};
// The largest --rows or --cols the parser takes; each step then applies its own limits.
constexpr std::int64_t MAX_MATRIX_SIDE = std::numeric_limits<std::int32_t>::max();

class context;

// The contract's part that every program shares, steps and the tools beside them (the probes):
// parses argv with `args` (--help: exit 0; bad usage, also from check_usage or body: the message
// and exit 2), calls check_usage (the checks that need no device, so that bad usage exits 2 with
// or without a GPU), skips without a CUDA device (exit 77), then returns body(device 0's
// description). `name` starts each message.
int run_with_device(const std::string& name, cli& args, int argc, char** argv,
                    const std::function<int(const device_info&)>& body,
                    const std::function<void()>& check_usage = nullptr);

// Thrown by an exercise skeleton's unfinished function (common/exercise.hpp's todo()); run()
// prints "not implemented: <what>" and exits with EXIT_WRONG_RESULT, as a wrong answer would.
class not_implemented : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by a step whose one idea needs a feature this GPU or this build lacks (bulk copies
// before Hopper); run() prints "<step>: not available on this GPU: <what>" and exits with
// EXIT_NOT_AVAILABLE (CTest: Skipped; the bench skips the step).
class not_available : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class program {
 public:
  program(std::string part, std::string step, std::string summary);

  // Step-specific options go here before run().
  cli& args() { return cli_; }

  // 2-D parts call this before run(): adds --rows and --cols (one given alone makes the matrix
  // square) and makes --n a usage error. quick is the --quick size (steps that need multiples of
  // their tile pass one).
  void add_matrix_size(matrix_size quick = QUICK_MATRIX);

  // The largest --n this program takes, and why (empty: the kernels' 32-bit index, when max_n is
  // MAX_N_INT32_INDEX). run() checks an explicit --n against it before the device probe, so the
  // usage error exits 2 with or without a GPU; resolve_n() applies it too. Shown by --help.
  void limit_n(std::int64_t max_n, std::string reason = "");
  // The largest rows * cols of a 2-D part, checked like limit_n() for explicit --rows/--cols.
  void limit_matrix(std::int64_t max_elements);
  // A check of the command line that needs no device: run() calls it after parsing and before the
  // device probe; it throws usage_error. Checks that need the device (a size that does not fit
  // its memory) stay in the body.
  void add_usage_check(std::function<void()> check);
  // The explicit --n, or -1 if not given.
  std::int64_t given_n() const { return n_; }
  // The explicit matrix: --rows and --cols (one given alone: square); {-1, -1} if neither given.
  matrix_size given_matrix() const;

  // Parses, checks the usage, checks for a device, runs body (whose return value becomes the exit
  // code).
  int run(int argc, char** argv, const std::function<int(context&)>& body);

 private:
  friend class context;
  std::string part_, step_;
  cli cli_;
  std::int64_t n_ = -1;  // -1: not given
  int reps_ = timing_options{}.reps;
  int warmup_ = timing_options{}.warmup;
  std::uint64_t seed_ = 20261121;
  bool quick_ = false;
  std::string format_ = "human";
  bool has_matrix_ = false;
  matrix_size matrix_{-1, -1};  // -1: not given
  matrix_size quick_matrix_ = QUICK_MATRIX;
  std::int64_t max_n_ = MAX_N;
  std::string max_n_reason_;
  std::int64_t max_elements_ = MAX_N;
  std::vector<std::function<void()>> usage_checks_;
};

// The usage errors of an explicit size past a step's limit (reason: why; empty: the 32-bit index
// when the limit is MAX_N_INT32_INDEX).
void check_n_limit(const std::string& step, std::int64_t n, std::int64_t max_n,
                   const std::string& reason = "");
void check_matrix_limit(const std::string& step, matrix_size m, std::int64_t max_elements);

class context {
 public:
  context(program& p, device_info device);

  const device_info& device() const { return device_; }
  std::uint64_t seed() const { return program_.seed_; }
  bool quick() const { return program_.quick_; }
  const timing_options& timing() const { return timing_; }
  bool was_set(const std::string& option) const { return program_.cli_.was_set(option); }

  // The element count: --n if given, else QUICK_N with --quick, else REFERENCE_N halved until it
  // fits. device_bytes_per_element counts every device buffer the step allocates per element;
  // yardsticks (measured before the step allocates) need 2 * input_bytes_per_element. An explicit
  // --n above max_n, or one that does not fit in 90% of free device memory, is a usage error.
  std::int64_t resolve_n(double device_bytes_per_element, double input_bytes_per_element = 4,
                         std::int64_t max_n = MAX_N_INT32_INDEX);

  // The matrix of a 2-D part (after program::add_matrix_size()): --rows/--cols if given, else
  // QUICK_MATRIX (or the step's quick size) with --quick, else REFERENCE_MATRIX with its longer
  // side halved until it fits. Same accounting and errors as resolve_n(), for rows * cols
  // elements; max_elements is the step's limit on rows * cols.
  matrix_size resolve_matrix(double device_bytes_per_element, double input_bytes_per_element = 4,
                             std::int64_t max_elements = MAX_N_INT32_INDEX);

  // Measures the copy and read yardsticks for this many bytes (once; later calls reuse them) and
  // fills them into every row reported from now on. Call it before allocating the step's buffers.
  const yardsticks& measure_yardsticks(std::size_t bytes);

  // time_repeated() with this program's options and L2 flusher.
  template <class Prepare, class Op>
  timing_stats time(Prepare&& prepare, Op&& op) {
    return time_repeated(timing_, flusher(), prepare, op);
  }
  template <class Op>
  timing_stats time(Op&& op) {
    return time([] {}, op);
  }
  // time_repeated_on_host() with the same options and flusher: for a host call that returns its
  // result to the host, such as a count of primes.
  template <class Op>
  timing_stats time_host_call(Op&& op) {
    return time_repeated_on_host(
        timing_, flusher(), [] {}, op);
  }

  // Prints the check's outcome (mismatches go first); a failure makes the exit code 1.
  bool check(const check_result& result);

  // Fills part, step and the yardsticks (if not set), prints the row in the chosen format.
  void report(result_row row);

  // Progress and explanations: stdout for people, stderr when stdout carries CSV or JSON.
  std::FILE* log() const { return machine_output_ ? stderr : stdout; }

  // 0 if every check passed, else 1.
  int exit_code() const;

 private:
  l2_flusher& flusher();

  program& program_;
  device_info device_;
  timing_options timing_;
  bool machine_output_ = false;
  std::unique_ptr<l2_flusher> flusher_;
  std::optional<yardsticks> yardsticks_;
  bool header_printed_ = false;
  int failed_checks_ = 0;
};

}  // namespace common
