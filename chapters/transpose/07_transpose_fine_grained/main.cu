// The transpose_fine_grained program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_fine_grained.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "transpose_fine_grained",
      "half a transpose: tiles transposed in the copy's place (source 002)",
      common::matrix_result::tiles_transposed, transpose_fine_grained::launch);
}
