// A large device array to and from the host a chunk at a time, through one pinned buffer: the
// host never holds all of it (2^31 floats are 8.6 GB), each chunk is made or checked on all host
// cores, and a pinned copy needs no staging by the driver.
//   upload_generated(d, n, make)             d[i] = make(i)
//   compare_device_elements(what, d, n, ...) the elements of d that are wrong, as a host check
//                                            (compare_elements) reports them
//   compare_device_exact(what, d, want, n)   d against a host array, as compare_exact checks two
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "common/check.cuh"
#include "common/parallel.hpp"
#include "common/verify.hpp"

namespace common {

constexpr std::size_t DEVICE_CHUNK_BYTES = std::size_t(256) << 20;

// Page-locked host memory for `count` elements of T (cudaMallocHost), freed on destruction.
template <class T>
class pinned_chunk {
 public:
  explicit pinned_chunk(std::size_t count) {
    CUDA_CHECK(cudaMallocHost(&data_, std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  ~pinned_chunk() { cudaFreeHost(data_); }  // no check: may run during exit after an error
  pinned_chunk(const pinned_chunk&) = delete;
  pinned_chunk& operator=(const pinned_chunk&) = delete;
  T& operator[](std::size_t i) { return data_[i]; }
  T* data() { return data_; }

 private:
  T* data_ = nullptr;
};

// Elements per chunk of chunk_bytes (at least one, at most n).
template <class T>
std::size_t chunk_elements(std::size_t n, std::size_t chunk_bytes) {
  return std::min(n, std::max<std::size_t>(1, chunk_bytes / sizeof(T)));
}

// d_data[i] = make(i) for i in [0, n) (chunk_bytes: the pinned buffer's size; the tests make it
// small).
template <class T, class Make>
void upload_generated(T* d_data, std::size_t n, Make make,
                      std::size_t chunk_bytes = DEVICE_CHUNK_BYTES) {
  if (n == 0) return;
  const std::size_t chunk = chunk_elements<T>(n, chunk_bytes);
  pinned_chunk<T> host(chunk);
  for (std::size_t begin = 0; begin < n; begin += chunk) {
    const std::size_t count = std::min(chunk, n - begin);
    parallel_ranges(count, MIN_ITEMS_PER_THREAD,
                    [&](std::size_t, std::size_t from, std::size_t to) {
                      for (std::size_t j = from; j < to; ++j) host[j] = make(begin + j);
                    });
    CUDA_CHECK(cudaMemcpy(d_data + begin, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  }
}

// The elements i in [0, n) of d_data for which wrong(i, got) holds, got being the element's
// value: their count and the first few as describe(i, got), as compare_elements() reports them.
template <class T, class Wrong, class Describe>
check_result compare_device_elements(const std::string& what, const T* d_data, std::size_t n,
                                     Wrong wrong, Describe describe_element,
                                     std::size_t chunk_bytes = DEVICE_CHUNK_BYTES) {
  check_result r{what, n, 0, {}};
  if (n == 0) return r;
  const std::size_t chunk = chunk_elements<T>(n, chunk_bytes);
  pinned_chunk<T> host(chunk);
  for (std::size_t begin = 0; begin < n; begin += chunk) {
    const std::size_t count = std::min(chunk, n - begin);
    CUDA_CHECK(cudaMemcpy(host.data(), d_data + begin, count * sizeof(T), cudaMemcpyDeviceToHost));
    add_part(r, compare_elements(
                    what, count, [&](std::size_t j) { return wrong(begin + j, host[j]); },
                    [&](std::size_t j) { return describe_element(begin + j, host[j]); }));
  }
  return r;
}

// d_got[i] == want[i] for i in [0, n), as compare_exact() checks two host arrays, without a host
// copy of d_got (a 2^31-element output would need one of 8.6 GB or more, first touched by one
// thread).
template <class T>
check_result compare_device_exact(const std::string& what, const T* d_got, const T* want,
                                  std::size_t n, std::size_t chunk_bytes = DEVICE_CHUNK_BYTES) {
  return compare_device_elements(
      what, d_got, n, [&](std::size_t i, const T& got) { return !(got == want[i]); },
      [&](std::size_t i, const T& got) {
        return mismatch{i, show_value(got), show_value(want[i])};
      },
      chunk_bytes);
}

}  // namespace common
