// Exit codes shared by every program of the book (DESIGN.md section 3).
#pragma once

namespace common {

constexpr int EXIT_CORRECT = 0;        // ran, and every result matched the reference
constexpr int EXIT_WRONG_RESULT = 1;   // a result did not match the reference
constexpr int EXIT_BAD_USAGE = 2;      // bad flag or size; the message says what and the valid range
constexpr int EXIT_CUDA_ERROR = 3;     // a CUDA call failed; the message names call, file:line, error
constexpr int EXIT_NO_DEVICE = 77;     // no usable CUDA device; CTest reports the test as Skipped
// The step's one idea is a feature this GPU, or this build of the program, does not have (bulk
// copies on a GPU older than Hopper, or in a build without sm_90 code). The message says
// "not available on this GPU" and why; CTest reports the test as Skipped, the bench skips the step.
constexpr int EXIT_NOT_AVAILABLE = 78;

}  // namespace common
