// transpose_alignment_probe: what the memory system charges for a tiled transpose's accesses when
//   the matrix's rows do not start on 32-byte sectors (not a step of the book: evidence for
//   transpose_any_shape's page, run by chapters/transpose/tools/gpu_checks.sh).
// No transpose: each kernel makes only one side's accesses of a tiled transpose, with one float
//   per thread and whole warps on consecutive floats, so that nothing but the addresses changes.
//   - write: the store phase. An R x C input has C output rows of R floats; block (x, y) writes
//     floats y H .. y H + H - 1 of output rows 64 x .. 64 x + 63. Its segments start 4 R bytes
//     apart: for R % 8 != 0 they start off a sector, and the sectors at their two ends are shared
//     with the blocks above and below (y +- 1).
//   - read: the load phase. Block (x, y) reads H input rows of 64 floats (columns 64 x ..), rows
//     4 C bytes apart.
//   Each is measured with the segment length H = 64, 128, 256 (how many boundaries there are per
//   byte), with plain and evict-first (.cs) stores, and in two block orders: x fastest (as
//   transpose_fast launches them: the blocks that share a boundary sector run 'tile columns'
//   blocks apart), or y fastest (they run one after the other, as in transpose_any_shape). Beside
//   them: one contiguous write or read of the same bytes.
// Run: cmake --build build --target transpose_alignment_probe (not built by default), then
//   build/bin/transpose_alignment_probe [--reps 20]   (prints one table)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "common/check.cuh"
#include "common/cli.hpp"
#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/exit_codes.hpp"
#include "common/program.cuh"
#include "common/timing.cuh"

namespace {

constexpr int THREADS = 256;
constexpr int WIDTH = 64;  // output rows per block (write) or input columns per block (read)

template <int H, bool STREAM, bool Y_FASTEST>
__global__ void __launch_bounds__(THREADS)
    write_segments(float* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t x = Y_FASTEST ? blockIdx.y : blockIdx.x;
  const std::int64_t y = Y_FASTEST ? blockIdx.x : blockIdx.y;
  for (int i = threadIdx.x; i < WIDTH * H; i += THREADS) {
    const std::int64_t out_row = WIDTH * x + i / H, r = H * y + i % H;
    if (out_row < cols && r < rows) {
      float* p = out + out_row * rows + r;
      if constexpr (STREAM)
        __stcs(p, float(r));
      else
        *p = float(r);
    }
  }
}

template <int H, bool Y_FASTEST>
__global__ void __launch_bounds__(THREADS)
    read_segments(const float* in, std::int64_t rows, std::int64_t cols, float* sink) {
  const std::int64_t x = Y_FASTEST ? blockIdx.y : blockIdx.x;
  const std::int64_t y = Y_FASTEST ? blockIdx.x : blockIdx.y;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < WIDTH * H; i += THREADS) {
    const std::int64_t r = H * y + i / WIDTH, c = WIDTH * x + i % WIDTH;
    if (r < rows && c < cols) sum += in[r * cols + c];
  }
  if (sum == -1.0f) sink[0] = sum;  // never true for our input: keeps the loads
}

__global__ void write_linear(float* out, std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * THREADS + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * THREADS)
    out[i] = float(i);
}

__global__ void read_linear(const float* in, std::int64_t n, float* sink) {
  float sum = 0.0f;
  for (std::int64_t i = std::int64_t(blockIdx.x) * THREADS + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * THREADS)
    sum += in[i];
  if (sum == -1.0f) sink[0] = sum;
}

struct bench {
  common::timing_options options;
  common::l2_flusher flusher;
  double linear_ms = 0;
  double time(const std::function<void()>& op) {
    return common::time_repeated(
               options, flusher, [] {}, op)
        .median_ms;
  }
};

void line(const char* side, const std::string& what, std::int64_t rows, std::int64_t cols,
          double ms, double linear_ms) {
  const double gb = double(rows) * double(cols) * sizeof(float) / 1e9;
  std::printf("%-5s %-32s %6lld x %-6lld  %4lld  %8.4f ms  %7.1f GB/s  %6.1f%% of contiguous\n",
              side, what.c_str(), static_cast<long long>(rows), static_cast<long long>(cols),
              static_cast<long long>((side[0] == 'w' ? rows : cols) * 4 % 128), ms, gb / ms * 1e3,
              100.0 * linear_ms / ms);
}

