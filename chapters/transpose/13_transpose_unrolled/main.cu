// The transpose_unrolled program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_unrolled.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "transpose_unrolled",
                                    "the conflict-free transpose with #pragma unroll (source 004)",
                                    common::matrix_result::transpose, transpose_unrolled::launch);
}
