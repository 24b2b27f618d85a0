// The transpose_no_bank_conflicts program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_no_bank_conflicts.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_no_bank_conflicts",
                                    "transpose through a tile padded to 33 columns (source 002)",
                                    common::matrix_result::transpose,
                                    transpose_no_bank_conflicts::launch);
}
