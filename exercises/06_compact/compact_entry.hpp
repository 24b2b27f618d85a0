// compact_entry: the program's way into the student's compact.cuh. main.cu includes only
// this header; compact_entry.cu, a translation unit of its own, includes compact.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace compact_entry {

std::size_t scratch_bytes(std::int64_t n);
void launch(const std::int32_t* d_in, std::int64_t n, std::int32_t threshold, std::int32_t* d_out,
            unsigned long long* d_count, void* d_scratch);

}  // namespace compact_entry
