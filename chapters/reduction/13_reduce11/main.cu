// reduce11: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
// --sweep also measures the variants the page compares: reduce8's split into whole tiles, eight
// loads in flight per thread, and loads that bypass L1 and fetch 256 bytes into L2.
#include "common/reduction/program.cuh"
#include "reduce11.cuh"

namespace {
template <class V>
common::reduction_step_64 variant(const char* name) {
  return {"reduce11",
          "sum reduction of any n that fits in device memory, one launch",
          reduce11::workspace_elements<V>,
          reduce11::launch<std::int32_t, V>,
          reduce11::launch<float, V>,
          name};
}
}  // namespace

int main(int argc, char** argv) {
  return common::run_reduction_program(
      argc, argv,
      {variant<reduce11::groups>("split=groups"), variant<reduce11::tiles>("split=tiles"),
       variant<reduce11::groups_unroll8>("unroll=8"),
       variant<reduce11::groups_streaming>("loads=L2::256B")});
}
