#include <algorithm>
#include <memory>
#include <utility>

#include "common/bandwidth.hpp"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/parallel.hpp"
#include "common/transpose/peer_cublas.cuh"
#include "common/program.cuh"
#include "common/random.hpp"
#include "common/transpose/program.cuh"

namespace common {

namespace {
// A grid has at most 65535 blocks in y; the classic kernels map blockIdx.y to rows of tiles.
constexpr std::int64_t MAX_GRID_Y = 65535;
// Steps whose kernels index with 64-bit offsets still keep rows * cols below this (1 TiB floats).
constexpr std::int64_t MAX_ELEMENTS_INT64_INDEX = std::int64_t(1) << 38;

// The whitepaper's timing (source 002): one event pair around 100 launches in a row, no flush, so
// every launch after the first may find its input (and its output lines) in L2.
timing_stats time_back_to_back(const matrix_launch& launch, const float* d_in, float* d_out,
                               std::int64_t rows, std::int64_t cols) {
  constexpr int LAUNCHES = 100;
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  launch(d_in, d_out, rows, cols);  // warm-up
  CUDA_CHECK(cudaEventRecord(start));
  for (int i = 0; i < LAUNCHES; ++i) launch(d_in, d_out, rows, cols);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  const double per_launch = double(ms) / LAUNCHES;
  return {per_launch, per_launch, per_launch, per_launch, LAUNCHES};
}

bool moves_tiles(matrix_result result) {
  return result == matrix_result::tiles_moved || result == matrix_result::tiles_transposed;
}
}  // namespace

std::string why_unsupported(const matrix_limits& limits, matrix_result result, std::int64_t rows,
                            std::int64_t cols) {
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (moves_tiles(result) && (rows % limits.tile != 0 || cols % limits.tile != 0))
    return "rows and cols must be multiples of " + std::to_string(limits.tile) +
           " (this half-transpose moves whole tiles), not " + shape;
  if (limits.int32_index && rows * cols > MAX_N_INT32_INDEX)
    return shape + " has more than 2^31 - 1 elements (the kernels index with 32-bit ints)";
  const std::int64_t side = limits.y_over_cols ? cols : rows;
  const std::string name = limits.y_over_cols ? "cols" : "rows";
  if (limits.block_rows > 0 && (side + limits.block_rows - 1) / limits.block_rows > MAX_GRID_Y)
    return name + " can be at most " + std::to_string(MAX_GRID_Y * limits.block_rows) +
           " (65535 blocks in y, " + std::to_string(limits.block_rows) + " " + name +
           " each), not " + std::to_string(side);
  return "";
}

//! [reference]
// out (cols x rows) = in (rows x cols)^T, in 32 x 32 blocks so that both sides stay in cache; the
// bands of 32 input rows are shared out among the host's cores (it checks every GPU step).
void transpose_reference(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
  constexpr std::int64_t B = 32;
  const std::size_t bands = std::size_t((rows + B - 1) / B);
  parallel_ranges(bands, MIN_ITEMS_PER_THREAD / std::size_t(B * std::max<std::int64_t>(cols, 1)),
                  [&](std::size_t, std::size_t first_band, std::size_t end_band) {
    for (std::int64_t r0 = std::int64_t(first_band) * B; r0 < std::int64_t(end_band) * B; r0 += B)
      for (std::int64_t c0 = 0; c0 < cols; c0 += B)
        for (std::int64_t r = r0; r < std::min(rows, r0 + B); ++r)
          for (std::int64_t c = c0; c < std::min(cols, c0 + B); ++c)
            out[c * rows + r] = in[r * cols + c];
  });
}
//! [reference]

std::vector<float> expected_output(matrix_result result, const std::vector<float>& in,
                                   std::int64_t rows, std::int64_t cols, std::int64_t tile) {
  std::vector<float> out(in.size());
  const std::int64_t t = tile;
  // Row ranges of the input on all host cores (each output element is written exactly once).
  auto for_rows = [&](auto place) {
    parallel_ranges(std::size_t(rows), MIN_ITEMS_PER_THREAD / std::size_t(std::max<std::int64_t>(
                                           cols, 1)),
                    [&](std::size_t, std::size_t begin, std::size_t end) {
                      for (std::int64_t r = std::int64_t(begin); r < std::int64_t(end); ++r)
                        for (std::int64_t c = 0; c < cols; ++c) out[place(r, c)] = in[r * cols + c];
                    });
  };
  switch (result) {
    case matrix_result::transpose:
      transpose_reference(in.data(), out.data(), rows, cols);
      break;
    case matrix_result::copy:
      out = in;
      break;
    case matrix_result::tiles_moved:  // tile (tr, tc) lands at tile (tc, tr) of the cols x rows out
      for_rows([&](std::int64_t r, std::int64_t c) {
        return ((c / t) * t + r % t) * rows + (r / t) * t + c % t;
      });
      break;
    case matrix_result::tiles_transposed:  // each tile transposed in its own place
      for_rows([&](std::int64_t r, std::int64_t c) {
        return ((r / t) * t + c % t) * cols + (c / t) * t + r % t;
      });
      break;
  }
  return out;
}

prepared_matrix prepare_matrix(matrix_result result, std::int64_t rows, std::int64_t cols,
                               std::uint64_t seed, std::int64_t tile) {
  prepared_matrix m;
  m.rows = rows;
  m.cols = cols;
  m.tile = tile;
  m.input = random_floats(std::size_t(rows * cols), seed, -1000.0f, 1000.0f);
  m.want = expected_output(result, m.input, rows, cols, tile);
  return m;
}

check_result check_launch(const matrix_launch& launch, const prepared_matrix& m) {
  const std::size_t n = m.input.size();
  device_buffer<float> d_in(n), d_out(n);
  d_in.upload(m.input);
  d_out.poison();
  launch(d_in.data(), d_out.data(), m.rows, m.cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  return compare_exact("output", d_out.download(), m.want);
}

check_result check_launch(const matrix_launch& launch, matrix_result result, std::int64_t rows,
                          std::int64_t cols, std::uint64_t seed, std::int64_t tile) {
  return check_launch(launch, prepare_matrix(result, rows, cols, seed, tile));
}

std::vector<std::pair<std::int64_t, std::int64_t>> test_shapes() {
  return {{0, 0},   {0, 7},     {7, 0},       {1, 1},       {1, 1000},    {1000, 1},
          {2, 2},   {31, 33},   {33, 31},     {32, 32},     {8, 300},     {300, 8},
          {96, 64}, {257, 131}, {2048, 2048}, {4097, 1023}, {1023, 4097}, {16384, 16384}};
}

int run_matrix_program(int argc, char** argv, const matrix_step& step) {
  program p("transpose", step.step, step.summary);
  bool sweep = false, no_peer = false, back_to_back = false;
  std::string variant;
  if (!step.sweep_help.empty()) {
    p.args().add_flag("sweep", sweep, step.sweep_help);
    // One --sweep variant beside the default, by its name: a comparison of two launches costs two
    // measurements instead of the whole sweep's.
    std::vector<std::string> names;
    for (std::size_t i = 1; i < step.variants.size(); ++i) names.push_back(step.variants[i].name);
    if (!names.empty())
      p.args().add_choice("variant", variant, names,
                          "measure the default and this --sweep variant only (instead of --sweep)");
  }
  p.args().add_flag("no-peer", no_peer,
                    "do not measure the cublasSgeam peer (--quick does not measure it either)");
  p.args().add_flag("back-to-back", back_to_back,
                    "also time 100 launches in a row, L2 not flushed (the classic method, shown "
                    "to explain why the book flushes)");
  const std::int64_t tile = step.variants.at(0).limits.tile;
  // Steps that move whole tiles need multiples of their tile, also at --quick.
  p.add_matrix_size(moves_tiles(step.result) ? matrix_size{8 * tile, 4 * tile} : QUICK_MATRIX);

  // The variants this run measures and the most elements they all take, from the command line.
  const auto chosen_variants = [&] {
    std::vector<matrix_variant> variants = step.variants;
    if (!variant.empty()) {
      variants.resize(1);
      for (std::size_t i = 1; i < step.variants.size(); ++i)
        if (step.variants[i].name == variant) variants.push_back(step.variants[i]);
    } else if (!sweep) {
      variants.resize(1);
    }
    return variants;
  };
  const auto max_elements = [](const std::vector<matrix_variant>& variants) {
    bool all_int32 = true;
    for (const auto& v : variants) all_int32 = all_int32 && v.limits.int32_index;
    return all_int32 ? MAX_N_INT32_INDEX : MAX_ELEMENTS_INT64_INDEX;
  };
  const auto check_shape = [&](const std::vector<matrix_variant>& variants, matrix_size m) {
    for (const auto& v : variants) {
      const std::string why = why_unsupported(v.limits, step.result, m.rows, m.cols);
      if (!why.empty()) throw usage_error(why);
    }
  };
  // An explicit shape the variants cannot take is a usage error before the device probe.
  p.add_usage_check([&] {
    const matrix_size m = p.given_matrix();
    if (m.rows < 0) return;
    const std::vector<matrix_variant> variants = chosen_variants();
    check_matrix_limit(step.step, m, max_elements(variants));
    check_shape(variants, m);
  });

  return p.run(argc, argv, [&](context& ctx) {
    const std::vector<matrix_variant> variants = chosen_variants();
    // Two device matrices (input, output) per element.
    const matrix_size m =
        ctx.resolve_matrix(2 * sizeof(float), sizeof(float), max_elements(variants));
    check_shape(variants, m);
    const std::size_t n = std::size_t(m.elements());
    const std::size_t bytes = n * sizeof(float);
    ctx.measure_yardsticks(bytes);
    std::fprintf(ctx.log(), "matrix %lld x %lld floats (%s in, as much out)\n",
                 static_cast<long long>(m.rows), static_cast<long long>(m.cols),
                 show_bytes(double(bytes)).c_str());

    const std::vector<float> input = random_floats(n, ctx.seed(), -1000.0f, 1000.0f);
    const std::vector<float> want = expected_output(step.result, input, m.rows, m.cols, tile);
    device_buffer<float> d_in(n), d_out(n);
    d_in.upload(input);

    // Runs one launch: poisoned output, checked run, timed runs, checked again. Every check
    // downloads into the same host buffer: a fresh one per check would first fault in its pages
    // (a gigabyte at 16384 x 16384), twice for every variant of a --sweep.
    std::vector<float> got;
    auto measure = [&](const std::string& what, const std::vector<float>& expected,
                       const std::function<void()>& run, bool& ok) {
      d_out.poison();
      run();
      CUDA_CHECK(cudaDeviceSynchronize());
      d_out.download(got);
      ok = ctx.check(compare_exact(what, got, expected));
      const timing_stats time = ctx.time(run);
      d_out.download(got);
      ok = ctx.check(compare_exact(what + " after timing", got, expected)) && ok;
      return time;
    };

    // The peer first, so that every row of this run carries it: same process, same matrix.
    // Not with --quick: the sanitizer tests run --quick and check our kernels, not cuBLAS's.
    double peer_gbps = 0;
    if (!no_peer && !ctx.quick() && cublas_transpose::supports(m.rows, m.cols)) {
      cublas_transpose peer;
      std::vector<float> transposed;
      if (step.result != matrix_result::transpose)
        transposed = expected_output(matrix_result::transpose, input, m.rows, m.cols, tile);
      const std::vector<float>& want_t =
          step.result == matrix_result::transpose ? want : transposed;
      bool peer_ok = false;
      const timing_stats t = measure(
          "cublasSgeam output", want_t,
          [&] { peer.launch(d_in.data(), d_out.data(), m.rows, m.cols); }, peer_ok);
      peer_gbps = gb_per_s(2.0 * double(bytes), t.median_ms);
    }

    for (const matrix_variant& v : variants) {
      bool ok = false;
      const timing_stats time = measure(
          "output", want,
          [&] {
            v.launch(d_in.data(), d_out.data(), m.rows, m.cols);
            CUDA_CHECK_LAUNCH();
          },
          ok);
      result_row row;
      row.variant = v.name;
      row.type = "float";
      row.n = m.elements();
      row.rows = m.rows;
      row.cols = m.cols;
      row.bytes = 2.0 * double(bytes);  // every element read once and written once
      row.time = time;
      if (peer_gbps > 0) {
        row.peer = cublas_transpose::name();
        row.peer_gbps = peer_gbps;
      }
      row.ok = ok;
      ctx.report(row);
      if (back_to_back && n > 0) {
        row.variant = (v.name.empty() ? "" : v.name + " ") + "back-to-back, L2 warm";
        row.time = time_back_to_back(v.launch, d_in.data(), d_out.data(), m.rows, m.cols);
        d_out.download(got);
        row.ok = ctx.check(compare_exact("output after back-to-back", got, want)) && ok;
        ctx.report(row);
      }
    }
    return ctx.exit_code();
  });
}

int run_matrix_program(int argc, char** argv, std::string step, std::string summary,
                       matrix_result result, matrix_launch launch, matrix_limits limits) {
  matrix_step s;
  s.step = std::move(step);
  s.summary = std::move(summary);
  s.result = result;
  s.variants.push_back({"", std::move(launch), limits});
  return run_matrix_program(argc, argv, s);
}

}  // namespace common
