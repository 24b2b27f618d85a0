// Exercise 06, compact: the program (shared by the skeleton and the solution). Seeded input,
// CPU reference, poisoned output, run, check the count and every kept element, time, check again,
// report.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "compact_entry.hpp"
#include "compact_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "compact",
                          "keep the int32 elements above a threshold, in order (exercise 06)");
  std::int32_t threshold = compact_problem::DEFAULT_THRESHOLD;
  program.args().add_int("threshold", threshold, std::numeric_limits<std::int32_t>::min(),
                         std::numeric_limits<std::int32_t>::max(),
                         "keep the elements greater than this (0: about half)");

  return program.run(argc, argv, [&](common::context& ctx) {
    // The input and the output on the device (the scratch is a few bytes per tile).
    const std::int64_t n = ctx.resolve_n(2 * sizeof(std::int32_t) + 0.01, sizeof(std::int32_t),
                                         compact_problem::MAX_N);
    const common::yardsticks& yard = ctx.measure_yardsticks(std::size_t(n) * sizeof(std::int32_t));
    common::grader_channel grader;

    const std::vector<std::int32_t> in = compact_problem::make_input(n, ctx.seed());
    const std::vector<std::int32_t> want = compact_problem::compact_reference(in, threshold);
    const auto want_count = static_cast<unsigned long long>(want.size());

    common::device_buffer<std::int32_t> d_in(n), d_out(n);
    common::device_buffer<unsigned long long> d_count(1);
    common::device_buffer<unsigned char> d_scratch(compact_entry::scratch_bytes(n));
    d_in.upload(in);
    const auto poison = [&] {
      d_out.poison();
      d_count.poison();
    };
    const auto run = [&] {
      compact_entry::launch(d_in.data(), n, threshold, d_out.data(), d_count.data(),
                            d_scratch.data());
    };
    const auto check = [&](const std::string& what) {
      const unsigned long long got_count = d_count.download()[0];
      bool ok = ctx.check(common::compare_exact(what + ": count", &got_count, &want_count, 1));
      // The kept elements, as far as both counts reach (a wrong count fails above).
      const std::size_t shown = std::size_t(std::min(got_count, want_count));
      ok = ctx.check(common::compare_device_exact(what + ": kept elements", d_out.data(),
                                                  want.data(), shown)) &&
           ok;
      return ok;
    };

    // What the grader compares: the count, and the kept elements as far as it reaches (at most n).
    const auto kept_bytes = [&] {
      const unsigned long long count = d_count.download()[0];
      return std::size_t(std::min<unsigned long long>(count, std::uint64_t(n))) *
             sizeof(std::int32_t);
    };
    const auto record = [&](const std::string& what) {
      grader.output(what + ": count", d_count.data(), d_count.bytes());
      grader.output(what + ": kept elements", d_out.data(), kept_bytes());
    };
    const auto digest = [&] {
      grader.rep_output(d_count.data(), d_count.bytes());
      grader.rep_output(d_out.data(), kept_bytes());
    };
    poison();
    run();
    bool ok = check("compact");
    record("compact");
    const common::timing_stats time = common::graded_time(ctx, grader, poison, run, digest, [&] {
      grader.perturb(d_in.data(), n, sizeof(std::int32_t));
    });
    ok = check("compact after timing") && ok;
    record("compact after timing");

    common::result_row row;
    row.variant = "threshold=" + std::to_string(threshold);
    row.type = "int32";
    row.n = n;
    // Every element read once, every kept element written once, and the count.
    row.bytes = double(n) * sizeof(std::int32_t) + double(want.size()) * sizeof(std::int32_t) +
                sizeof(unsigned long long);
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
