// The program and test harness of the transpose part, written once so that each step's main.cu is
// a few lines. A step hands over its launch function and what its output must equal; the harness
// does the rest of the program contract (DESIGN.md section 3) for a rows x cols float matrix:
// size flags, seeded input, CPU reference, poisoned output, checked run, timing with the L2
// flushed, the check again, the yardsticks and the cublasSgeam peer in the same process, one row.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/verify.hpp"

namespace common {

// Every step of the part launches with these parameters: d_in is rows x cols, row-major.
using matrix_launch =
    std::function<void(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols)>;

// What a step's output must equal.
enum class matrix_result {
  transpose,    // out (cols x rows) = in^T
  copy,         // out (rows x cols) = in
  tiles_moved,  // coarse-grained: each tile to its transposed place, its content not transposed
  tiles_transposed,  // fine-grained: each tile transposed where it stands (out is rows x cols)
};

// What a step can do. The harness rejects every other shape with exit 2 and says why.
struct matrix_limits {
  std::int64_t block_rows = 32;  // rows (or cols) one grid row of blocks covers: gridDim.y <=
                                 // 65535; 0 when the kernel loops over rows of tiles itself
  bool y_over_cols = false;      // blockIdx.y walks the columns (the column-major variants)
  std::int64_t tile = 32;        // the tile of tiles_moved / tiles_transposed (sides multiples)
  bool int32_index = true;       // the kernels index with int: rows * cols < 2^31
};

struct matrix_variant {
  std::string name;  // the result row's variant, e.g. "block=32x16"; may be empty
  matrix_launch launch;
  matrix_limits limits;
};

struct matrix_step {
  std::string step;     // the program name, e.g. "transpose_naive"
  std::string summary;  // one line for --help
  matrix_result result = matrix_result::transpose;
  std::vector<matrix_variant> variants;  // measured in this order, one row each
  std::string sweep_help;  // non-empty: the program has --sweep, and without it runs variants[0]
};

// Empty if limits allow rows x cols, else why not.
std::string why_unsupported(const matrix_limits& limits, matrix_result result, std::int64_t rows,
                            std::int64_t cols);

// The CPU references. out must hold rows * cols floats.
void transpose_reference(const float* in, float* out, std::int64_t rows, std::int64_t cols);
std::vector<float> expected_output(matrix_result result, const std::vector<float>& in,
                                   std::int64_t rows, std::int64_t cols, std::int64_t tile);

// A seeded input and its expected_output(), made once for any number of launches: a test of many
// variants at one shape pays for the host's share (random numbers, the CPU reference) once.
struct prepared_matrix {
  std::int64_t rows = 0, cols = 0, tile = 32;
  std::vector<float> input, want;
};
prepared_matrix prepare_matrix(matrix_result result, std::int64_t rows, std::int64_t cols,
                               std::uint64_t seed, std::int64_t tile = 32);

// One launch on the prepared input into a poisoned output, compared exactly with its expected
// output (for the GPU tests of every step).
check_result check_launch(const matrix_launch& launch, const prepared_matrix& m);
// The same on seeded input made for this launch alone.
check_result check_launch(const matrix_launch& launch, matrix_result result, std::int64_t rows,
                          std::int64_t cols, std::uint64_t seed, std::int64_t tile = 32);

// The shapes every step's GPU test covers (the issue's list plus tile edges).
std::vector<std::pair<std::int64_t, std::int64_t>> test_shapes();

// The whole program: returns the exit code for main().
int run_matrix_program(int argc, char** argv, const matrix_step& step);

// The common case: one variant, the whitepaper's 32 x 32 tiles.
int run_matrix_program(int argc, char** argv, std::string step, std::string summary,
                       matrix_result result, matrix_launch launch, matrix_limits limits = {});

}  // namespace common
