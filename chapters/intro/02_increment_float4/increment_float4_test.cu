// increment_float4: tests. GPU: every edge size, each vector count, several block sizes, aligned
// and misaligned arrays; the random elements before and after the array must stay untouched.
#include <vector>

#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/testing.hpp"
#include "common/verify.hpp"
#include "increment_float4.cuh"

HOST_TEST_CASE("increment_float4 CPU reference and launch limits") {
  std::vector<float> data{1.0f, -1.0f};
  increment_float4::increment_cpu(data.data(), 2);
  CHECK(data == std::vector<float>{2.0f, 0.0f});
  CHECK(increment_float4::max_elements(256, 2) == std::int64_t(0x7FFFFFFF) * 256 * 8);
}

GPU_TEST_CASE("increment_float4 matches the CPU for every vector count and alignment") {
  constexpr std::int64_t GUARD = 41;
  for (const int vectors : {1, 2, 4}) {
    for (const int block : {256, 32, 1000}) {
      for (const std::int64_t n : common::testing::edge_sizes(block * vectors * 4)) {
        for (const int offset : {0, 1, 3}) {  // 0: 16-byte aligned; 1 and 3: not
          CAPTURE(vectors);
          CAPTURE(block);
          CAPTURE(n);
          CAPTURE(offset);
          std::vector<float> data = common::random_floats(n + offset + GUARD, 5 + n, -50, 50);
          std::vector<float> want = data;
          increment_float4::increment_cpu(want.data() + offset, n);
          common::device_buffer<float> d_data(data.size());
          d_data.upload(data);
          increment_float4::launch_vectors(vectors, d_data.data() + offset, n, block);
          CUDA_CHECK(cudaDeviceSynchronize());
          const auto r = common::compare_exact("output", d_data.download(), want);
          INFO(common::describe(r));
          CHECK(r.ok());
        }
      }
    }
  }
}
