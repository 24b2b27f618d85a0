// Exercise 02, argmax: the program (shared by the skeleton and the solution). Seeded input of the
// chosen kind, CPU reference, poisoned result, run, check, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "argmax_entry.hpp"
#include "argmax_problem.hpp"
#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"

namespace {

std::string show(const argmax_problem::result& r) {
  return "index " + std::to_string(r.index) + ", value " + common::show_value(r.value);
}

}  // namespace

int main(int argc, char** argv) {
  common::program program("exercises", "argmax",
                          "the largest float and its first index (exercise 02)");
  std::string input = "uniform";
  program.args().add_choice("input", input, argmax_problem::input_kind_names(),
                            "the input (argmax_problem.hpp describes each kind)");

  return program.run(argc, argv, [&](common::context& ctx) {
    // The input and, for the workspace, a few bytes per element at most; indices are 64-bit.
    const std::int64_t n = ctx.resolve_n(sizeof(float) + 1, sizeof(float), common::MAX_N);
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    const std::vector<float> in =
        argmax_problem::make_input(argmax_problem::parse_input_kind(input), n, ctx.seed());
    const argmax_problem::result want = argmax_problem::argmax_cpu(in.data(), n);

    common::device_buffer<float> d_in(static_cast<std::size_t>(n));
    common::device_buffer<unsigned char> d_workspace(argmax_entry::workspace_bytes(n));
    common::device_buffer<argmax_problem::result> d_result(1);
    d_in.upload(in);
    const auto check = [&](const std::string& what) {
      const argmax_problem::result got = d_result.download().at(0);
      const bool ok = argmax_problem::same_result(got, want, in.data());
      common::check_result r{what, 1, ok ? 0u : 1u, {}};
      if (!ok) r.first.push_back({0, show(got), show(want)});
      return ctx.check(r);
    };
    const auto run = [&] {
      argmax_entry::launch(d_in.data(), n, d_workspace.data(), d_result.data());
    };
    // The grader compares the fields (the struct's padding is not part of the answer).
    const auto fields = [&] {
      const argmax_problem::result got = d_result.download().at(0);
      return std::vector<double>{double(got.index), double(got.value)};
    };
    d_result.poison();
    run();
    bool ok = check("argmax");
    grader.values("argmax", fields());
    const auto digest = [&] { grader.rep_values(fields()); };
    const common::timing_stats time = common::graded_time(
        ctx, grader, [&] { d_result.poison(); }, run, digest,
        [&] { grader.perturb(d_in.data(), n, sizeof(float)); });
    ok = check("argmax after timing") && ok;
    grader.values("argmax after timing", fields());

    common::result_row row;
    row.variant = "input=" + input;
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
