// The copy program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "copy.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "copy",
      "copy a float matrix in 32 x 32 tiles: the bound of every transpose (source 002)",
      common::matrix_result::copy, copy::launch);
}
