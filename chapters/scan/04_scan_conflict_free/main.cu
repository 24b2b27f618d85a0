// scan_conflict_free: the program (common/scan/program.cu does input, reference, checks, timing,
// CUB). --sweep (or --variant) also runs the unpadded tree and the miscopied macro's padding, for
// the bank-conflict counters of chapters/scan/tools/gpu_checks.sh.
#include "common/scan/program.cuh"
#include "scan_conflict_free.cuh"

int main(int argc, char** argv) {
  using scan_conflict_free::launch;
  using scan_conflict_free::padding;
  return common::run_scan_program(
      argc, argv,
      {"scan_conflict_free",
       "exclusive scan in one block: work-efficient, tree padded against bank conflicts (n <= "
       "2048)",
       scan_conflict_free::MAX_N,
       {common::variant_of("padding=correct", launch<std::int32_t, padding::correct>,
                           launch<float, padding::correct>),
        common::variant_of("padding=none", launch<std::int32_t, padding::none>,
                           launch<float, padding::none>),
        common::variant_of("padding=miscopied", launch<std::int32_t, padding::miscopied>,
                           launch<float, padding::miscopied>)},
       "also run the tree without padding and with the miscopied macro's padding"});
}
