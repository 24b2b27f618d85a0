// The copy_shared program; common/transpose/program.cuh does the contract.
#include "common/transpose/program.cuh"
#include "copy_shared.cuh"

int main(int argc, char** argv) {
  return common::run_matrix_program(argc, argv, "copy_shared",
                                    "copy through a shared-memory tile and a barrier (source 002)",
                                    common::matrix_result::copy, copy_shared::launch);
}
