// Exercise 10, histogram: the program (shared by the skeleton and the solution). Seeded skewed
// bytes, CPU reference, poisoned counts, run, check all 256 counts, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "histogram_entry.hpp"
#include "histogram_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "histogram",
                          "256-bin histogram of skewed bytes, 64-bit counts (exercise 10)");
  int hot_percent = histogram_problem::DEFAULT_HOT_PERCENT;
  program.args().add_int("hot-percent", hot_percent, 0, 100,
                         "the share of bytes equal to 0x20, the rest uniform");

  return program.run(argc, argv, [&](common::context& ctx) {
    const std::int64_t n = ctx.resolve_n(1, 1, histogram_problem::MAX_N);
    const common::yardsticks& yard = ctx.measure_yardsticks(std::size_t(n));
    common::grader_channel grader;

    const std::vector<std::uint8_t> bytes =
        histogram_problem::make_input(n, ctx.seed(), hot_percent);
    const histogram_problem::counts want = histogram_problem::histogram_reference(bytes);

    common::device_buffer<std::uint8_t> d_bytes(n);
    common::device_buffer<unsigned long long> d_counts(histogram_problem::BINS);
    d_bytes.upload(bytes);
    const auto poison = [&] { d_counts.poison(); };
    const auto run = [&] { histogram_entry::launch(d_bytes.data(), n, d_counts.data()); };
    const auto check = [&](const std::string& what) {
      const std::vector<unsigned long long> got = d_counts.download();
      const std::vector<unsigned long long> expected(want.begin(), want.end());
      return ctx.check(common::compare_exact(what, got, expected));
    };

    poison();
    run();
    bool ok = check("bin counts");
    grader.output("bin counts", d_counts.data(), d_counts.bytes());
    const auto digest = [&] { grader.rep_output(d_counts.data(), d_counts.bytes()); };
    const common::timing_stats time = common::graded_time(ctx, grader, poison, run, digest, [&] {
      grader.perturb(d_bytes.data(), n, sizeof(std::uint8_t));
    });
    ok = check("bin counts after timing") && ok;
    grader.output("bin counts after timing", d_counts.data(), d_counts.bytes());

    common::result_row row;
    row.variant = "hot=" + std::to_string(hot_percent) + "%";
    row.type = "uint8";
    row.n = n;
    row.bytes = double(n) + histogram_problem::BINS * sizeof(std::uint64_t);  // read, and counts
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
