#include "common/bandwidth.hpp"
#include "common/device_buffer.cuh"
#include "common/yardsticks.cuh"

namespace common {
namespace {

constexpr int READ_BLOCK_THREADS = 256;
constexpr int READ_UNROLL = 4;  // independent 16-byte loads in flight per thread

// Reads every float4 once (grid-stride, coalesced) and adds them up. The sum is written only if it
// equals a value no input produces, so the compiler must keep the loads but nothing is stored.
__global__ void read_only_kernel(const float4* __restrict__ in, std::size_t count,
                                 float* __restrict__ never_written) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc = 0;
  for (; i + (READ_UNROLL - 1) * stride < count; i += READ_UNROLL * stride) {
    float4 v[READ_UNROLL];
#pragma unroll
    for (int u = 0; u < READ_UNROLL; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < READ_UNROLL; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < count; i += stride) {
    const float4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == -1.0f) *never_written = acc;  // inputs are zero: acc is 0, never -1
}

}  // namespace

yardsticks measure_yardsticks(std::size_t bytes, const timing_options& options,
                              l2_flusher& flusher) {
  yardsticks y;
  y.bytes = bytes;
  if (bytes == 0) return y;
  const std::size_t float4_count = (bytes + sizeof(float4) - 1) / sizeof(float4);
  device_buffer<float4> src(float4_count), dst(float4_count);
  device_buffer<float> sink(1);
  CUDA_CHECK(cudaMemset(src.data(), 0, src.bytes()));
  CUDA_CHECK(cudaMemset(sink.data(), 0, sink.bytes()));

  auto nothing = [] {};
  y.copy_time = time_repeated(options, flusher, nothing, [&] {
    CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  y.copy_gbps = gb_per_s(2.0 * double(bytes), y.copy_time.median_ms);

  int device = 0, sm_count = 0, blocks_per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, read_only_kernel,
                                                           READ_BLOCK_THREADS, 0));
  const std::size_t needed = (float4_count + READ_BLOCK_THREADS - 1) / READ_BLOCK_THREADS;
  const int blocks = int(std::min<std::size_t>(needed, std::size_t(sm_count) * blocks_per_sm));
  y.read_time = time_repeated(options, flusher, nothing, [&] {
    read_only_kernel<<<blocks, READ_BLOCK_THREADS>>>(src.data(), float4_count, sink.data());
    CUDA_CHECK_LAUNCH();
  });
  y.read_gbps = gb_per_s(double(float4_count * sizeof(float4)), y.read_time.median_ms);
  return y;
}

}  // namespace common
