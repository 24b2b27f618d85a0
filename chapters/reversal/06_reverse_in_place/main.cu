// The reverse_in_place program; common/reversal/program.cuh does the contract (each timed run
// starts from the input again, copied in before the L2 flush). --sweep measures the choices the
// default was picked from; --offset moves the array off 16 bytes.
#include "common/program.cuh"
#include "common/reversal/program.cuh"
#include "reverse_in_place.cuh"

namespace {

template <int UNROLL_GROUPS, int HINTS, int EXCHANGE>
common::reversal_variant variant(const char* name) {
  using namespace reverse_in_place;
  return {
      name,
      {{}, checked<std::int32_t, launch_variant<std::int32_t, UNROLL_GROUPS, HINTS, EXCHANGE>>},
      {{}, checked<float, launch_variant<float, UNROLL_GROUPS, HINTS, EXCHANGE>>},
      {{}, checked<std::int64_t, launch_variant<std::int64_t, UNROLL_GROUPS, HINTS, EXCHANGE>>}};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace reverse_in_place;
  common::reversal_step step;
  step.step = "reverse_in_place";
  step.summary = "one array reversed in place: aligned front groups swap with shifted back windows";
  static_assert(UNROLL == 1, "the default variant's name says 1");
  // The default: the step's launch(), which takes the 16-byte kernel of "unroll 1" past SMALL_N
  // elements (every size of the bench) and the small kernel up to it.
  step.variants = {
      {"unroll 1",
       {{}, checked<std::int32_t, launch<std::int32_t>>},
       {{}, checked<float, launch<float>>},
       {{}, checked<std::int64_t, launch<std::int64_t>>}},
      variant<2, STREAMING_STORES, BLOCK_SHARED>("unroll 2"),
      variant<4, STREAMING_STORES, BLOCK_SHARED>("unroll 4"),
      variant<UNROLL, PLAIN_STORES, BLOCK_SHARED>("unroll 1, plain stores"),
      variant<UNROLL, STREAMING_STORES, WARP_SHUFFLES>("unroll 1, warp shuffles"),
      variant<4, STREAMING_STORES, WARP_SHUFFLES>("unroll 4, warp shuffles"),
  };
  step.sweep_help =
      "also measure the choices the default was picked from: 2 or 4 groups per thread, plain "
      "stores instead of streaming ones, and the exchange by warp shuffles instead of shared "
      "memory";
  step.max_n = common::MAX_N;  // 64-bit indices
  step.any_alignment = true;
  return common::run_reversal_program(argc, argv, step);
}