template <int H, bool STREAM, bool Y_FASTEST>
void write_case(bench& b, float* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t x_blocks = (cols + WIDTH - 1) / WIDTH, y_blocks = (rows + H - 1) / H;
  const dim3 grid = Y_FASTEST ? dim3(unsigned(y_blocks), unsigned(x_blocks))
                              : dim3(unsigned(x_blocks), unsigned(y_blocks));
  const double ms = b.time([&] {
    write_segments<H, STREAM, Y_FASTEST><<<grid, THREADS>>>(out, rows, cols);
    CUDA_CHECK_LAUNCH();
  });
  line("write",
       "H=" + std::to_string(H) + (STREAM ? " .cs" : " plain") + (Y_FASTEST ? " y-first" : ""),
       rows, cols, ms, b.linear_ms);
}

template <int H, bool Y_FASTEST>
void read_case(bench& b, const float* in, std::int64_t rows, std::int64_t cols, float* sink) {
  const std::int64_t x_blocks = (cols + WIDTH - 1) / WIDTH, y_blocks = (rows + H - 1) / H;
  const dim3 grid = Y_FASTEST ? dim3(unsigned(y_blocks), unsigned(x_blocks))
                              : dim3(unsigned(x_blocks), unsigned(y_blocks));
  const double ms = b.time([&] {
    read_segments<H, Y_FASTEST><<<grid, THREADS>>>(in, rows, cols, sink);
    CUDA_CHECK_LAUNCH();
  });
  line("read", "H=" + std::to_string(H) + (Y_FASTEST ? " y-first" : ""), rows, cols, ms,
       b.linear_ms);
}

}  // namespace

int main(int argc, char** argv) {
  common::cli cli("transpose_alignment_probe",
                  "What a tiled transpose's stores and loads cost when rows start off a sector.");
  int reps = 20;
  cli.add_int("reps", reps, 3, 1000, "timed repetitions per case (median)");
  return common::run_with_device(
      cli.program(), cli, argc, argv, [&](const common::device_info& info) {
        std::printf(
            "# transpose_alignment_probe on %s; columns: side, pattern, rows x cols, row start "
            "offset mod 128 bytes, median time, GB/s, %% of one contiguous pass\n",
            info.name.c_str());
        const std::int64_t other = 16384, most = 16416;
        common::device_buffer<float> data(std::size_t(most * other)), sink(1);
        CUDA_CHECK(cudaMemset(data.data(), 0, data.bytes()));
        bench b{{3, reps}, common::l2_flusher(info.l2_bytes)};
        for (const std::int64_t side : {16384, 16385, 16388, 16392, 16400, 16416}) {
          const std::int64_t n = side * other;
          b.linear_ms = b.time([&] {
            write_linear<<<4 * info.sm_count, THREADS>>>(data.data(), n);
            CUDA_CHECK_LAUNCH();
          });
          line("write", "contiguous", side, other, b.linear_ms, b.linear_ms);
          write_case<64, false, false>(b, data.data(), side, other);
          write_case<64, true, false>(b, data.data(), side, other);
          write_case<64, false, true>(b, data.data(), side, other);
          write_case<64, true, true>(b, data.data(), side, other);
          write_case<128, false, false>(b, data.data(), side, other);
          write_case<128, true, false>(b, data.data(), side, other);
          write_case<256, false, false>(b, data.data(), side, other);
          write_case<256, true, false>(b, data.data(), side, other);
          write_case<256, true, true>(b, data.data(), side, other);
          b.linear_ms = b.time([&] {
            read_linear<<<4 * info.sm_count, THREADS>>>(data.data(), n, sink.data());
            CUDA_CHECK_LAUNCH();
          });
          line("read", "contiguous", other, side, b.linear_ms, b.linear_ms);
          read_case<64, false>(b, data.data(), other, side, sink.data());
          read_case<64, true>(b, data.data(), other, side, sink.data());
          read_case<128, false>(b, data.data(), other, side, sink.data());
          read_case<256, false>(b, data.data(), other, side, sink.data());
        }
        return common::EXIT_CORRECT;
      });
}
