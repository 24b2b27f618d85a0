// scan_pipelined: the program (common/scan/program.cu does input, reference, checks, timing, CUB).
// --sweep (or --variant) measures other tile shapes, stage counts and look-back windows.
#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "variants.cuh"

int main(int argc, char** argv) {
  return common::run_scan_program(
      argc, argv,
      {"scan_pipelined",
       "exclusive (or inclusive) scan of any n in one pass: decoupled look-back over tiles, the "
       "next tiles' loads in flight (bulk copies into shared stages) while one tile looks back",
       common::MAX_N, scan_pipelined::variants(),
       "also measure other tile shapes, stage counts and look-back windows (threads x elements "
       "per thread, tiles in flight per block, tiles read per window)"});
}
