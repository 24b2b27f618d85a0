// The transpose_coalesced program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_coalesced.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_coalesced",
                                    "transpose through a 32 x 32 shared tile (source 002)",
                                    common::matrix_result::transpose, transpose_coalesced::launch);
}
