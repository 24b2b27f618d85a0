// The transpose_diagonal program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_diagonal.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_diagonal",
                                    "transpose with diagonal block reordering (source 002)",
                                    common::matrix_result::transpose, transpose_diagonal::launch);
}
