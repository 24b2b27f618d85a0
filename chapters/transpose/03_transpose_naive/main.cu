// The transpose_naive program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_naive.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_naive",
                                    "transpose: coalesced reads, strided writes (source 002)",
                                    common::matrix_result::transpose, transpose_naive::launch);
}
