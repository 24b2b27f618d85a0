// The reverse_cpu program: the contract of common/program.cuh around a host loop, timed with
// std::chrono (median of --reps, default 5). It runs on the GPU machine's host so that the book
// compares it with that machine's GPU; it measures the GPU yardsticks (for the percentages) but no
// peer.
#include <chrono>
#include <vector>

#include "common/program.cuh"
#include "common/reversal/reference.hpp"
#include "reverse_cpu.cuh"

int main(int argc, char** argv) {
  common::program program("reversal", "reverse_cpu",
                          "reverse an int32 array on one CPU core (course Exercise 3)");
  return program.run(argc, argv, [&](common::context& ctx) {
    // Host memory only; the yardsticks need two device arrays of n int32.
    const std::int64_t n =
        ctx.resolve_n(2 * sizeof(std::int32_t), sizeof(std::int32_t), common::MAX_N);
    ctx.measure_yardsticks(std::size_t(n) * sizeof(std::int32_t));
    const int reps = ctx.was_set("reps") ? ctx.timing().reps : 5;
    const std::vector<std::int32_t> input =
        common::reversal_input<std::int32_t>(std::size_t(n), ctx.seed());
    const std::vector<std::int32_t> want = common::reversed(input);         // on all cores
    std::vector<std::int32_t> out(input.size(), std::int32_t(0xABABABAB));  // poison

    reverse_cpu::reverse(input.data(), out.data(), n);  // checked; also the warm-up
    bool ok = ctx.check(common::compare_exact("output", out, want));
    std::vector<double> samples;
    for (int rep = 0; rep < reps; ++rep) {
      const auto start = std::chrono::steady_clock::now();
      reverse_cpu::reverse(input.data(), out.data(), n);
      const auto stop = std::chrono::steady_clock::now();
      samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    ok = ctx.check(common::compare_exact("output after timing", out, want)) && ok;

    common::result_row row;
    row.type = "int32";
    row.n = n;
    row.bytes = 2.0 * double(n) * sizeof(std::int32_t);  // every element read once, written once
    row.time = common::summarize(std::move(samples));
    row.ok = ok;
    ctx.report(row);
    return ctx.exit_code();
  });
}
