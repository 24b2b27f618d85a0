// variants.cuh: scan_pipelined's variants, for the program and the tests: the default (its
//   configuration by size, or the portable path), the portable path alone, and the other
//   configurations the sweep measures. The names are the result rows' variant column (committed
//   CSVs join on them): never rename one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chapters/scan/08_scan_pipelined/scan_pipelined.cuh"
#include "common/check.cuh"
#include "common/scan/program.cuh"

namespace scan_pipelined {

// The programs' and the tests' form of a launch function: on stream 0, and a CUDA error ends the
// process (CUDA_CHECK), as the common program's variants expect.
template <class T, cudaError_t (*LAUNCH)(const T*, std::int64_t, T*, void*, cudaStream_t)>
void checked(const T* d_in, std::int64_t n, T* d_out, void* d_workspace) {
  CUDA_CHECK(LAUNCH(d_in, n, d_out, d_workspace, 0));
}

// Whether the configuration runs on the current device (see resident_blocks).
template <class S, int STAGES, int WINDOW>
bool runs_here() {
  return resident_blocks<S, STAGES, WINDOW, false, std::int32_t>() > 0;
}

// The portable path's configuration, in words.
inline std::string portable_name() {
  return "scan_lookback's kernel, block=" + std::to_string(portable_shape::BLOCK_THREADS) +
         " items=" + std::to_string(portable_shape::ITEMS) +
         " window=" + std::to_string(DEFAULT_WINDOW);
}

// What the step's default runs on the current device, in words.
inline std::string path_here() {
  const bool middle = runs_here<default_shape, MIDDLE_STAGES, DEFAULT_WINDOW>(),
             small = runs_here<small_n_shape, SMALL_N_STAGES, DEFAULT_WINDOW>(),
             large = runs_here<default_shape, DEFAULT_STAGES, DEFAULT_WINDOW>();
  const std::string portable = "the portable path (" + portable_name() + ")";
  if (middle && small && large) return "the pipeline (sm_90 code) above one tile";
  if (!middle && !small && !large)
    return portable + " above one tile: this GPU, or this build of the step, has no sm_90 code";
  return "the pipeline where its stages fit in this GPU's shared memory, else " + portable;
}

// A variant's name, as the results files and the pages know it.
inline std::string variant_name(const std::string& threads, const std::string& items,
                                const std::string& stages, const std::string& window) {
  return "block=" + threads + " items=" + items + " stages=" + stages + " window=" + window;
}

// The program's and the tests' variant of one configuration: exclusive and inclusive, both types;
// it runs only where its sm_90 code does (the program leaves it out elsewhere).
template <int THREADS, int VECTORS, int STAGES, int WINDOW = DEFAULT_WINDOW>
common::scan_variant pipeline_variant() {
  using S = shape<THREADS, VECTORS>;
  common::scan_variant v;
  v.name = variant_name(std::to_string(THREADS), std::to_string(S::ITEMS), std::to_string(STAGES),
                        std::to_string(WINDOW));
  v.exclusive_int32 = checked<std::int32_t, launch<std::int32_t, false, S, STAGES, WINDOW>>;
  v.exclusive_float = checked<float, launch<float, false, S, STAGES, WINDOW>>;
  v.inclusive_int32 = checked<std::int32_t, launch<std::int32_t, true, S, STAGES, WINDOW>>;
  v.inclusive_float = checked<float, launch<float, true, S, STAGES, WINDOW>>;
  v.workspace_bytes = workspace_bytes<S>;
  v.runs_here = runs_here<S, STAGES, WINDOW>;
  return v;
}

// The step's default: its configuration by size, or the portable path.
inline common::scan_variant by_size_variant() {
  common::scan_variant v;
  static_assert(small_n_shape::BLOCK_THREADS == default_shape::BLOCK_THREADS, "one block size");
  using std::to_string;
  // "items=16|32 stages=4|3|7": 16 with 4 stages below SMALL_N_LIMIT, but 32 with 3 in the band of
  // one large tile per block; 32 with 7 from SMALL_N_LIMIT on.
  v.name = variant_name(
      to_string(BLOCK_THREADS),
      to_string(small_n_shape::ITEMS) + "|" + to_string(default_shape::ITEMS),
      to_string(SMALL_N_STAGES) + "|" + to_string(MIDDLE_STAGES) + "|" + to_string(DEFAULT_STAGES),
      to_string(DEFAULT_WINDOW));
  v.exclusive_int32 = checked<std::int32_t, launch_by_size<std::int32_t, false>>;
  v.exclusive_float = checked<float, launch_by_size<float, false>>;
  v.inclusive_int32 = checked<std::int32_t, launch_by_size<std::int32_t, true>>;
  v.inclusive_float = checked<float, launch_by_size<float, true>>;
  v.workspace_bytes = workspace_bytes_by_size;
  v.path_here = path_here;
  return v;
}

// The portable path alone (the tests' way to run it on a GPU that has the pipeline).
inline common::scan_variant portable_variant() {
  common::scan_variant v;
  v.name = "portable: " + portable_name();
  v.exclusive_int32 = checked<std::int32_t, launch_portable<std::int32_t, false>>;
  v.exclusive_float = checked<float, launch_portable<float, false>>;
  v.inclusive_int32 = checked<std::int32_t, launch_portable<std::int32_t, true>>;
  v.inclusive_float = checked<float, launch_portable<float, true>>;
  v.workspace_bytes = workspace_bytes<portable_shape>;
  return v;
}

// The program's and the tests' variants: the default first, then the others the sweep measures
// (the default's two configurations first).
inline std::vector<common::scan_variant> variants() {
  return {by_size_variant(),
          pipeline_variant<default_shape::BLOCK_THREADS, default_shape::VECTORS, DEFAULT_STAGES>(),
          pipeline_variant<small_n_shape::BLOCK_THREADS, small_n_shape::VECTORS, SMALL_N_STAGES>(),
          pipeline_variant<256, 8, 6>(),
          pipeline_variant<256, 8, 3>(),
          pipeline_variant<512, 4, 7>(),
          pipeline_variant<256, 8, 7, 64>(),
          pipeline_variant<256, 8, 7, 128>(),
          pipeline_variant<256, 4, 7>(),
          pipeline_variant<128, 8, 7>(),
          pipeline_variant<256, 2, 12>(),
          pipeline_variant<512, 8, 3>()};
}

}  // namespace scan_pipelined
