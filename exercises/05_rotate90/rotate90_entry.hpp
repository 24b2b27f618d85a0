// rotate90_entry: the program's way into the student's rotate90.cuh. main.cu includes only
// this header; rotate90_entry.cu, a translation unit of its own, includes rotate90.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rotate90_entry {

void launch(const float* d_in, float* d_out, std::int64_t rows, std::int64_t cols);

}  // namespace rotate90_entry
