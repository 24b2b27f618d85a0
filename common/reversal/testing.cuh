// doctest helpers of the reversal part: one launch against the CPU reference, with poisoned
// guard elements before and after the output that must come back untouched; and a check done on
// the GPU itself for arrays too large to copy back comfortably (n > 2^31).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/random.hpp"
#include "common/reversal/program.cuh"
#include "common/reversal/reference.hpp"
#include "common/testing.hpp"
#include "common/verify.hpp"

namespace common::testing {

constexpr std::int64_t GUARD = 19;  // poisoned elements after the output (and before, at offsets)

template <class T>
using out_of_place_launch = std::function<void(const T*, T*, std::int64_t)>;
template <class T>
using in_place_launch = std::function<void(T*, std::int64_t)>;

// The output buffer: `offset` poisoned elements, the result (must equal want), GUARD poisoned ones.
template <class T>
check_result compare_with_guards(const device_buffer<T>& d, std::int64_t offset,
                                 const std::vector<T>& want) {
  const std::vector<T> all = d.download();
  const std::vector<T> window(all.begin() + offset, all.begin() + offset + want.size());
  check_result r = compare_exact("output", window, want);
  const std::vector<unsigned char> poison(std::size_t(offset + GUARD) * sizeof(T),
                                          poison_byte<T>());
  const bool before_ok = std::memcmp(all.data(), poison.data(), offset * sizeof(T)) == 0;
  const bool after_ok =
      std::memcmp(all.data() + offset + want.size(), poison.data(), GUARD * sizeof(T)) == 0;
  if (!before_ok || !after_ok) {
    ++r.mismatches;
    r.first.push_back({0,
                       before_ok ? "a guard after the output overwritten"
                                 : "a guard before the output overwritten",
                       "guards untouched"});
  }
  return r;
}

// d_out[n - 1 - i] = d_in[i] with d_in and d_out at the given element offsets from cudaMalloc's
// 256-byte-aligned pointers.
template <class T>
check_result check_out_of_place(const out_of_place_launch<T>& launch, std::int64_t n,
                                std::uint64_t seed, std::int64_t in_offset = 0,
                                std::int64_t out_offset = 0) {
  const std::vector<T> input = reversal_input<T>(std::size_t(n), seed);
  const std::vector<T> want = reversed(input);
  device_buffer<T> d_in(n + in_offset + GUARD), d_out(n + out_offset + GUARD);
  d_in.poison();
  d_out.poison();
  if (n > 0)
    CUDA_CHECK(
        cudaMemcpy(d_in.data() + in_offset, input.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  launch(d_in.data() + in_offset, d_out.data() + out_offset, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  return compare_with_guards(d_out, out_offset, want);
}

// d_data[0, n) reversed in place, d_data at the given element offset.
template <class T>
check_result check_in_place(const in_place_launch<T>& launch, std::int64_t n, std::uint64_t seed,
                            std::int64_t offset = 0) {
  const std::vector<T> input = reversal_input<T>(std::size_t(n), seed);
  const std::vector<T> want = reversed(input);
  device_buffer<T> d_data(n + offset + GUARD);
  d_data.poison();
  if (n > 0)
    CUDA_CHECK(
        cudaMemcpy(d_data.data() + offset, input.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  launch(d_data.data() + offset, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  return compare_with_guards(d_data, offset, want);
}

// Every size of reversal_test_sizes(block), plus `extra`, a different seed per size.
template <class T>
void check_out_of_place_sizes(const out_of_place_launch<T>& launch, std::int64_t block,
                              std::vector<std::int64_t> extra = {}) {
  std::vector<std::int64_t> sizes = reversal_test_sizes(block);
  sizes.insert(sizes.end(), extra.begin(), extra.end());
  std::uint64_t seed = 100;
  for (const std::int64_t n : sizes) {
    const check_result r = check_out_of_place<T>(launch, n, seed++);
    INFO(type_name<T>(), " n=", n, " ", describe(r));
    CHECK(r.ok());
  }
}

template <class T>
void check_in_place_sizes(const in_place_launch<T>& launch, std::int64_t block,
                          std::vector<std::int64_t> extra = {}) {
  std::vector<std::int64_t> sizes = reversal_test_sizes(block);
  sizes.insert(sizes.end(), extra.begin(), extra.end());
  std::uint64_t seed = 200;
  for (const std::int64_t n : sizes) {
    const check_result r = check_in_place<T>(launch, n, seed++);
    INFO(type_name<T>(), " n=", n, " ", describe(r));
    CHECK(r.ok());
  }
}

// Calls queue(first, second) `rounds` times with two non-blocking streams (the tests of a launch's
// stream argument: launches queued on both, no synchronization between them), then waits for both.
inline void on_two_streams(
    int rounds, const std::function<void(cudaStream_t first, cudaStream_t second)>& queue) {
  cudaStream_t first = nullptr, second = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  for (int round = 0; round < rounds; ++round) queue(first, second);
  CUDA_CHECK(cudaStreamSynchronize(first));
  CUDA_CHECK(cudaStreamSynchronize(second));
  CUDA_CHECK(cudaStreamDestroy(first));
  CUDA_CHECK(cudaStreamDestroy(second));
}

// For n past 2^31: the input is made on the GPU and the output is checked there. Element i is a
// multiplicative hash of (i, seed): neighbours differ, so an element moved by one place is caught.
__host__ __device__ inline std::int32_t large_test_value(std::int64_t i, std::uint64_t seed) {
  return std::int32_t(((std::uint64_t(i) ^ seed) * 0x9E3779B97F4A7C15ull) >> 29);
}
static __global__ void fill_mixed(std::int32_t* data, std::int64_t n, std::uint64_t seed) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = large_test_value(i, seed);
}
static __global__ void count_wrong(const std::int32_t* out, std::int64_t n, std::uint64_t seed,
                                   unsigned long long* wrong) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    mine += out[n - 1 - i] != large_test_value(i, seed);
  if (mine) atomicAdd(wrong, mine);
}

// Returns the number of wrong elements (0: correct). Pass exactly one of copy and in_place.
inline unsigned long long wrong_elements_on_device(const out_of_place_launch<std::int32_t>& copy,
                                                   const in_place_launch<std::int32_t>& in_place,
                                                   std::int64_t n, std::uint64_t seed) {
  device_buffer<std::int32_t> d_a(n), d_b(copy ? n : 0);
  device_buffer<unsigned long long> d_wrong(1);
  CUDA_CHECK(cudaMemset(d_wrong.data(), 0, sizeof(unsigned long long)));
  fill_mixed<<<4096, 256>>>(d_a.data(), n, seed);
  CUDA_CHECK_LAUNCH();
  if (copy) {
    d_b.poison();
    copy(d_a.data(), d_b.data(), n);
  } else {
    in_place(d_a.data(), n);
  }
  CUDA_CHECK_LAUNCH();
  count_wrong<<<4096, 256>>>(copy ? d_b.data() : d_a.data(), n, seed, d_wrong.data());
  CUDA_CHECK_LAUNCH();
  return d_wrong.download()[0];
}

}  // namespace common::testing
