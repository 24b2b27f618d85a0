#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <limits>

#include "common/exit_codes.hpp"
#include "common/transpose/peer_cublas.cuh"

namespace common {
namespace {

// A cuBLAS failure is a CUDA-side error of the program: print where and exit like CUDA_CHECK.
void cublas_check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "cuBLAS error: %s in %s: %s\n", call, __FILE__, cublasGetStatusName(status));
  std::exit(EXIT_CUDA_ERROR);
}

}  // namespace

struct cublas_transpose::impl {
  cublasHandle_t handle = nullptr;
};

cublas_transpose::cublas_transpose() : impl_(std::make_unique<impl>()) {
  cublas_check(cublasCreate(&impl_->handle), "cublasCreate");
}

cublas_transpose::~cublas_transpose() {
  if (impl_->handle != nullptr) cublasDestroy(impl_->handle);
}

bool cublas_transpose::supports(std::int64_t rows, std::int64_t cols) {
  constexpr std::int64_t MAX = std::numeric_limits<int>::max();
  return rows > 0 && cols > 0 && rows <= MAX && cols <= MAX;
}

void cublas_transpose::launch(const float* d_in, float* d_out, std::int64_t rows,
                              std::int64_t cols) {
  // cuBLAS is column-major: our row-major rows x cols input is its cols x rows matrix A (lda =
  // cols), and our cols x rows output is its rows x cols matrix C (ldc = rows). C = 1 * A^T + 0 *
  // B. With beta = 0 cuBLAS does not need B; we still pass a valid, finite matrix of C's shape (the
  // input, read as rows x cols) so that no NaN could leak in through 0 * B.
  const float alpha = 1.0f, beta = 0.0f;
  const int m = int(rows), n = int(cols);
  cublas_check(cublasSgeam(impl_->handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &alpha, d_in, n, &beta,
                           d_in, m, d_out, m),
               "cublasSgeam");
}

}  // namespace common
