// The transpose_cpu program: the contract of common/program.cuh around two host loops, timed with
// std::chrono (median of --reps, default 3: one 16384^2 transpose takes seconds). It runs on the
// GPU machine's host so that the book compares it with that machine's GPU; it measures no GPU
// yardstick and no peer.
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/program.cuh"
#include "common/random.hpp"
#include "common/transpose/program.cuh"
#include "transpose_cpu.cuh"

int main(int argc, char** argv) {
  common::program program("transpose", "transpose_cpu",
                          "transpose on one CPU core: naive loops and 32 x 32 blocks (source 004)");
  bool sweep = false;
  program.args().add_flag("sweep", sweep, "also measure the 32 x 32 blocked loops");
  program.add_matrix_size();

  return program.run(argc, argv, [&](common::context& ctx) {
    const common::matrix_size m = ctx.resolve_matrix(0, 0, common::MAX_N);
    const int reps = ctx.was_set("reps") ? ctx.timing().reps : 3;
    const std::size_t n = std::size_t(m.elements());
    const std::vector<float> input = common::random_floats(n, ctx.seed(), -1000.0f, 1000.0f);
    std::vector<float> want(n), out(n);
    common::transpose_reference(input.data(), want.data(), m.rows, m.cols);

    struct variant {
      const char* name;
      void (*run)(const float*, float*, std::int64_t, std::int64_t);
    };
    std::vector<variant> variants{{"naive", transpose_cpu::naive}};
    if (sweep) variants.push_back({"blocked32", transpose_cpu::blocked});
    for (const variant& v : variants) {
      std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());  // poison
      v.run(input.data(), out.data(), m.rows, m.cols);
      bool ok = ctx.check(common::compare_exact("output", out, want));
      std::vector<double> samples;  // the checked run above was the warm-up
      for (int rep = 0; rep < reps; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        v.run(input.data(), out.data(), m.rows, m.cols);
        const auto stop = std::chrono::steady_clock::now();
        samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
      }
      ok = ctx.check(common::compare_exact("output after timing", out, want)) && ok;

      common::result_row row;
      row.variant = v.name;
      row.type = "float";
      row.n = m.elements();
      row.rows = m.rows;
      row.cols = m.cols;
      row.bytes = 2.0 * double(n * sizeof(float));  // every element read once and written once
      row.time = common::summarize(std::move(samples));
      row.ok = ok;
      ctx.report(row);
    }
    return ctx.exit_code();
  });
}
