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
          {checked<std::int32_t, launch_variant<std::int32_t, UNROLL_GROUPS, HINTS>>, {}},
          {checked<float, launch_variant<float, UNROLL_GROUPS, HINTS>>, {}},
          {checked<std::int64_t, launch_variant<std::int64_t, UNROLL_GROUPS, HINTS>>, {}}};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace reverse_fast;
  common::reversal_step step;
  step.step = "reverse_fast";
  step.summary = "16-byte groups, streaming stores; any n, element type and offset; 64-bit indices";
  static_assert(UNROLL == 1, "the default variant's name says 1");
  // The default: the step's launch(), which takes the 16-byte kernel of "unroll 1" past
  // ELEMENTS_MAX_N elements (every size of the bench) and the element kernel up to it.
  step.variants = {
      {"unroll 1",
       {checked<std::int32_t, launch<std::int32_t>>, {}},
       {checked<float, launch<float>>, {}},
       {checked<std::int64_t, launch<std::int64_t>>, {}}},
      variant<2, STREAMING_STORES>("unroll 2"),
      variant<4, STREAMING_STORES>("unroll 4"),
      variant<8, STREAMING_STORES>("unroll 8"),
      variant<UNROLL, PLAIN_STORES>("unroll 1, plain stores"),
      variant<UNROLL, STREAMING_BOTH>("unroll 1, streaming loads"),
  };
  step.sweep_help =
      "also measure the choices the default was picked from: 2, 4 or 8 groups per thread, plain "
      "stores instead of streaming ones, streaming loads too";
  step.max_n = common::MAX_N;  // 64-bit indices
  step.any_alignment = true;
  return common::run_reversal_program(argc, argv, step);
}
