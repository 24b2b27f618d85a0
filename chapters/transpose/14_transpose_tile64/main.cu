// The transpose_tile64 program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_tile64.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "transpose_tile64",
      "transpose through a 64 x 65 tile, transposed on the way in (source 000)",
      common::matrix_result::transpose, transpose_tile64::launch,
      common::matrix_limits{transpose_tile64::TILE_DIM, false});
}
