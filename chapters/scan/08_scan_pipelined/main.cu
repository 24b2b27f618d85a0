// scan_pipelined: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
// --sweep (or --variant) measures other tile shapes, stage counts and look-back windows.
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_pipelined.cuh"

int main(int argc, char** argv) {
  using scan_pipelined::pipeline_variant;
  static_assert(scan_pipelined::default_shape::BLOCK_THREADS == 256 &&
                    scan_pipelined::default_shape::VECTORS == 8 &&
                    scan_pipelined::DEFAULT_STAGES == 7 && scan_pipelined::DEFAULT_WINDOW == 32,
                "variants[0] is the default");
  return common::run_scan_program(
      argc, argv,
      {"scan_pipelined",
       "exclusive (or inclusive) scan of any n in one pass: decoupled look-back over tiles, the "
       "next tiles' loads in flight (bulk copies into shared stages) while one tile looks back",
       common::MAX_N,
       {pipeline_variant<256, 8, 7>(), pipeline_variant<256, 8, 6>(), pipeline_variant<256, 8, 3>(),
        pipeline_variant<512, 4, 7>(), pipeline_variant<256, 8, 7, 64>(),
        pipeline_variant<256, 8, 7, 128>(), pipeline_variant<256, 4, 7>(),
        pipeline_variant<256, 4, 4>(), pipeline_variant<128, 8, 7>(),
        pipeline_variant<256, 2, 12>(), pipeline_variant<512, 8, 3>()},
       "also measure other tile shapes, stage counts and look-back windows (threads x elements "
       "per thread, tiles in flight per block, tiles read per window)"});
}
