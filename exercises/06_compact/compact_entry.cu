// compact_entry: the student's compact.cuh in a translation unit of its own (compact_entry.hpp
// says why).
#include <compact.cuh>  // the skeleton's or the solution's: found through the include path

#include "compact_entry.hpp"

namespace compact_entry {

std::size_t scratch_bytes(std::int64_t n) { return compact::scratch_bytes(n); }

void launch(const std::int32_t* d_in, std::int64_t n, std::int32_t threshold, std::int32_t* d_out,
            unsigned long long* d_count, void* d_scratch) {
  compact::launch(d_in, n, threshold, d_out, d_count, d_scratch);
}

}  // namespace compact_entry
