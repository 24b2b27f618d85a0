#include <cstdio>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/reduction/reference.hpp"
#include "common/scan/peer_cub.cuh"
#include "common/scan/program.cuh"
#include "common/scan/reference.hpp"

namespace common {

template <class T>
std::vector<T> scan_input(std::size_t n, std::uint64_t seed) {
  return reduction_input<T>(n, seed);
}
template std::vector<std::int32_t> scan_input<std::int32_t>(std::size_t, std::uint64_t);
template std::vector<float> scan_input<float>(std::size_t, std::uint64_t);

scan_variant variant_of(std::string name,
                        void (*launch_int32)(const std::int32_t*, std::int64_t, std::int32_t*),
                        void (*launch_float)(const float*, std::int64_t, float*)) {
  scan_variant v;
  v.name = std::move(name);
  v.exclusive_int32 = [=](const std::int32_t* in, std::int64_t n, std::int32_t* out, void*) {
    launch_int32(in, n, out);
  };
  v.exclusive_float = [=](const float* in, std::int64_t n, float* out, void*) {
    launch_float(in, n, out);
  };
  return v;
}

scan_variant variant_of(std::string name,
                        void (*launch_int32)(const std::int32_t*, std::int64_t, std::int32_t*,
                                             void*),
                        void (*launch_float)(const float*, std::int64_t, float*, void*),
                        std::size_t (*workspace_bytes)(std::int64_t)) {
  scan_variant v;
  v.name = std::move(name);
  v.exclusive_int32 = launch_int32;
  v.exclusive_float = launch_float;
  v.workspace_bytes = workspace_bytes;
  return v;
}

namespace {

struct options {
  bool inclusive = false;
  bool no_peer = false;
};

template <class T>
const scan_launch<T>& launch_of(const scan_variant& v, bool inclusive) {
  if constexpr (std::is_same_v<T, float>)
    return inclusive ? v.inclusive_float : v.exclusive_float;
  else
    return inclusive ? v.inclusive_int32 : v.exclusive_int32;
}

template <class T>
bool run_type(context& ctx, const std::vector<scan_variant>& variants, std::int64_t n,
              const options& opt) {
  const char* type = std::is_same_v<T, float> ? "float" : "int32";
  const std::size_t count = std::size_t(n);
  const std::vector<T> input = scan_input<T>(count, ctx.seed());
  device_buffer<T> d_in(count), d_out(count);
  d_in.upload(input);
  std::vector<T> got;
  auto check = [&](const std::string& what) {
    d_out.download(got);
    return ctx.check(
        check_scan(std::string(type) + " " + what, input.data(), got.data(), count, opt.inclusive));
  };

  // The peer first, so that every row of this run carries it: same process, same input. Its
  // temporary storage is allocated here, outside the timed region. Not with --quick (the
  // sanitizer tests run --quick and check our kernels, not CUB's) nor with --no-peer.
  double peer_gbps = 0;
  const char* peer =
      opt.inclusive ? "cub::DeviceScan::InclusiveSum" : "cub::DeviceScan::ExclusiveSum";
  if (!opt.no_peer && !ctx.quick()) {
    const std::size_t temp_bytes = cub_scan_temp_bytes<T>(n, opt.inclusive);
    device_buffer<unsigned char> d_temp(temp_bytes);
    auto run_peer = [&] {
      cub_scan(d_in.data(), n, d_out.data(), d_temp.data(), temp_bytes, opt.inclusive);
    };
    d_out.poison();
    run_peer();
    bool ok = check("cub output");
    const timing_stats t = ctx.time(run_peer);
    ok = check("cub output after timing") && ok;
    if (ok) peer_gbps = gb_per_s(2.0 * double(count) * sizeof(T), t.median_ms);
  }

  bool all_ok = true;
  for (const scan_variant& v : variants) {
    if (v.path_here) std::fprintf(ctx.log(), "%s: %s\n", v.name.c_str(), v.path_here().c_str());
    const scan_launch<T>& launch = launch_of<T>(v, opt.inclusive);
    device_buffer<unsigned char> d_workspace(v.workspace_bytes ? v.workspace_bytes(n) : 0);
    d_out.poison();        // an element never written stays NaN / 0xABABABAB
    d_workspace.poison();  // a flag, a counter or a partial sum nobody wrote reads as poison
    auto run = [&] { launch(d_in.data(), n, d_out.data(), d_workspace.data()); };
    run();
    bool ok = check("output");
    const timing_stats time = ctx.time(run);
    ok = check("output after timing") && ok;

    result_row row;
    row.variant = v.name;
    row.type = type;
    row.n = n;
    row.bytes = 2.0 * double(count) * sizeof(T);  // every element read once and written once
    row.time = time;
    if (peer_gbps > 0) {
      row.peer = peer;
      row.peer_gbps = peer_gbps;
    }
    row.ok = ok;
    ctx.report(row);
    all_ok = all_ok && ok;
  }
  return all_ok;
}

}  // namespace

int run_scan_program(int argc, char** argv, const scan_step& step) {
  program p("scan", step.name, step.summary);
  std::string type = "both", variant;
  bool sweep = false;
  options opt;
  p.args().add_choice("type", type, {"int32", "float", "both"}, "element type");
  const bool has_inclusive = bool(step.variants.at(0).inclusive_int32);
  if (has_inclusive)
    p.args().add_flag("inclusive", opt.inclusive,
                      "inclusive scan (out[i] includes in[i]) instead of the exclusive scan");
  if (!step.sweep_help.empty()) {
    p.args().add_flag("sweep", sweep, step.sweep_help);
    std::vector<std::string> names;
    for (const scan_variant& v : step.variants) names.push_back(v.name);
    p.args().add_choice("variant", variant, names,
                        "measure this variant only (default: the first, the step's default)");
  }
  p.args().add_flag("no-peer", opt.no_peer,
                    "do not measure the CUB peer (--quick does not measure it either)");
  p.limit_n(step.max_n);
  return p.run(argc, argv, [&](context& ctx) {
    std::vector<scan_variant> variants = step.variants;
    if (!variant.empty()) {
      for (const scan_variant& v : step.variants)
        if (v.name == variant) variants = {v};
    } else if (!sweep) {
      variants.resize(1);
    }
    // A configuration whose code does not run here (a final step's sm_90 code on an older GPU or
    // in a build without it) is left out with a note; asked for alone, it is not available.
    std::vector<scan_variant> runnable;
    for (const scan_variant& v : variants) {
      if (!v.runs_here || v.runs_here())
        runnable.push_back(v);
      else
        std::fprintf(ctx.log(), "%s: not run (its code does not run on this GPU in this build)\n",
                     v.name.c_str());
    }
    if (runnable.empty())
      throw not_available(variants.at(0).name + ": its code does not run in this build");
    variants = runnable;
    // Device memory per element: input and output (the workspace is a few bytes per tile, CUB's
    // temporary storage as small).
    const std::int64_t n = ctx.resolve_n(2.1 * sizeof(float), sizeof(float), step.max_n);
    ctx.measure_yardsticks(std::size_t(n) * sizeof(float));
    bool ok = true;
    if (type != "float") ok = run_type<std::int32_t>(ctx, variants, n, opt) && ok;
    if (type != "int32") ok = run_type<float>(ctx, variants, n, opt) && ok;
    return ctx.exit_code();
  });
}

}  // namespace common
