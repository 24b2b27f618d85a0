// The scan_cpu program: the contract of common/program.cuh around one host loop, timed with
// std::chrono (median of --reps; default 30 up to 2^24 elements, 3 above). It runs on the GPU
// machine's host so that the book compares it with that machine's GPU, as the slides compare a
// Core Duo core with an 8800 GTX; it measures no GPU yardstick and no peer.
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "common/program.cuh"
#include "common/scan/program.cuh"
#include "common/scan/reference.hpp"
#include "scan_cpu.cuh"

namespace {

template <class T>
bool run_type(common::context& ctx, std::int64_t n, int reps) {
  const std::size_t count = std::size_t(n);
  const std::vector<T> input = common::scan_input<T>(count, ctx.seed());
  std::vector<T> out(count,
                     std::is_integral_v<T> ? T(0x5A5A5A5A) : std::numeric_limits<T>::quiet_NaN());
  const char* type = std::is_same_v<T, float> ? "float" : "int32";
  scan_cpu::scan(input.data(), out.data(), n);
  bool ok = ctx.check(common::check_sequential_scan(std::string(type) + " output", input.data(),
                                                    out.data(), count, false));
  std::vector<double> samples;  // the checked run above was the warm-up
  for (int rep = 0; rep < reps; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    scan_cpu::scan(input.data(), out.data(), n);
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  ok = ctx.check(common::check_sequential_scan(std::string(type) + " output after timing",
                                               input.data(), out.data(), count, false)) &&
       ok;
  common::result_row row;
  row.type = type;
  row.n = n;
  row.bytes = 2.0 * double(count) * sizeof(T);  // every element read once and written once
  row.time = common::summarize(std::move(samples));
  row.ok = ok;
  ctx.report(row);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  common::program program("scan", "scan_cpu",
                          "exclusive scan on one CPU core: the slides' sequential loop");
  std::string type = "both";
  program.args().add_choice("type", type, {"int32", "float", "both"}, "element type");
  return program.run(argc, argv, [&](common::context& ctx) {
    const std::int64_t n = ctx.resolve_n(0, 0, common::MAX_N);
    const int reps = ctx.was_set("reps") ? ctx.timing().reps : n <= (1 << 24) ? 30 : 3;
    if (type != "float") run_type<std::int32_t>(ctx, n, reps);
    if (type != "int32") run_type<float>(ctx, n, reps);
    return ctx.exit_code();
  });
}
