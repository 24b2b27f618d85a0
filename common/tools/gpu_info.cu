// gpu_info: the device's metadata and the two yardsticks at the reference size.
//   gpu_info --check      exit 0 when a CUDA device is usable, 77 when not (for test scripts)
//   gpu_info --metadata   "key: value" lines (what bench writes at the top of a results file)
//   gpu_info [--n N]      the yardsticks for N floats and the launch floor (an empty kernel), as
//                         rows (--format csv|json for machines)
#include <cstdio>

#include "common/check.cuh"
#include "common/exit_codes.hpp"
#include "common/program.cuh"

namespace {
__global__ void empty_kernel() {}
}  // namespace

int main(int argc, char** argv) {
  common::program program("yardstick", "gpu_info", "GPU metadata and the copy/read yardsticks");
  bool check_only = false, metadata_only = false;
  program.args().add_flag("check", check_only, "exit 0 if a CUDA device is usable, else 77");
  program.args().add_flag("metadata", metadata_only, "print the device's metadata and exit");
  return program.run(argc, argv, [&](common::context& ctx) {
    if (check_only) return common::EXIT_CORRECT;
    if (metadata_only) {
      for (const auto& [key, value] : common::describe_device(ctx.device()))
        std::printf("%s: %s\n", key.c_str(), value.c_str());
      std::printf("results_name: %s\n", common::gpu_slug(ctx.device().name).c_str());
      return common::EXIT_CORRECT;
    }
    const std::int64_t n = ctx.resolve_n(0, sizeof(float), common::MAX_N);
    const double bytes = double(n) * sizeof(float);
    const common::yardsticks& y = ctx.measure_yardsticks(std::size_t(bytes));
    common::result_row copy{"", "memcpy_d2d", "", "float", n, 0, 0, 2 * bytes, y.copy_time};
    copy.ok = true;
    ctx.report(copy);
    common::result_row read{"", "read_only", "float4", "float", n, 0, 0, bytes, y.read_time};
    read.ok = true;
    ctx.report(read);
    // The launch floor: one empty block, timed like every step (events around the launch).
    const common::timing_stats floor = ctx.time([] {
      empty_kernel<<<1, 32>>>();
      CUDA_CHECK_LAUNCH();
    });
    common::result_row launch{"", "launch_floor", "empty kernel", "none", 0, 0, 0, 0, floor};
    launch.ok = true;
    ctx.report(launch);
    return common::EXIT_CORRECT;
  });
}
