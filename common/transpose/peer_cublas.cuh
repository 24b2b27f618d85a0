// The library peer of the transpose part: cublasSgeam with A transposed, alpha = 1, beta = 0.
// Only this translation unit includes cuBLAS (heavy headers, one library to link).
#pragma once

#include <cstdint>
#include <memory>

namespace common {

class cublas_transpose {
 public:
  cublas_transpose();  // creates the handle (on the default stream)
  ~cublas_transpose();
  cublas_transpose(const cublas_transpose&) = delete;
  cublas_transpose& operator=(const cublas_transpose&) = delete;

  // cuBLAS takes int sizes: both sides must be at most 2^31 - 1 (and neither 0 for a launch).
  static bool supports(std::int64_t rows, std::int64_t cols);

  // d_out (cols x rows) = d_in (rows x cols)^T, row-major, enqueued on stream 0.
  void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols);

  static const char* name() { return "cublasSgeam"; }

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace common
