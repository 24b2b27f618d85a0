// histogram_entry: the program's way into the student's histogram.cuh. main.cu includes only
// this header; histogram_entry.cu, a translation unit of its own, includes histogram.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace histogram_entry {

void launch(const std::uint8_t* d_bytes, std::int64_t n, unsigned long long* d_counts);

}  // namespace histogram_entry
