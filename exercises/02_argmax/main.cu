// Exercise 02, argmax: the program (shared by the skeleton and the solution). Seeded input of the
// chosen kind, CPU reference, poisoned result, run, check, time, check again, report.
#include <argmax.cuh>  // the skeleton's or the solution's: found through the include path

#include <cstdint>
#include <string>
#include <vector>

#include "argmax_problem.hpp"
#include "common/device_buffer.cuh"
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
    ctx.measure_yardsticks(bytes);

    const std::vector<float> in =
        argmax_problem::make_input(argmax_problem::parse_input_kind(input), n, ctx.seed());
    const argmax_problem::result want = argmax_problem::argmax_cpu(in.data(), n);

    common::device_buffer<float> d_in(static_cast<std::size_t>(n));
    common::device_buffer<unsigned char> d_workspace(argmax::workspace_bytes(n));
    common::device_buffer<argmax_problem::result> d_result(1);
    d_in.upload(in);
    const auto check = [&](const std::string& what) {
      const argmax_problem::result got = d_result.download().at(0);
      const bool ok = argmax_problem::same_result(got, want, in.data());
      common::check_result r{what, 1, ok ? 0u : 1u, {}};
      if (!ok) r.first.push_back({0, show(got), show(want)});
      return ctx.check(r);
    };
    const auto run = [&] { argmax::launch(d_in.data(), n, d_workspace.data(), d_result.data()); };
    d_result.poison();
    run();
    bool ok = check("argmax");
    const common::timing_stats time = ctx.time([&] { d_result.poison(); }, run);
    ok = check("argmax after timing") && ok;

    common::result_row row;
    row.variant = "input=" + input;
    row.type = "float";
    row.n = n;
    row.bytes = double(bytes);  // every element read once; the result is 16 bytes
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    return ctx.exit_code();
  });
}
