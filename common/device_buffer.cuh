// device_buffer<T>: an owning, move-only array in device memory (cudaMalloc / cudaFree).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/check.cuh"

namespace common {

// The byte that poison() writes: 0xFF makes every float/double a NaN, which no comparison accepts;
// integers get 0xABABABAB, an unlikely value for any result of the book.
template <class T>
constexpr unsigned char poison_byte() {
  return std::is_floating_point_v<T> ? 0xFF : 0xAB;
}

// The bytes this process holds in device_buffers, now and at most so far. The grader's channel
// reports the peak, so that the grader knows how much device memory a run of a case takes even
// where the program keeps less than that on the host.
inline std::atomic<std::size_t> device_buffer_bytes_now{0};
inline std::atomic<std::size_t> device_buffer_bytes_peak{0};

inline void count_device_buffer_bytes(std::size_t bytes, bool allocated) {
  if (!allocated) {
    device_buffer_bytes_now -= bytes;
    return;
  }
  const std::size_t now = device_buffer_bytes_now += bytes;
  std::size_t peak = device_buffer_bytes_peak.load();
  while (now > peak && !device_buffer_bytes_peak.compare_exchange_weak(peak, now)) {
  }
}

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : count_(count) {
    if (count_ > 0) {
      CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
      count_device_buffer_bytes(bytes(), true);
    }
  }
  ~device_buffer() { release(); }

  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw std::length_error("device_buffer::upload: size mismatch");
    if (count_ > 0) CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  void download(std::vector<T>& host) const {
    host.resize(count_);
    if (count_ > 0) CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
  }
  std::vector<T> download() const {
    std::vector<T> host;
    download(host);
    return host;
  }
  // Fill with poison_byte<T>() so that an element the kernel forgot to write fails the check.
  void poison() {
    if (count_ > 0) CUDA_CHECK(cudaMemset(data_, poison_byte<T>(), bytes()));
  }

 private:
  void release() {
    if (data_ != nullptr) {
      cudaFree(data_);  // no check: may run during exit after an error
      count_device_buffer_bytes(bytes(), false);
    }
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace common
