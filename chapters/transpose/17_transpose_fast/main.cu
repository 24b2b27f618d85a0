// The transpose_fast program; common/transpose/program.cuh does the contract. --sweep measures
// the choices the default was picked from.
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
  // No grid limit (tall matrices take several launches) and 64-bit offsets.
  const common::matrix_limits any_shape{0, false, 64, false};
  step.variants = {
      {"", launch, any_shape},
      {"streaming stores", launch_variant<true, STREAMING_STORES>, any_shape},
      {"plain stores", launch_variant<true, PLAIN_STORES>, any_shape},
      {"guarded path only", launch_variant<false, BULK_STORES>, any_shape},
  };
  step.sweep_help =
      "also measure the choices the default was picked from: stores from registers (evict-first "
      "or plain) instead of bulk copies, and the guarded one-float-at-a-time path for every tile";
  return common::run_matrix_program(argc, argv, step);
}
