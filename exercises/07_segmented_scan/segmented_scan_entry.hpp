// segmented_scan_entry: the program's way into the student's segmented_scan.cuh. main.cu includes
// only this header; segmented_scan_entry.cu, a translation unit of its own, includes
// segmented_scan.cuh and defines these functions, so that no macro or declaration of the student's
// file reaches the program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace segmented_scan_entry {

std::size_t scratch_bytes(std::int64_t n);
void launch(const std::int32_t* d_values, const std::uint8_t* d_heads, std::int64_t n,
            std::int32_t* d_out, void* d_scratch);

}  // namespace segmented_scan_entry
