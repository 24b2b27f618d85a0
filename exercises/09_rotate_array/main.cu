// Exercise 09, rotate_array: the program (shared by the skeleton and the solution). Seeded input,
// CPU reference, poisoned output, run, check every element, time, check again, report.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/device_chunks.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "common/random.hpp"
#include "rotate_array_entry.hpp"
#include "rotate_array_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "rotate_array",
                          "out[(i + k) mod n] = in[i] for int32 arrays (exercise 09)");
  std::int64_t k = rotate_array_problem::DEFAULT_K;
  program.args().add_int("k", k, -rotate_array_problem::MAX_ABS_K, rotate_array_problem::MAX_ABS_K,
                         "rotate by this many places; negative: the other way");

  return program.run(argc, argv, [&](common::context& ctx) {
    const std::int64_t n =
        ctx.resolve_n(2 * sizeof(std::int32_t), sizeof(std::int32_t), rotate_array_problem::MAX_N);
    const std::size_t bytes = std::size_t(n) * sizeof(std::int32_t);
    const common::yardsticks& yard = ctx.measure_yardsticks(bytes);
    common::grader_channel grader;

    const std::vector<std::int32_t> in =
        common::random_ints(std::size_t(n), ctx.seed(), -1000000000, 1000000000);
    const std::vector<std::int32_t> want = rotate_array_problem::rotate_reference(in, k);

    common::device_buffer<std::int32_t> d_in(n), d_out(n);
    d_in.upload(in);
    const auto poison = [&] { d_out.poison(); };
    const auto run = [&] { rotate_array_entry::launch(d_in.data(), n, k, d_out.data()); };
    const auto check = [&](const std::string& what) {
      return ctx.check(common::compare_device_exact(what, d_out.data(), want.data(), want.size()));
    };

    poison();
    run();
    bool ok = check("rotation");
    grader.output("rotation", d_out.data(), d_out.bytes());
    const auto digest = [&] { grader.rep_output(d_out.data(), d_out.bytes()); };
    const common::timing_stats time = common::graded_time(ctx, grader, poison, run, digest, [&] {
      grader.perturb(d_in.data(), n, sizeof(std::int32_t));
    });
    ok = check("rotation after timing") && ok;
    grader.output("rotation after timing", d_out.data(), d_out.bytes());

    common::result_row row;
    row.variant = "k=" + std::to_string(k);
    row.type = "int32";
    row.n = n;
    row.bytes = 2.0 * double(bytes);  // every element read once and written once
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, yard.copy_gbps, yard.read_gbps);
    return ctx.exit_code();
  });
}
