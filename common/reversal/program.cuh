// The program of every GPU step of Part V (reversal), written once so that each step's main.cu is
// a few lines. A step hands over its launch functions; the harness does the program contract
// (DESIGN.md section 3) for an array of n elements: --n, --type, seeded input, CPU reference,
// poisoned output, checked run, timing with the L2 flushed, the check again, the yardsticks and the
// Thrust peer (thrust::reverse_copy out of place, thrust::reverse in place) in the same process.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace common {

// One type's launches of a variant; the one it does not have stays empty.
template <class T>
struct reversal_launches {
  // d_out[n - 1 - i] = d_in[i] for i in [0, n); d_in and d_out do not overlap.
  std::function<void(const T* d_in, T* d_out, std::int64_t n)> out_of_place;
  // d_data[0, n) reversed where it stands.
  std::function<void(T* d_data, std::int64_t n)> in_place;
  bool empty() const { return !out_of_place && !in_place; }
};

struct reversal_variant {
  std::string name;  // the result row's variant; may be empty
  reversal_launches<std::int32_t> int32;
  reversal_launches<float> float32;  // empty: the variant runs int32 only
  reversal_launches<std::int64_t> int64;
};

struct reversal_step {
  std::string step;                        // the program name, e.g. "reverse_naive"
  std::string summary;                     // one line for --help
  std::vector<reversal_variant> variants;  // measured in this order, one row each (and type)
  // Non-empty: the program has the flag --<sweep_flag> (help: sweep_help), and runs every variant
  // with it, variants[0] alone without it.
  std::string sweep_flag = "sweep";
  std::string sweep_help;
  std::int64_t max_n = 0;  // the largest n the kernels index correctly (0: 2^31 - 1, int indices)
  // The launches take pointers at any element offset from a 16-byte boundary: the program then has
  // --in-offset and --out-offset (elements past cudaMalloc's 256-byte boundary) to measure them.
  bool any_alignment = false;
};

// The sizes every GPU test of the part covers: 0..5, 31, 32, 33, 255, 256, 257, block - 1, block,
// block + 1, 2^k - 1 and 2^k + 1 for k = 10, 16, 20, and 2^24 + 7 (more than the L2); the caller
// adds 2^28 + 3 where a step's test should cover the reference size.
std::vector<std::int64_t> reversal_test_sizes(std::int64_t block);

// The whole program: returns the exit code for main().
int run_reversal_program(int argc, char** argv, const reversal_step& step);

}  // namespace common
