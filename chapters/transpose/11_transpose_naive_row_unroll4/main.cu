// The transpose_naive_row_unroll4 program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_naive_row_unroll4.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "transpose_naive_row_unroll4",
      "naive transpose, 4 columns per thread, loads first (source 003)",
      common::matrix_result::transpose, transpose_naive_row_unroll4::launch,
      common::matrix_limits{transpose_naive_row_unroll4::BLOCK_ROWS, false});
}
