// increment: the program. The shared flow (input, CPU reference, run, check, time, check again,
// report) is common::run_increment_variants; this file says which block sizes to run, and adds
// the control experiment of the sweep: an empty kernel on the same grid.
#include <algorithm>
#include <vector>

#include "common/intro/program.cuh"
#include "increment.cuh"

namespace {

__global__ void empty_kernel() {}

// The same grid as increment::launch with nothing inside: what launching and retiring the blocks
// costs by itself. Reported with 0 bytes: only its time means something.
void time_empty_grid(common::context& ctx, std::int64_t n, int block_threads) {
  const std::int64_t blocks = (n + block_threads - 1) / block_threads;
  if (blocks == 0) return;
  const common::timing_stats time = ctx.time([&] {
    empty_kernel<<<unsigned(blocks), block_threads>>>();
    CUDA_CHECK_LAUNCH();
  });
  common::result_row row;
  row.variant = "empty block=" + std::to_string(block_threads);
  row.type = "none";
  row.n = n;
  row.time = time;
  row.ok = true;  // nothing to check
  ctx.report(row);
}

}  // namespace

int main(int argc, char** argv) {
  common::program program("intro", "increment",
                          "add 1 to every element of a float array (course Exercise 1)");
  int block_threads = increment::BLOCK_THREADS;
  bool sweep = false;
  program.args().add_int("block", block_threads, 1, 1024, "threads per block");
  program.args().add_flag("sweep", sweep,
                          "block sizes 32, 64, ..., 1024, and an empty kernel on each grid");
  // The largest n the smallest block launches, checked before the device probe.
  const auto smallest_block = [&] { return sweep ? 32 : block_threads; };
  program.add_usage_check([&] {
    if (program.given_n() >= 0)
      common::check_n_limit("increment", program.given_n(),
                            increment::max_elements(smallest_block()));
  });

  return program.run(argc, argv, [&](common::context& ctx) {
    std::vector<int> blocks{block_threads};
    if (sweep) blocks = {32, 64, 128, 256, 512, 1024};
    std::vector<common::increment_variant> variants;
    for (const int block : blocks)
      variants.push_back({"block=" + std::to_string(block), [block](float* d, std::int64_t n) {
                            increment::launch(d, n, block);
                          }});
    const int smallest = *std::min_element(blocks.begin(), blocks.end());
    const int code = common::run_increment_variants(ctx, variants, increment::increment_cpu,
                                                    increment::max_elements(smallest));
    if (sweep) {
      const std::int64_t n = ctx.resolve_n(2 * sizeof(float), sizeof(float),
                                           increment::max_elements(smallest));
      for (const int block : blocks) time_empty_grid(ctx, n, block);
    }
    return code;
  });
}
