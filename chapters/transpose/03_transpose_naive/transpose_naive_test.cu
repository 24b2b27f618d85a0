// transpose_naive: tests. Host: what this step adds. GPU: every test shape (1 x 1, 1 x 1000, 1000 x
// 1, 31 x 33, 33 x 31, 2048^2, 4097 x 1023, 16384^2, ...) into a poisoned output, checked exactly.
#include <vector>

#include "common/transpose/testing.hpp"
#include "transpose_naive.cuh"

HOST_TEST_CASE("the CPU reference transposes a 2 x 3 matrix") {
  const float in[6] = {1, 2, 3, 4, 5, 6};
  float out[6] = {};
  common::transpose_reference(in, out, 2, 3);
  CHECK(std::vector<float>(out, out + 6) == std::vector<float>{1, 4, 2, 5, 3, 6});
}

GPU_TEST_CASE("transpose_naive equals the CPU transpose at every test shape") {
  common::testing::check_matrix_shapes(transpose_naive::launch, common::matrix_result::transpose);
}
