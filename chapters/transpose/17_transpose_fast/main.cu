// The transpose_fast program; common/transpose/program.cuh does the contract. --sweep measures
// the variants of transpose_fast::variants(): the choices the default was picked from.
#include "common/transpose/program.cuh"
#include "transpose_fast.cuh"

int main(int argc, char** argv) {
  using namespace transpose_fast;
  common::matrix_step step;
  step.step = "transpose_fast";
  step.summary =
      "64 x 64 swizzled tile, 4 x 4 register transpose, bulk stores (fast when rows and "
      "cols are multiples of 64)";
  step.result = common::matrix_result::transpose;
  step.variants = variants();
  step.sweep_help =
      "also measure the choices the default was picked from: stores from registers (evict-first "
      "or plain) instead of bulk copies, and the guarded one-float-at-a-time path for every tile";
  return common::run_matrix_program(argc, argv, step);
}
