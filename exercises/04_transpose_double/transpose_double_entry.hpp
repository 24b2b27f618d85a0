// transpose_double_entry: the program's way into the student's transpose_double.cuh. main.cu
// includes only this header; transpose_double_entry.cu, a translation unit of its own, includes
// transpose_double.cuh and defines these functions, so that no macro or declaration of the
// student's file reaches the program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace transpose_double_entry {

void launch(const double* d_in, double* d_out, std::int64_t rows, std::int64_t cols);

}  // namespace transpose_double_entry
