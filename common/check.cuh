// CUDA_CHECK: the one error check of the book's programs. Every CUDA call and every kernel launch
// of a program goes through it; a failure prints the expression, file:line, the error's name and
// message, and exits with common::EXIT_CUDA_ERROR (3).
// CUDA_TRY: the same check inside reusable launch code (the final steps' launch functions), which
// never ends the process: it hands the first error back to the caller as a cudaError_t.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "common/exit_codes.hpp"

namespace common {

[[noreturn]] inline void fail_cuda(cudaError_t error, const char* expression, const char* file,
                                   int line) {
  std::fprintf(stderr, "CUDA error: %s\n  at %s:%d\n  %s: %s\n", expression, file, line,
               cudaGetErrorName(error), cudaGetErrorString(error));
  std::exit(EXIT_CUDA_ERROR);
}

}  // namespace common

// Variadic, so that an expression with a comma (launch<T, V>(...)) needs no extra parentheses.
#define CUDA_CHECK(...)                                                        \
  do {                                                                         \
    const cudaError_t cuda_check_error_ = (__VA_ARGS__);                       \
    if (cuda_check_error_ != cudaSuccess)                                      \
      common::fail_cuda(cuda_check_error_, #__VA_ARGS__, __FILE__, __LINE__);  \
  } while (0)

// After a <<<...>>> launch: catches bad configurations (grid 0, too many threads, too much shared
// memory) at once. Errors inside the kernel surface at the next synchronizing CUDA_CHECK.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

// Inside a function that returns cudaError_t: return the first error to the caller.
#define CUDA_TRY(...)                                                          \
  do {                                                                         \
    const cudaError_t cuda_try_error_ = (__VA_ARGS__);                         \
    if (cuda_try_error_ != cudaSuccess) return cuda_try_error_;                \
  } while (0)
