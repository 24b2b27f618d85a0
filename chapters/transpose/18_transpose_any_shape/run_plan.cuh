// run_plan: launches a plan (plan.hpp): the compiled kernel it names, with the shared memory it
//   needs, on the caller's stream, in launches of at most 65535 blocks along y; and the GPU's
//   facts for the plan, asked of the driver once per device (and context).
#pragma once
// Included by transpose_any_shape.cuh after every kernel.

namespace transpose_any_shape {

using kernel_fn = void (*)(const float*, float*, std::int64_t, std::int64_t, std::int64_t);

// After a launch: its configuration errors at once (none to ask for while tracing).
inline cudaError_t launch_error() {
  return trace::current_sink() != nullptr ? cudaSuccess : cudaGetLastError();
}

// More than 48 KB of shared rows need the kernel's permission: asked once per kernel and device
// for FEW_SHARED_MAX_BYTES, enough for every plan; more only where a caller asks for more.
template <auto KERNEL>
cudaError_t allow_few_shared(std::size_t bytes) {
  if (bytes <= 48 * 1024 || trace::current_sink() != nullptr) return cudaSuccess;
  static common::PerDevice<std::size_t> allowed;  // one per kernel (KERNEL, not its type)
  std::size_t asked = 0;
  CUDA_TRY(allowed.get_current(asked, [](std::size_t& value) {
    value = tuning::FEW_SHARED_MAX_BYTES;
    return cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, int(value));
  }));
  if (bytes > asked)
    CUDA_TRY(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  return cudaSuccess;
}

// A kernel that takes `first`, over step x walk blocks, MAX_GRID_Y rows of blocks per launch.
inline cudaError_t launch_walk(kernel_fn k, const plan& p, const float* d_in, float* d_out,
                               std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  for (std::int64_t first = 0; first < p.walk; first += MAX_GRID_Y) {
    const dim3 grid(unsigned(p.step), unsigned(std::min(p.walk - first, MAX_GRID_Y)));
    launch_kernel(k, grid, BLOCK_THREADS, 0, stream, d_in, d_out, rows, cols, first);
    CUDA_TRY(launch_error());
  }
  return cudaSuccess;
}

// The tiled kernel the plan names (the 44 forms the rules use: aligned output rows with aligned or
// realigned loads, or both sides realigned; each order; bulk stores or not; thin edges absorbed or
// not; wide fetches or not, with aligned output rows; chunks split, with realigned ones).
template <bool ALIGNED_LOADS, bool DOWN, bool BULK, bool ABSORB>
kernel_fn aligned_output_kernel(bool wide) {
  return wide ? trace::named<kernel<ALIGNED_LOADS, true, DOWN, BULK, false, ABSORB, true>>()
              : trace::named<kernel<ALIGNED_LOADS, true, DOWN, BULK, false, ABSORB, false>>();
}
template <bool DOWN, bool BULK>
kernel_fn tiles_kernel_of(const plan& p) {
  if (p.aligned_stores && p.aligned_loads)
    return p.absorb ? aligned_output_kernel<true, DOWN, BULK, true>(p.wide_fetch)
                    : aligned_output_kernel<true, DOWN, BULK, false>(p.wide_fetch);
  if (p.aligned_stores)
    return p.absorb ? aligned_output_kernel<false, DOWN, BULK, true>(p.wide_fetch)
                    : aligned_output_kernel<false, DOWN, BULK, false>(p.wide_fetch);
  if (p.split_chunks) return trace::named<kernel<false, false, DOWN, BULK, true, false>>();
  return p.absorb ? trace::named<kernel<false, false, DOWN, BULK, false, true>>()
                  : trace::named<kernel<false, false, DOWN, BULK, false, false>>();
}
inline kernel_fn tiles_kernel(const plan& p) {
  if (p.down)
    return p.whole_bulk ? tiles_kernel_of<true, true>(p) : tiles_kernel_of<true, false>(p);
  return p.whole_bulk ? tiles_kernel_of<false, true>(p) : tiles_kernel_of<false, false>(p);
}

template <bool ALIGNED_LOADS, bool DOWN>
kernel_fn whole_sectors_kernel_of(bool wide) {
  return wide ? trace::named<kernel_whole_sectors<ALIGNED_LOADS, true, DOWN>>()
              : trace::named<kernel_whole_sectors<ALIGNED_LOADS, false, DOWN>>();
}
inline kernel_fn whole_sectors_kernel(const plan& p) {
  if (p.down)
    return p.aligned_loads ? whole_sectors_kernel_of<true, true>(p.wide_fetch)
                           : whole_sectors_kernel_of<false, true>(p.wide_fetch);
  return p.aligned_loads ? whole_sectors_kernel_of<true, false>(p.wide_fetch)
                         : whole_sectors_kernel_of<false, false>(p.wide_fetch);
}

inline kernel_fn lines_kernel(const plan& p) {
  if (!p.absorb)
    return trace::named<kernel_lines<false, LINE_ROWS_IN_FLIGHT, LINE_BLOCKS_PER_SM>>();
  if (p.min_blocks == 4) return trace::named<kernel_lines<true, FEW_BLOCKS_IN_FLIGHT, 4>>();
  if (p.min_blocks == 5) return trace::named<kernel_lines<true, FEW_BLOCKS_IN_FLIGHT, 5>>();
  if (p.rows_in_flight == ONE_WAVE_IN_FLIGHT)
    return trace::named<kernel_lines<true, ONE_WAVE_IN_FLIGHT, LINE_BLOCKS_PER_SM>>();
  return trace::named<kernel_lines<true, LINE_ROWS_IN_FLIGHT, LINE_BLOCKS_PER_SM>>();
}

// The few-side kernel the plan names, with its shared rows.
template <int RUN, int PITCH_MOD, bool SECTORS>
cudaError_t launch_few_cols(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                            std::int64_t cols, cudaStream_t stream) {
  constexpr auto k = kernel_few_cols<RUN, PITCH_MOD, SECTORS>;
  CUDA_TRY(allow_few_shared<k>(p.shared_bytes));
  launch_kernel(trace::named<k>(), unsigned(p.step), BLOCK_THREADS, p.shared_bytes, stream, d_in,
                d_out, rows, int(cols), p.run);
  return launch_error();
}
template <int RUN, int PITCH_MOD, bool SWIZZLE>
cudaError_t launch_few_rows(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                            std::int64_t cols, cudaStream_t stream) {
  constexpr auto k = kernel_few_rows<RUN, PITCH_MOD, SWIZZLE>;
  CUDA_TRY(allow_few_shared<k>(p.shared_bytes));
  launch_kernel(trace::named<k>(), unsigned(p.step), BLOCK_THREADS, p.shared_bytes, stream, d_in,
                d_out, int(rows), cols, p.run);
  return launch_error();
}
// The forms the rules use: the run compiled in (ANY_RUN: taken at launch), the pitch, and whole
// sectors (kernel_few_cols) or swizzled shared rows (kernel_few_rows).
template <int RUN, int PITCH_MOD, bool OPTION>
struct few_form {};
template <bool COLS, int RUN, int PITCH_MOD, bool OPTION>
bool launch_few_if(few_form<RUN, PITCH_MOD, OPTION>, const plan& p, const float* d_in, float* d_out,
                   std::int64_t rows, std::int64_t cols, cudaStream_t stream, cudaError_t& error) {
  if (p.run_template != RUN || p.pitch_mod != PITCH_MOD || (COLS ? p.sectors : p.swizzle) != OPTION)
    return false;
  if constexpr (COLS)
    error = launch_few_cols<RUN, PITCH_MOD, OPTION>(p, d_in, d_out, rows, cols, stream);
  else
    error = launch_few_rows<RUN, PITCH_MOD, OPTION>(p, d_in, d_out, rows, cols, stream);
  return true;
}
template <bool COLS, class... Forms>
cudaError_t launch_few_of(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                          std::int64_t cols, cudaStream_t stream, Forms... forms) {
  cudaError_t error = cudaErrorInvalidValue;  // a form no rule makes, so none is compiled
  (launch_few_if<COLS>(forms, p, d_in, d_out, rows, cols, stream, error) || ...);
  return error;
}
inline cudaError_t launch_few(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                              std::int64_t cols, cudaStream_t stream) {
  constexpr int FULL = FULL_PITCH_MOD, COMPACT = COMPACT_PITCH_MOD;
  if (p.kernel == kernel_kind::few_cols)
    return launch_few_of<true>(
        p, d_in, d_out, rows, cols, stream, few_form<FEW_RUN, FULL, false>{},
        few_form<FEW_RUN, COMPACT, false>{}, few_form<FEW_SHORT_RUN, FULL, false>{},
        few_form<FEW_SHORT_RUN, COMPACT, false>{}, few_form<FEW_WAVES_RUN, FULL, false>{},
        few_form<ANY_RUN, FULL, false>{}, few_form<FEW_RUN, FULL, true>{},
        few_form<FEW_RUN, COMPACT, true>{}, few_form<FEW_SECTORS_RUN, FULL, true>{},
        few_form<FEW_SECTORS_RUN, COMPACT, true>{});
  return launch_few_of<false>(
      p, d_in, d_out, rows, cols, stream, few_form<FEW_RUN, FULL, false>{},
      few_form<FEW_RUN, COMPACT, false>{}, few_form<FEW_SHORT_RUN, FULL, false>{},
      few_form<FEW_SHORT_RUN, COMPACT, false>{}, few_form<FEW_WAVES_RUN, FULL, false>{},
      few_form<ANY_RUN, FULL, false>{}, few_form<FEW_SHORT_RUN, COMPACT, true>{});
}

template <typename Index>
cudaError_t launch_narrow(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                          std::int64_t cols, cudaStream_t stream) {
  const Index n = Index(rows * cols);
  if (p.gather)  // the output (cols x rows) is the run of short rows
    launch_kernel(trace::named<kernel_narrow<true, Index>>(), unsigned(p.step), BLOCK_THREADS, 0,
                  stream, d_in, d_out, n, Index(rows), Index(cols));
  else
    launch_kernel(trace::named<kernel_narrow<false, Index>>(), unsigned(p.step), BLOCK_THREADS, 0,
                  stream, d_in, d_out, n, Index(cols), Index(rows));
  return launch_error();
}

//! [run]
// Launches the plan for the rows x cols matrix at d_in into d_out, on `stream`.
inline cudaError_t run(const plan& p, const float* d_in, float* d_out, std::int64_t rows,
                       std::int64_t cols, cudaStream_t stream = 0) {
  switch (p.kernel) {
    case kernel_kind::nothing:
      return cudaSuccess;
    case kernel_kind::copy:  // one row or column: the same floats in the same order
      if (trace::current_sink() != nullptr) {
        trace::record("cudaMemcpyAsync bytes " + std::to_string(p.step * sizeof(float)));
        return cudaSuccess;
      }
      return cudaMemcpyAsync(d_out, d_in, std::size_t(p.step) * sizeof(float),
                             cudaMemcpyDeviceToDevice, stream);
    case kernel_kind::narrow:
      return p.index64 ? launch_narrow<std::uint64_t>(p, d_in, d_out, rows, cols, stream)
                       : launch_narrow<std::uint32_t>(p, d_in, d_out, rows, cols, stream);
    case kernel_kind::lines:
      return launch_walk(lines_kernel(p), p, d_in, d_out, rows, cols, stream);
    case kernel_kind::few_cols:
    case kernel_kind::few_rows:
      return launch_few(p, d_in, d_out, rows, cols, stream);
    case kernel_kind::stretch_rows:
      if (p.run == TILE_DIM)
        launch_kernel(trace::named<kernel_stretch_rows<TILE_DIM>>(), unsigned(p.step),
                      BLOCK_THREADS, 0, stream, d_in, d_out, int(rows), cols);
      else
        launch_kernel(trace::named<kernel_stretch_rows<TILE_DIM / 2>>(), unsigned(p.step),
                      BLOCK_THREADS, 0, stream, d_in, d_out, int(rows), cols);
      return launch_error();
    case kernel_kind::stretch_cols:
      launch_kernel(trace::named<kernel_stretch_cols>(), unsigned(p.step), BLOCK_THREADS, 0, stream,
                    d_in, d_out, rows, int(cols));
      return launch_error();
    case kernel_kind::loads_in_halves:
      launch_kernel(trace::named<kernel_loads_in_halves>(),
                    dim3(unsigned(p.step), unsigned(p.walk)), BLOCK_THREADS, 0, stream, d_in, d_out,
                    rows, cols);
      return launch_error();
    case kernel_kind::whole_sectors:
      return launch_walk(whole_sectors_kernel(p), p, d_in, d_out, rows, cols, stream);
    case kernel_kind::tiles:
      return launch_walk(tiles_kernel(p), p, d_in, d_out, rows, cols, stream);
  }
  return cudaErrorInvalidValue;
}
//! [run]

// The plan's facts about the current device, asked of the driver once per device and context
// (the query takes long enough to leave the GPU idle if asked before every launch).
inline cudaError_t query_gpu_facts(gpu_facts& g) {
  int device = 0, clock_khz = 0, bus_bits = 0, shared = 0, reserved = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&g.sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
  CUDA_TRY(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  CUDA_TRY(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  CUDA_TRY(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  g.name = "this GPU";
  g.dram_gbps_per_sm = common::theoretical_gb_per_s(clock_khz, bus_bits) / g.sms;
  g.shared_per_sm = std::size_t(shared);
  g.shared_reserved_per_block = std::size_t(reserved);
  const auto blocks = [](auto kernel, int& value) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&value, kernel, BLOCK_THREADS, 0);
  };
  CUDA_TRY(blocks(kernel_few_cols<ANY_RUN, FULL_PITCH_MOD, false>, g.few_cols_any_run_blocks));
  CUDA_TRY(blocks(kernel_few_rows<ANY_RUN, FULL_PITCH_MOD, false>, g.few_rows_any_run_blocks));
  CUDA_TRY(
      blocks(kernel_few_cols<FEW_SECTORS_RUN, FULL_PITCH_MOD, true>, g.few_sectors_full_blocks));
  CUDA_TRY(blocks(kernel_few_cols<FEW_SECTORS_RUN, COMPACT_PITCH_MOD, true>,
                  g.few_sectors_compact_blocks));
  // Bulk copies and wide fetches only where the device and the compiled kernels have them.
  CUDA_TRY(
      common::runs_hopper_code(kernel<true, true, true, true, false, false, false>, g.bulk_copies));
  int device_arch = 0, built_arch = 0;
  CUDA_TRY(common::device_arch(device_arch));
  CUDA_TRY(common::compiled_arch(kernel<true, true, true, true, false, false, true>, built_arch));
  g.wide_fetches = device_arch >= 80 && built_arch >= 80;
  return cudaSuccess;
}
inline cudaError_t gpu_facts_here(gpu_facts& g) {
  if (const trace::sink* s = trace::current_sink()) {
    g = s->gpu;
    return cudaSuccess;
  }
  static common::PerDevice<gpu_facts> known;
  return known.get_current(g, query_gpu_facts);
}

}  // namespace transpose_any_shape
