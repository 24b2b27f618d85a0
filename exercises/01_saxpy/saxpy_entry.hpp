// saxpy_entry: the program's way into the student's saxpy.cuh. main.cu includes only
// this header; saxpy_entry.cu, a translation unit of its own, includes saxpy.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace saxpy_entry {

// The default block size (BLOCK_THREADS).
int block_threads();
std::int64_t max_elements(int block_threads);
void launch(float a, const float* d_x, float* d_y, std::int64_t n, int block_threads);

}  // namespace saxpy_entry
