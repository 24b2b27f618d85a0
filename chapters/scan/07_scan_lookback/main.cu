// scan_lookback: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
// --sweep (or --variant) measures other tile shapes: threads per block x elements per thread.
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_lookback.cuh"

int main(int argc, char** argv) {
  static_assert(scan_lookback::default_shape::BLOCK_THREADS == 256 &&
                    scan_lookback::default_shape::VECTORS == 4,
                "variants[0] is the default shape");
  return common::run_scan_program(
      argc, argv,
      {"scan_lookback",
       "exclusive (or inclusive) scan of any n in one pass: decoupled look-back over tiles",
       common::MAX_N,
       {scan_lookback::shape_variant<256, 4>(), scan_lookback::shape_variant<128, 4>(), scan_lookback::shape_variant<256, 2>(), scan_lookback::shape_variant<512, 2>(),
        scan_lookback::shape_variant<256, 6>(), scan_lookback::shape_variant<128, 8>()},
       "also measure other tile shapes (threads per block x elements per thread)"});
}
