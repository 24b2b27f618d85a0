// The transpose_coarse_grained program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "transpose_coarse_grained.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "transpose_coarse_grained",
      "half a transpose: tiles to their transposed place, untransposed (source 002)",
      common::matrix_result::tiles_moved, transpose_coarse_grained::launch);
}
