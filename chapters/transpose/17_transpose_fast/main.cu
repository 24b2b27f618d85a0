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
      {"pipeline", transpose_fast::launch_variant<64, true, true>, any_shape},
      {"plain stores", transpose_fast::launch_variant<64, false, false>, any_shape},
      {"plain stores, pipeline", transpose_fast::launch_variant<64, true, false>, any_shape},
      {"streaming loads too", transpose_fast::launch_variant<64, false, true, true, true>,
       any_shape},
      {"2 blocks/SM", transpose_fast::launch_variant<64, false, true, true, false, 2>, any_shape},
      {"4 blocks/SM", transpose_fast::launch_variant<64, false, true, true, false, 4>, any_shape},
      {"tile=32", transpose_fast::launch_variant<32, false, true>, any_shape},
      {"scalar accesses", transpose_fast::launch_variant<64, false, true, false>, any_shape},
  };
  step.sweep_help =
      "also measure the choices the default was picked from: the load pipeline, plain stores, "
      "streaming loads, 2 or 4 blocks per SM, a 32 x 32 tile, no float4 accesses";
  return common::run_matrix_program(argc, argv, step);
}
