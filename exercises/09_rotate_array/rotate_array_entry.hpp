// rotate_array_entry: the program's way into the student's rotate_array.cuh. main.cu includes only
// this header; rotate_array_entry.cu, a translation unit of its own, includes rotate_array.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rotate_array_entry {

void launch(const std::int32_t* d_in, std::int64_t n, std::int64_t k, std::int32_t* d_out);

}  // namespace rotate_array_entry
