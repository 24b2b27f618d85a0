#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/reduction/peer_cub.cuh"
#include "common/reduction/program.cuh"
#include "common/reduction/reference.hpp"

namespace common {
namespace {

template <class T, class Count>
bool run_type(context& ctx, const basic_reduction_step<Count>& step, std::int64_t count,
              void (*launch)(const T*, Count, T*, T*)) {
  const char* type = std::is_same_v<T, float> ? "float" : "int32";
  const Count n = Count(count);  // the caller has checked that count fits in Count
  const std::vector<T> input = reduction_input<T>(std::size_t(n), ctx.seed());
  const auto want = reference_sum(input);

  device_buffer<T> d_in{static_cast<std::size_t>(n)}, d_out(1),
      d_workspace(step.workspace_elements(n));
  d_in.upload(input);
  d_out.poison();        // a launch that never writes the sum leaves NaN / 0xABABABAB
  d_workspace.poison();  // a pass that reads a partial sum nobody wrote gets the same
  auto run = [&] { launch(d_in.data(), n, d_out.data(), d_workspace.data()); };
  auto sum_of = [](const device_buffer<T>& d) { return d.download()[0]; };

  run();
  bool ok = ctx.check(check_sum(std::string(type) + " sum", sum_of(d_out), want));
  const timing_stats time = ctx.time(run);
  ok = ctx.check(check_sum(std::string(type) + " sum after timing", sum_of(d_out), want)) && ok;

  // The peer, on the same input in the same process, called with a 64-bit item count; its
  // temporary storage is allocated here, outside the timed region.
  const std::size_t temp_bytes = cub_sum_temp_bytes<T>(count);
  device_buffer<unsigned char> d_temp(temp_bytes);
  device_buffer<T> d_peer_out(1);
  d_peer_out.poison();
  auto run_peer = [&] {
    cub_sum(d_in.data(), count, d_peer_out.data(), d_temp.data(), temp_bytes);
  };
  run_peer();
  ok = ctx.check(check_sum(std::string("cub ") + type + " sum", sum_of(d_peer_out), want)) && ok;
  const timing_stats peer_time = ctx.time(run_peer);

  result_row row;
  row.type = type;
  row.variant = step.variant;
  row.n = count;
  row.bytes =
      double(count) * sizeof(T);  // every element read once; the single result is negligible
  row.time = time;
  row.peer = "cub::DeviceReduce::Sum";
  row.peer_gbps = gb_per_s(row.bytes, peer_time.median_ms);
  row.ok = ok;
  ctx.report(row);
  return ok;
}

// Device memory per element: the input, the workspace (under one element per element), and
// CUB's temporary storage (small). An explicit --n that does not fit is a usage error.
std::int64_t resolve_reduction_n(context& ctx) {
  return ctx.resolve_n(2 * sizeof(float), sizeof(float), MAX_N);
}

template <class Count>
void run_types(context& ctx, const std::string& type, const basic_reduction_step<Count>& step,
               std::int64_t n) {
  if (type != "float") run_type<std::int32_t>(ctx, step, n, step.launch_int32);
  if (type != "int32") run_type<float>(ctx, step, n, step.launch_float);
}

}  // namespace

int run_reduction_program(int argc, char** argv, const reduction_step& step) {
  const std::string limit = std::string(
                                "n < 2^31: its kernels index with 32-bit ints, as the "
                                "literature's code does; ") +
                            LARGE_N_STEP + " takes any n that fits in device memory";
  program p("reduction", step.name, std::string(step.summary) + " (" + limit + ")");
  std::string type = "both";
  p.args().add_choice("type", type, {"int32", "float", "both"}, "element type");
  p.limit_n(MAX_N_INT32_INDEX, limit);
  return p.run(argc, argv, [&](context& ctx) {
    const std::int64_t n = resolve_reduction_n(ctx);
    ctx.measure_yardsticks(std::size_t(n) * sizeof(float));
    run_types(ctx, type, step, n);
    return ctx.exit_code();
  });
}

int run_reduction_program(int argc, char** argv, const std::vector<reduction_step_64>& variants) {
  const reduction_step_64& first = variants.at(0);
  program p("reduction", first.name, first.summary);
  std::string type = "both", variant = first.variant;
  bool sweep = false;
  p.args().add_choice("type", type, {"int32", "float", "both"}, "element type");
  if (variants.size() > 1) {
    std::vector<std::string> names;
    for (const reduction_step_64& v : variants) names.push_back(v.variant);
    p.args().add_choice("variant", variant, names, "measure this variant only");
    p.args().add_flag("sweep", sweep, "measure every variant, in order");
  }
  return p.run(argc, argv, [&](context& ctx) {
    const std::int64_t n = resolve_reduction_n(ctx);
    ctx.measure_yardsticks(std::size_t(n) * sizeof(float));
    for (const reduction_step_64& v : variants) {
      if (sweep || variant == v.variant) run_types(ctx, type, v, n);
    }
    return ctx.exit_code();
  });
}

}  // namespace common
