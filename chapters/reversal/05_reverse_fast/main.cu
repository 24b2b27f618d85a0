// The reverse_fast program; common/reversal/program.cuh does the contract. --sweep measures the
// choices the default was picked from; --in-offset / --out-offset move the pointers off 16 bytes.
#include "common/program.cuh"
#include "common/reversal/program.cuh"
#include "reverse_fast.cuh"

namespace {

template <int UNROLL_GROUPS, int HINTS>
common::reversal_variant variant(const char* name) {
  using namespace reverse_fast;
  return {name,
          {launch_variant<std::int32_t, UNROLL_GROUPS, HINTS>, {}},
          {launch_variant<float, UNROLL_GROUPS, HINTS>, {}},
          {launch_variant<std::int64_t, UNROLL_GROUPS, HINTS>, {}}};
}

template <int LIMIT>
common::reversal_variant elements_variant(const char* name) {  // EXPERIMENT
  using namespace reverse_fast;
  return {name,
          {launch_elements_up_to<std::int32_t, LIMIT>, {}},
          {launch_elements_up_to<float, LIMIT>, {}},
          {launch_elements_up_to<std::int64_t, LIMIT>, {}}};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace reverse_fast;
  common::reversal_step step;
  step.step = "reverse_fast";
  step.summary = "16-byte groups, streaming stores; any n, element type and offset; 64-bit indices";
  static_assert(UNROLL == 1, "the default variant's name says 1");
  step.variants = {
      variant<UNROLL, STREAMING_STORES>("unroll 1"),
      variant<2, STREAMING_STORES>("unroll 2"),
      variant<4, STREAMING_STORES>("unroll 4"),
      variant<8, STREAMING_STORES>("unroll 8"),
      variant<UNROLL, PLAIN_STORES>("unroll 1, plain stores"),
      variant<UNROLL, STREAMING_BOTH>("unroll 1, streaming loads"),
      elements_variant<16384>("EXP elements up to 16384"),
      elements_variant<131072>("EXP elements up to 131072"),
  };
  step.sweep_help =
      "also measure the choices the default was picked from: 2, 4 or 8 groups per thread, plain "
      "stores instead of streaming ones, streaming loads too";
  step.max_n = common::MAX_N;  // 64-bit indices
  step.any_alignment = true;
  return common::run_reversal_program(argc, argv, step);
}
