// The copy_col program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "copy_col.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(
      argc, argv, "copy_col", "copy reading and writing down columns: the lower bound (source 003)",
      common::matrix_result::copy, copy_col::launch,
      common::matrix_limits{copy_col::TILE_DIM, true});
}
