// The transpose_naive_col program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_naive_col.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_naive_col",
                                    "transpose: strided reads, coalesced writes (source 003)",
                                    common::matrix_result::transpose, transpose_naive_col::launch,
                                    common::matrix_limits{transpose_naive_col::TILE_DIM, true});
}
