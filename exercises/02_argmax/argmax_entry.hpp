// argmax_entry: the program's way into the student's argmax.cuh. main.cu includes only
// this header; argmax_entry.cu, a translation unit of its own, includes argmax.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "argmax_problem.hpp"

namespace argmax_entry {

std::size_t workspace_bytes(std::int64_t n);
void launch(const float* d_in, std::int64_t n, void* d_workspace, argmax_problem::result* d_result);

}  // namespace argmax_entry
