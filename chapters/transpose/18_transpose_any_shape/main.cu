// The transpose_any_shape program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_any_shape.cuh"

int main(int argc, char** argv) {
  // No grid limit (tall matrices take several launches) and 64-bit offsets.
  const common::matrix_limits any_shape{0, false, 64, false};
  return common::run_matrix_program(
      argc, argv, "transpose_any_shape",
      "every-shape transpose: 16-byte accesses at any alignment, one launch, vectors copied",
      common::matrix_result::transpose, transpose_any_shape::launch, any_shape);
}
