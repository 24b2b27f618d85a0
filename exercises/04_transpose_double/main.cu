// Exercise 04, transpose_double: the program (shared by the skeleton and the solution). Seeded
// rows x cols doubles, CPU reference, poisoned output, run, exact check, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "transpose_double_entry.hpp"
#include "transpose_double_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "transpose_double",
                          "out = in^T for a rows x cols matrix of doubles (exercise 04)");
  program.add_matrix_size();

  return program.run(argc, argv, [&](common::context& ctx) {
    // In and out on the device, 8 bytes each per element; indices are 64-bit.
    const common::matrix_size m =
        ctx.resolve_matrix(2 * sizeof(double), sizeof(double), common::MAX_N);
    const std::int64_t n = m.elements();
    const std::size_t bytes = std::size_t(n) * sizeof(double);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    const std::vector<double> in = transpose_double_problem::make_input(m.rows, m.cols, ctx.seed());
    std::vector<double> want(in.size());
    transpose_double_problem::transpose_cpu(in.data(), want.data(), m.rows, m.cols);

    common::device_buffer<double> d_in(in.size()), d_out(in.size());
    d_in.upload(in);
    const auto check = [&](const std::string& what) {  // out index c * rows + r
      return ctx.check(common::compare_device_exact(what, d_out.data(), want.data(), want.size()));
    };
    const auto run = [&] {
      transpose_double_entry::launch(d_in.data(), d_out.data(), m.rows, m.cols);
    };
    d_out.poison();
    run();
    bool ok = check("transpose");
    grader.output("transpose", d_out.data(), d_out.bytes());
    const auto digest = [&] { grader.rep_output(d_out.data(), d_out.bytes()); };
    const common::timing_stats time = common::graded_time(
        ctx, grader, [&] { d_out.poison(); }, run, digest,
        [&] { grader.perturb(d_in.data(), n, sizeof(double)); });
    ok = check("transpose after timing") && ok;
    grader.output("transpose after timing", d_out.data(), d_out.bytes());

    common::result_row row;
    row.type = "double";
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
