// Exercise 07, segmented_scan: the program (shared by the skeleton and the solution). Seeded
// values and heads, CPU reference, poisoned output, run, check every element, time, check again,
// report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "segmented_scan_entry.hpp"
#include "segmented_scan_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "segmented_scan",
                          "inclusive segmented scan of int32 with uint8 heads (exercise 07)");
  std::int64_t mean_segment = segmented_scan_problem::DEFAULT_MEAN_SEGMENT;
  program.args().add_int("mean-segment", mean_segment, 0, segmented_scan_problem::MAX_MEAN_SEGMENT,
                         "a head every this many elements on average; 0: no heads, 1: all heads");

  return program.run(argc, argv, [&](common::context& ctx) {
    // Values, heads and the output on the device (the scratch is a few bytes per tile).
    const std::int64_t n = ctx.resolve_n(2 * sizeof(std::int32_t) + 1 + 0.01, sizeof(std::int32_t),
                                         segmented_scan_problem::MAX_N);
    const common::yardsticks& yard = ctx.measure_yardsticks(std::size_t(n) * sizeof(std::int32_t));
    common::grader_channel grader;

    const std::vector<std::int32_t> values = segmented_scan_problem::make_values(n, ctx.seed());
    const std::vector<std::uint8_t> heads =
        segmented_scan_problem::make_heads(n, ctx.seed() + 1, mean_segment);
    const std::vector<std::int32_t> want =
        segmented_scan_problem::segmented_scan_reference(values, heads);

    common::device_buffer<std::int32_t> d_values(n), d_out(n);
    common::device_buffer<std::uint8_t> d_heads(n);
    common::device_buffer<unsigned char> d_scratch(segmented_scan_entry::scratch_bytes(n));
    d_values.upload(values);
    d_heads.upload(heads);
    const auto poison = [&] { d_out.poison(); };
    const auto run = [&] {
      segmented_scan_entry::launch(d_values.data(), d_heads.data(), n, d_out.data(),
                                   d_scratch.data());
    };
    const auto check = [&](const std::string& what) {
      return ctx.check(common::compare_device_exact(what, d_out.data(), want.data(), want.size()));
    };

    poison();
    run();
    bool ok = check("segmented scan");
    grader.output("segmented scan", d_out.data(), d_out.bytes());
    const auto digest = [&] { grader.rep_output(d_out.data(), d_out.bytes()); };
    const common::timing_stats time = common::graded_time(ctx, grader, poison, run, digest, [&] {
      grader.perturb(d_values.data(), n, sizeof(std::int32_t));
      grader.perturb(d_heads.data(), n, sizeof(std::uint8_t));
    });
    ok = check("segmented scan after timing") && ok;
    grader.output("segmented scan after timing", d_out.data(), d_out.bytes());

    common::result_row row;
    row.variant = "mean_segment=" + std::to_string(mean_segment);
    row.type = "int32";
    row.n = n;
    row.bytes = double(n) * (2 * sizeof(std::int32_t) + 1);  // values and heads read, out written
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
