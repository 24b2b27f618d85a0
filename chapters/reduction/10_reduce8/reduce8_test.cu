// reduce8: tests. Host: how an array splits into head, vectors and tail for every alignment and
// n % 4; the grid arithmetic. GPU: every edge size, both types, poisoned output and workspace
// (common/reduction/testing.cuh); d_in at every offset 0..3 from a 16-byte boundary with guards
// around the range; the sizes where the grid fills.
#include <climits>
#include <cstdint>

#include "common/reduction/testing.cuh"
#include "reduce8.cuh"
#include "reduce8_testing.cuh"

namespace {
// A fake address for the host tests: `elements` 4-byte elements past a 16-byte boundary.
const float* at(std::uintptr_t elements) {
  return reinterpret_cast<const float*>(std::uintptr_t(0x10000) + 4 * elements);
}
}  // namespace

HOST_TEST_CASE("reduce8 splits any array into a head of at most 3 then vectors then a tail") {
  for (int misaligned = 0; misaligned < 4; ++misaligned) {
    for (int n = 0; n <= 40; ++n) {
      const reduce8::vector_split s = reduce8::split_for_vectors(at(misaligned), n);
      CAPTURE(misaligned);
      CAPTURE(n);
      CHECK(s.head >= 0);
      CHECK(s.head <= 3);
      CHECK(s.vectors >= 0);
      CHECK(s.tail == s.head + 4 * s.vectors);
      CHECK(n - s.tail >= 0);
      CHECK(n - s.tail <= 3);
      if (s.vectors > 0) {  // the first vector starts on a 16-byte boundary
        CHECK((misaligned + s.head) % 4 == 0);
      }
      if (n >= 3 + 4) CHECK(s.vectors >= 1);  // no array that holds a whole vector is all scalars
    }
  }
  CHECK(reduce8::split_for_vectors(at(0), 8).head == 0);
  CHECK(reduce8::split_for_vectors(at(1), 8).head == 3);
  CHECK(reduce8::split_for_vectors(at(1), 2).head == 2);  // all head, no vector, no tail
  CHECK(reduce8::split_for_vectors(at(1), 2).tail == 2);
  CHECK(reduce8::split_for_vectors(at(3), 1 << 28).vectors == ((1 << 28) - 1) / 4);
  CHECK(reduce8::split_for_vectors(at(0), INT_MAX).vectors == INT_MAX / 4);
}

HOST_TEST_CASE("reduce8 uses one block per tile up to the grid limit and at least one") {
  constexpr int T = reduce8::TILE_ELEMENTS;
  CHECK(reduce8::grid_for(0, 1056) == 1);
  CHECK(reduce8::grid_for(1, 1056) == 1);
  CHECK(reduce8::grid_for(T, 1056) == 1);
  CHECK(reduce8::grid_for(T + 1, 1056) == 2);
  CHECK(reduce8::grid_for(1 << 16, 1056) == (1 << 16) / T);  // 8 with the default constants
  CHECK(reduce8::grid_for(1 << 22, 1 << 20) == (1 << 22) / T);
  CHECK(reduce8::grid_for((1 << 28) + 3, 1056) == 1056);
  CHECK(reduce8::grid_for(INT_MAX, 1056) == 1056);  // no overflow in the rounding up
  // The second pass of any n is one block while the limit is at most a tile.
  CHECK(reduce8::grid_for(T, T) == 1);
}

namespace {
const common::reduction_step step = {"reduce8", "", reduce8::workspace_elements,
                                     reduce8::launch<std::int32_t>, reduce8::launch<float>};
}

GPU_TEST_CASE("reduce8 sums int32 and float at every edge size") {
  common::testing::check_reduction_step(step, reduce8::BLOCK_THREADS);
}

GPU_TEST_CASE("reduce8 sums d_in at offsets 0 to 3 with every n mod 4 and reads no guard") {
  reduction_vector_testing::check_heads_and_tails(step, reduce8::TILE_ELEMENTS,
                                                  reduce8::grid_limit());
}

GPU_TEST_CASE("reduce8 fills the GPU once and sums where the grid fills") {
  const int grid = reduce8::grid_limit();
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  INFO("grid limit ", grid, " on ", sms, " SMs");
  CHECK(grid >= sms);
  CHECK(grid % sms == 0);
  const int full = reduce8::TILE_ELEMENTS * grid;  // n from which every block of the grid runs
  common::testing::check_reduction_sizes(step, {full - 1, full, full + 1, 2 * full + 4 * 256 + 3});
}
