// segmented_scan_entry: the student's segmented_scan.cuh in a translation unit of its own
// (segmented_scan_entry.hpp says why).
#include <segmented_scan.cuh>  // the skeleton's or the solution's: found through the include path

#include "segmented_scan_entry.hpp"

namespace segmented_scan_entry {

std::size_t scratch_bytes(std::int64_t n) { return segmented_scan::scratch_bytes(n); }

void launch(const std::int32_t* d_values, const std::uint8_t* d_heads, std::int64_t n,
            std::int32_t* d_out, void* d_scratch) {
  segmented_scan::launch(d_values, d_heads, n, d_out, d_scratch);
}

}  // namespace segmented_scan_entry
