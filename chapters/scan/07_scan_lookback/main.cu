// scan_lookback: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
// --sweep (or --variant) measures other tile shapes: threads per block x elements per thread.
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_lookback.cuh"

int main(int argc, char** argv) {
  using scan_lookback::shape_variant;
  static_assert(scan_lookback::default_shape::BLOCK_THREADS == 128 &&
                    scan_lookback::default_shape::VECTORS == 8 &&
                    scan_lookback::DEFAULT_WINDOW == 32,
                "variants[0] is the default");
  return common::run_scan_program(
      argc, argv,
      {"scan_lookback",
       "exclusive (or inclusive) scan of any n in one pass: decoupled look-back over tiles",
       common::MAX_N,
       {shape_variant<128, 8, 32>(), shape_variant<256, 4, 32>(), shape_variant<256, 4, 256>(),
        shape_variant<128, 8, 256>(), shape_variant<128, 8, 128>(), shape_variant<256, 8, 256>(),
        shape_variant<256, 6, 256>(), shape_variant<128, 4, 256>()},
       "also measure other tile shapes and look-back windows (threads x elements per thread, "
       "tiles read per window)"});
}
