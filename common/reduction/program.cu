#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/device_buffer.cuh"
#include "common/reduction/peer_cub.cuh"
#include "common/program.cuh"
#include "common/reduction/program.cuh"
#include "common/reduction/reference.hpp"

namespace common {
namespace {

template <class T>
bool run_type(context& ctx, const reduction_step& step, int n,
              void (*launch)(const T*, int, T*, T*)) {
  const char* type = std::is_same_v<T, float> ? "float" : "int32";
  const std::vector<T> input = reduction_input<T>(std::size_t(n), ctx.seed());
  const auto want = reference_sum(input);

  device_buffer<T> d_in(n), d_out(1), d_workspace(step.workspace_elements(n));
  d_in.upload(input);
  d_out.poison();        // a launch that never writes the sum leaves NaN / 0xABABABAB
  d_workspace.poison();  // a pass that reads a partial sum nobody wrote gets the same
  auto run = [&] { launch(d_in.data(), n, d_out.data(), d_workspace.data()); };
  auto sum_of = [](const device_buffer<T>& d) { return d.download()[0]; };

  run();
  bool ok = ctx.check(check_sum(std::string(type) + " sum", sum_of(d_out), want));
  const timing_stats time = ctx.time(run);
  ok = ctx.check(check_sum(std::string(type) + " sum after timing", sum_of(d_out), want)) && ok;

  // The peer, on the same input in the same process; its temporary storage is allocated here,
  // outside the timed region.
  const std::size_t temp_bytes = cub_sum_temp_bytes<T>(n);
  device_buffer<unsigned char> d_temp(temp_bytes);
  device_buffer<T> d_peer_out(1);
  d_peer_out.poison();
  auto run_peer = [&] { cub_sum(d_in.data(), n, d_peer_out.data(), d_temp.data(), temp_bytes); };
  run_peer();
  ok = ctx.check(check_sum(std::string("cub ") + type + " sum", sum_of(d_peer_out), want)) && ok;
  const timing_stats peer_time = ctx.time(run_peer);

  result_row row;
  row.type = type;
  row.n = n;
  row.bytes = double(n) * sizeof(T);  // every element read once; the single result is negligible
  row.time = time;
  row.peer = "cub::DeviceReduce::Sum";
  row.peer_gbps = gb_per_s(row.bytes, peer_time.median_ms);
  row.ok = ok;
  ctx.report(row);
  return ok;
}

}  // namespace

int run_reduction_program(int argc, char** argv, const reduction_step& step) {
  program p("reduction", step.name, step.summary);
  std::string type = "both";
  p.args().add_choice("type", type, {"int32", "float", "both"}, "element type");
  return p.run(argc, argv, [&](context& ctx) {
    // Device memory per element: the input, the workspace (under one element per element), and
    // CUB's temporary storage (small).
    const int n = int(ctx.resolve_n(2 * sizeof(float), sizeof(float)));
    ctx.measure_yardsticks(std::size_t(n) * sizeof(float));
    if (type != "float") run_type<std::int32_t>(ctx, step, n, step.launch_int32);
    if (type != "int32") run_type<float>(ctx, step, n, step.launch_float);
    return ctx.exit_code();
  });
}

}  // namespace common
