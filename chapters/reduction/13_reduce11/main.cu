// reduce11: the program (common/reduction/program.cu does input, reference, checks, timing, CUB).
// --sweep also measures the variants the page compares: eight loads in flight per thread, and the
// fixed shares (reduce8's runs of whole tiles, equal runs of 512-byte groups, strided tiles).
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
      {variant<reduce11::claimed>("split=claimed"), variant<reduce11::claimed_unroll8>("unroll=8"),
       variant<reduce11::tiles>("split=tiles"), variant<reduce11::groups>("split=groups"),
       variant<reduce11::strided>("split=strided")});
}
