// Exercise 01, saxpy: the program (shared by the skeleton and the solution). Seeded input, CPU
// reference, run, check, time, check again, report; --sweep tries every block size.
#include <algorithm>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "saxpy_entry.hpp"
#include "saxpy_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "saxpy", "y = a*x + y over float arrays (exercise 01)");
  int block_threads = saxpy_entry::block_threads();
  bool sweep = false;
  program.args().add_int("block", block_threads, 1, 1024, "threads per block");
  program.args().add_flag("sweep", sweep, "block sizes 32, 64, ..., 1024");

  return program.run(argc, argv, [&](common::context& ctx) {
    std::vector<int> blocks{block_threads};
    if (sweep) blocks = {32, 64, 128, 256, 512, 1024};
    // x, y and a pristine copy of y on the device; the smallest block limits n.
    const int smallest = *std::min_element(blocks.begin(), blocks.end());
    const std::int64_t n =
        ctx.resolve_n(3 * sizeof(float), sizeof(float), saxpy_entry::max_elements(smallest));
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    const float a = saxpy_problem::A;
    // The inputs are made on the host a chunk at a time and sent to the device, and made again
    // element by element where the check needs them, as each chunk of the output comes down: the
    // host holds no array of n elements (at 2^31 elements each would be 8.6 GB).
    const auto x = [&](std::size_t i) {
      return saxpy_problem::input_at(ctx.seed(), i, saxpy_problem::X_LIMIT);
    };
    const auto y0 = [&](std::size_t i) {
      return saxpy_problem::input_at(ctx.seed() + 1, i, saxpy_problem::Y_LIMIT);
    };
    common::device_buffer<float> d_x(n), d_y0(n), d_y(n);
    common::upload_generated(d_x.data(), std::size_t(n), x);
    common::upload_generated(d_y0.data(), std::size_t(n), y0);
    const auto restore = [&] {
      if (n > 0) CUDA_CHECK(cudaMemcpy(d_y.data(), d_y0.data(), bytes, cudaMemcpyDeviceToDevice));
    };
    const auto check = [&](const std::string& what) {
      return ctx.check(common::compare_device_elements(
          what, d_y.data(), std::size_t(n),
          [&](std::size_t i, float got) {
            const float xi = x(i), yi = y0(i), want = saxpy_problem::reference(a, xi, yi);
            return !saxpy_problem::close_enough(got, want, a, xi, yi);
          },
          [&](std::size_t i, float got) {
            return common::mismatch{i, common::show_value(got),
                                    common::show_value(saxpy_problem::reference(a, x(i), y0(i)))};
          }));
    };
    for (const int block : blocks) {
      const std::string name = "block=" + std::to_string(block);
      const auto run = [&] { saxpy_entry::launch(a, d_x.data(), d_y.data(), n, block); };
      restore();
      run();
      bool ok = check(name);
      grader.output(name, d_y.data(), bytes);
      const auto digest = [&] { grader.rep_output(d_y.data(), bytes); };
      const common::timing_stats time = common::graded_time(ctx, grader, restore, run, digest, [&] {
        grader.perturb(d_x.data(), n, sizeof(float));
        grader.perturb(d_y.data(), n, sizeof(float));
      });
      ok = check(name + " after timing") && ok;
      grader.output(name + " after timing", d_y.data(), bytes);
      common::result_row row;
      row.variant = name;
      row.type = "float";
      row.n = n;
      row.bytes = 3.0 * double(bytes);  // x and y read, y written
      row.time = time;
      row.ok = ok;
      ctx.report(row);
      grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    }
    return ctx.exit_code();
  });
}
