// Exercise 03, mean_variance: the program (shared by the skeleton and the solution). Seeded input
// around --offset, CPU reference in double, poisoned result, run, check, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "mean_variance_entry.hpp"
#include "mean_variance_problem.hpp"

namespace {

std::string show(const mean_variance_problem::result& r) {
  return "mean " + common::show_value(r.mean) + ", variance " + common::show_value(r.variance);
}

}  // namespace

int main(int argc, char** argv) {
  common::program program("exercises", "mean_variance",
                          "mean and population variance in one pass (exercise 03)");
  std::int64_t offset = 1000, spread = 1;
  program.args().add_int("offset", offset, -10000000, 10000000,
                         "the centre of the data");
  program.args().add_int("spread", spread, 0, 10000000,
                         "the data lie in [offset - spread, offset + spread)");

  return program.run(argc, argv, [&](common::context& ctx) {
    // The input and, for the workspace, a few bytes per element at most; indices are 64-bit.
    const std::int64_t n = ctx.resolve_n(sizeof(float) + 1, sizeof(float), common::MAX_N);
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    const std::vector<float> in =
        mean_variance_problem::make_input(n, ctx.seed(), double(offset), double(spread));
    const mean_variance_problem::reference want =
        mean_variance_problem::mean_variance_cpu(in.data(), n);
    std::fprintf(ctx.log(), "tolerance: mean +- %.3g, variance +- %.3g\n",
                 mean_variance_problem::mean_tolerance(want),
                 mean_variance_problem::variance_tolerance(want));

    common::device_buffer<float> d_in(static_cast<std::size_t>(n));
    common::device_buffer<unsigned char> d_workspace(mean_variance_entry::workspace_bytes(n));
    common::device_buffer<mean_variance_problem::result> d_result(1);
    d_in.upload(in);
    const auto check = [&](const std::string& what) {
      const mean_variance_problem::result got = d_result.download().at(0);
      const bool ok = mean_variance_problem::close_enough(got, want);
      common::check_result r{what, 1, ok ? 0u : 1u, {}};
      if (!ok) r.first.push_back({0, show(got), show(want.want)});
      return ctx.check(r);
    };
    const auto run = [&] {
      mean_variance_entry::launch(d_in.data(), n, d_workspace.data(), d_result.data());
    };
    // The grader compares each value with the solution process's CPU reference, within the
    // tolerance that process derived.
    const auto record = [&](const std::string& what) {
      const mean_variance_problem::result got = d_result.download().at(0);
      grader.values(what + ": mean", {got.mean}, mean_variance_problem::mean_tolerance(want),
                    {want.want.mean});
      grader.values(what + ": variance", {got.variance},
                    mean_variance_problem::variance_tolerance(want), {want.want.variance});
    };
    d_result.poison();
    run();
    bool ok = check("mean and variance");
    record("mean and variance");
    // A perturbed input moves the mean by less than the tolerance, so the repetitions' values are
    // not compared: a result remembered across repetitions shows as a time below the floor.
    const common::timing_stats time = common::graded_time(
        ctx, grader, [&] { d_result.poison(); }, run, [] {},
        [&] { grader.perturb(d_in.data(), n, sizeof(float)); });
    ok = check("mean and variance after timing") && ok;
    record("mean and variance after timing");

    common::result_row row;
    row.variant = "offset=" + std::to_string(offset) + " spread=" + std::to_string(spread);
    row.type = "float";
    row.n = n;
    row.bytes = double(bytes);  // every element read once; the result is 16 bytes
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
