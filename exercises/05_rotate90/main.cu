// Exercise 05, rotate90: the program (shared by the skeleton and the solution). Seeded rows x cols
// floats, CPU reference, poisoned output, run, exact check, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "common/random.hpp"
#include "rotate90_entry.hpp"
#include "rotate90_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "rotate90",
                          "rotate a rows x cols float matrix 90 degrees clockwise (exercise 05)");
  program.add_matrix_size();

  return program.run(argc, argv, [&](common::context& ctx) {
    // In and out on the device, 4 bytes each per element; indices are 64-bit.
    const common::matrix_size m =
        ctx.resolve_matrix(2 * sizeof(float), sizeof(float), common::MAX_N);
    const std::int64_t n = m.elements();
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    // 24 random bits per element: a misplaced element almost never holds the right value.
    const std::vector<float> in = common::random_floats(std::size_t(n), ctx.seed(), -1.0f, 1.0f);
    std::vector<float> want(in.size());
    rotate90_problem::rotate_cpu(in.data(), want.data(), m.rows, m.cols);

    common::device_buffer<float> d_in(in.size()), d_out(in.size());
    d_in.upload(in);
    const auto check = [&](const std::string& what) {  // out index c * rows + rows-1-r
      return ctx.check(common::compare_device_exact(what, d_out.data(), want.data(), want.size()));
    };
    const auto run = [&] { rotate90_entry::launch(d_in.data(), d_out.data(), m.rows, m.cols); };
    d_out.poison();
    run();
    bool ok = check("rotation");
    grader.output("rotation", d_out.data(), d_out.bytes());
    const auto digest = [&] { grader.rep_output(d_out.data(), d_out.bytes()); };
    const common::timing_stats time = common::graded_time(
        ctx, grader, [&] { d_out.poison(); }, run, digest,
        [&] { grader.perturb(d_in.data(), n, sizeof(float)); });
    ok = check("rotation after timing") && ok;
    grader.output("rotation after timing", d_out.data(), d_out.bytes());

    common::result_row row;
    row.type = "float";
    row.n = n;
    row.rows = m.rows;
    row.cols = m.cols;
    row.bytes = 2.0 * double(bytes);  // every element read once and written once
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
