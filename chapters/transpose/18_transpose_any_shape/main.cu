// The transpose_any_shape program; common/transpose/program.cuh does the contract. --sweep measures
// the choice of the narrow kernel's width.
#include "common/transpose/program.cuh"
#include "transpose_any_shape.cuh"

int main(int argc, char** argv) {
  using namespace transpose_any_shape;
  common::matrix_step step;
  step.step = "transpose_any_shape";
  step.summary =
      "every-shape transpose: 16-byte accesses at any alignment, one launch, narrow matrices and "
      "vectors on kernels of their own";
  step.result = common::matrix_result::transpose;
  // No grid limit (tall matrices take several launches) and 64-bit offsets.
  const common::matrix_limits any_shape{0, false, 64, false};
  step.variants = {
      {"", launch, any_shape},
      {"narrow kernel up to 8", launch_variant<8>, any_shape},
      {"no narrow kernel", launch_variant<0>, any_shape},
      {"tiles along rows first", launch_variant<NARROW_SIDE, ALONG_FIRST>, any_shape},
      {"both sides realigned", launch_variant<NARROW_SIDE, DOWN_FIRST, false>, any_shape},
  };
  step.sweep_help =
      "also measure the narrow kernel for sides of at most 8 floats instead of 16, and 64 x 64 "
      "tiles for every shape (no narrow kernel), and the tiles in transpose_fast's order (along "
      "the rows of tiles first), and both sides realigned where only the input rows need it";
  return common::run_matrix_program(argc, argv, step);
}
