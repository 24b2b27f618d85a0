// scan_lookback: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
// --sweep (or --variant) measures other tile shapes: threads per block x elements per thread.
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "scan_lookback.cuh"

int main(int argc, char** argv) {
  return common::run_scan_program(
      argc, argv,
      {"scan_lookback",
       "exclusive (or inclusive) scan of any n in one pass: decoupled look-back over tiles",
       common::MAX_N, scan_lookback::variants(),
       "also measure other tile shapes and look-back windows (threads x elements per thread, "
       "tiles read per window)"});
}
