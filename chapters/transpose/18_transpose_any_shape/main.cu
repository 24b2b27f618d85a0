// The transpose_any_shape program; common/transpose/program.cuh does the contract. --sweep measures
// the variants of transpose_any_shape::variants(); --explain prints the plan for a shape instead
// (with --gpu-facts h200, h100 or portable, without a GPU); --list-variants names the variants.
#include <cstdio>
#include <string>

#include "common/cli.hpp"
#include "common/exit_codes.hpp"
#include "common/transpose/program.cuh"
#include "transpose_any_shape.cuh"

namespace {
using namespace transpose_any_shape;

int usage_error(const std::string& why) {
  std::fprintf(stderr, "transpose_any_shape: %s\n", why.c_str());
  return common::EXIT_BAD_USAGE;
}

// A side, in the size grammar of every program's --rows and --cols (4097, 2^12+1, 1e4).
bool parse_side(const std::string& text, std::int64_t& side) {
  try {
    side = common::parse_int_expression(text);
  } catch (const common::usage_error&) {
    return false;
  }
  return side >= 0 && side <= (std::int64_t(1) << 40);
}

// --explain [--rows R] [--cols C] [--gpu-facts h200|h100|portable] [--variant NAME]
int explain(int argc, char** argv) {
  std::int64_t rows = 16384, cols = 16384;
  bool rows_set = false, cols_set = false;
  std::string facts = "device", variant_name;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--explain") continue;
    if (i + 1 >= argc) return usage_error(a + " needs a value (or is not an --explain option)");
    const std::string value = argv[++i];
    if (a == "--rows" || a == "--cols") {
      std::int64_t side = 0;
      if (!parse_side(value, side))
        return usage_error(a + " must be an integer in [0, 2^40], not '" + value + "'");
      (a == "--rows" ? rows : cols) = side;
      (a == "--rows" ? rows_set : cols_set) = true;
    } else if (a == "--gpu-facts") {
      facts = value;
    } else if (a == "--variant") {
      variant_name = value;
    } else {
      return usage_error("--explain takes --rows, --cols, --gpu-facts and --variant, not " + a);
    }
  }
  if (rows_set != cols_set) (rows_set ? cols : rows) = rows_set ? rows : cols;  // one: square
  const variant* chosen = nullptr;
  for (const variant& v : variant_table())
    if (v.name == variant_name) chosen = &v;
  if (chosen == nullptr)
    return usage_error("--variant must be one of the names --list-variants prints");
  gpu_facts gpu;
  if (facts == "h200") {
    gpu = h200_facts();
  } else if (facts == "h100") {
    gpu = h100_facts();
  } else if (facts == "portable") {
    gpu = h200_portable_facts();
  } else if (facts == "device") {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr,
                   "transpose_any_shape: no CUDA device; --gpu-facts h200, h100 or portable "
                   "explains the plan without one\n");
      return common::EXIT_NO_DEVICE;
    }
    CUDA_CHECK(gpu_facts_here(gpu));
  } else {
    return usage_error("--gpu-facts must be h200, h100, portable or device, not '" + facts + "'");
  }
  const plan p = choose_plan(matrix_shape{rows, cols}, gpu, chosen->on);
  std::printf("transpose_any_shape: the plan for %lld x %lld on %s%s%s\n", (long long)rows,
              (long long)cols, gpu.name.c_str(), variant_name.empty() ? "" : ", variant ",
              variant_name.c_str());
  std::printf("%s", describe(p).c_str());
  return common::EXIT_CORRECT;
}

int list_variants() {
  for (const variant& v : variant_table())
    std::printf("%-66s %s\n", v.name.empty() ? "(default)" : v.name.c_str(), v.measures.c_str());
  return common::EXIT_CORRECT;
}
}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--explain") return explain(argc, argv);
    if (a == "--list-variants") return list_variants();
  }
  common::matrix_step step;
  step.step = "transpose_any_shape";
  step.summary =
      "every-shape transpose: 16-byte accesses at any alignment, partial tiles in the same "
      "launch, a plan of shape rules (--explain prints it, with --gpu-facts h200|h100|portable "
      "without a GPU; --list-variants names the --sweep's variants)";
  step.result = common::matrix_result::transpose;
  step.variants = variants();
  step.sweep_help =
      "also measure each variant of the plan: one rule turned off or one choice changed "
      "(--list-variants says what each measures)";
  return common::run_matrix_program(argc, argv, step);
}
