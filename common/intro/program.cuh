// Part 0's shared program: in-place "add 1 to every float" variants, each checked and timed on
// the same input. The steps' main.cu files only say which variants (block sizes, vector counts)
// to run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/random.hpp"

namespace common {

struct increment_variant {
  std::string name;                                    // e.g. "block=64"
  std::function<void(float* d_data, std::int64_t n)> launch;
};

// cpu: the step's CPU version (the reference). max_n: the largest n every variant can launch.
inline int run_increment_variants(context& ctx, const std::vector<increment_variant>& variants,
                                  void (*cpu)(float*, std::int64_t), std::int64_t max_n) {
  // Two device arrays: the pristine input and the array incremented in place.
  const std::int64_t n = ctx.resolve_n(2 * sizeof(float), sizeof(float), max_n);
  const std::size_t bytes = std::size_t(n) * sizeof(float);
  ctx.measure_yardsticks(bytes);

  const std::vector<float> input = random_floats(std::size_t(n), ctx.seed(), -1000.0f, 1000.0f);
  std::vector<float> want = input;
  cpu(want.data(), n);

  device_buffer<float> d_input(n), d_data(n);
  d_input.upload(input);
  // The kernels work in place, so each run starts from the input again. No poison is needed: an
  // element a kernel skips keeps x, and x + 1 != x for every |x| < 2^24.
  auto restore = [&] {
    if (n > 0) CUDA_CHECK(cudaMemcpy(d_data.data(), d_input.data(), bytes, cudaMemcpyDeviceToDevice));
  };
  for (const increment_variant& variant : variants) {
    auto run = [&] { variant.launch(d_data.data(), n); };
    // x + 1.0f is one correctly rounded IEEE add on both sides: the results must be identical.
    restore();
    run();
    bool ok = ctx.check(compare_exact(variant.name, d_data.download(), want));
    const timing_stats time = ctx.time(restore, run);
    ok = ctx.check(compare_exact(variant.name + " after timing", d_data.download(), want)) && ok;

    result_row row;
    row.variant = variant.name;
    row.type = "float";
    row.n = n;
    row.bytes = 2.0 * double(bytes);  // each element read once and written once
    row.time = time;
    row.ok = ok;
    ctx.report(row);
  }
  return ctx.exit_code();
}

}  // namespace common
