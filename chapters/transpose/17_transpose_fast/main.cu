// The transpose_fast program; common/transpose_program.cuh does the contract. --sweep measures
// the tile and access-width choices the default was picked from.
#include "common/transpose_program.cuh"
#include "transpose_fast.cuh"

int main(int argc, char** argv) {
  common::matrix_step step;
  step.step = "transpose_fast";
  step.summary = "any-shape transpose: 64 x 64 swizzled tile, float4 accesses where legal";
  step.result = common::matrix_result::transpose;
  // No grid limit (the kernel loops over rows of tiles) and 64-bit offsets.
  const common::matrix_limits any_shape{0, false, 64, false};
  step.variants = {
      {"", transpose_fast::launch, any_shape},
      {"no pipeline", transpose_fast::launch_variant<64, false>, any_shape},
      {"streaming stores", transpose_fast::launch_variant<64, true, true>, any_shape},
      {"tile=32", transpose_fast::launch_variant<32>, any_shape},
      {"tile=64 scalar", transpose_fast::launch_variant<64, true, false, false>, any_shape},
      {"streaming, no pipeline", transpose_fast::launch_variant<64, false, true>, any_shape},
      {"streaming loads+stores", transpose_fast::launch_variant<64, true, true, true, true>,
       any_shape},
      {"streaming, 2 blocks/SM", transpose_fast::launch_variant<64, true, true, true, false, 2>,
       any_shape},
      {"streaming, 4 blocks/SM", transpose_fast::launch_variant<64, true, true, true, false, 4>,
       any_shape},
      {"streaming, tile=32", transpose_fast::launch_variant<32, true, true>, any_shape},
  };
  step.sweep_help =
      "also measure the default without its pipeline, with streaming stores, with a 32 x 32 tile, "
      "and without float4 accesses";
  return common::run_matrix_program(argc, argv, step);
}
