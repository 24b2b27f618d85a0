// mean_variance_entry: the program's way into the student's mean_variance.cuh. main.cu includes
// only this header; mean_variance_entry.cu, a translation unit of its own, includes
// mean_variance.cuh and defines these functions, so that no macro or declaration of the student's
// file reaches the program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mean_variance_problem.hpp"

namespace mean_variance_entry {

std::size_t workspace_bytes(std::int64_t n);
void launch(const float* d_in, std::int64_t n, void* d_workspace,
            mean_variance_problem::result* d_result);

}  // namespace mean_variance_entry
