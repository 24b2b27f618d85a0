// increment: the program. Input -> CPU reference -> run -> verify -> time -> verify -> report.
#include <algorithm>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/random.hpp"
#include "increment.cuh"

int main(int argc, char** argv) {
  common::program program("intro", "increment",
                          "add 1 to every element of a float array (course Exercise 1)");
  int block_threads = increment::BLOCK_THREADS;
  bool sweep = false;
  program.args().add_int("block", block_threads, 1, 1024, "threads per block (default 64)");
  program.args().add_flag("sweep", sweep, "measure block sizes 32, 64, ..., 1024 in one run");

  return program.run(argc, argv, [&](common::context& ctx) {
    std::vector<int> blocks{block_threads};
    if (sweep) blocks = {32, 64, 128, 256, 512, 1024};
    const int smallest_block = *std::min_element(blocks.begin(), blocks.end());
    // Two device arrays: the pristine input and the array incremented in place.
    const std::int64_t n = ctx.resolve_n(2 * sizeof(float), sizeof(float),
                                         increment::max_elements(smallest_block));
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    ctx.measure_yardsticks(bytes);

    const std::vector<float> input = common::random_floats(n, ctx.seed(), -1000.0f, 1000.0f);
    std::vector<float> want = input;
    increment::increment_cpu(want.data(), n);

    common::device_buffer<float> d_input(n), d_data(n);
    d_input.upload(input);
    // The kernel works in place, so each run starts from the input again. No poison is needed:
    // an element the kernel skips keeps x, and x + 1 != x for every |x| < 2^24.
    auto restore = [&] {
      if (n > 0)
        CUDA_CHECK(cudaMemcpy(d_data.data(), d_input.data(), bytes, cudaMemcpyDeviceToDevice));
    };

    for (const int block : blocks) {
      auto run = [&] { increment::launch(d_data.data(), n, block); };
      // x + 1.0f is one correctly rounded IEEE add on both sides: the results must be identical.
      restore();
      run();
      bool ok = ctx.check(common::compare_exact("output", d_data.download(), want));
      const common::timing_stats time = ctx.time(restore, run);
      ok = ctx.check(common::compare_exact("output after timing", d_data.download(), want)) && ok;

      common::result_row row;
      row.variant = "block=" + std::to_string(block);
      row.type = "float";
      row.n = n;
      row.bytes = 2.0 * double(bytes);  // each element read once and written once
      row.time = time;
      row.ok = ok;
      ctx.report(row);
    }
    return ctx.exit_code();
  });
}
