#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/reversal/peer_thrust.cuh"
#include "common/reversal/program.cuh"
#include "common/reversal/reference.hpp"

namespace common {
namespace {

template <class T>
const reversal_launches<T>& launches_of(const reversal_variant& v) {
  if constexpr (std::is_same_v<T, float>)
    return v.float32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return v.int64;
  else
    return v.int32;
}

struct offsets {
  std::int64_t in = 0, out = 0;  // elements past cudaMalloc's 256-byte boundary
  bool any() const { return in != 0 || out != 0; }
  std::string name(bool in_place) const {
    if (in_place) return "at+" + std::to_string(out);
    return "in+" + std::to_string(in) + " out+" + std::to_string(out);
  }
};

// The output buffer holds `offset` elements before the result (the launch gets d + offset): they
// must keep their poison, and the result must equal `want`. `all` is the host buffer the check
// downloads into, the same one for every check of a run: a fresh one per check would first fault
// in its pages.
template <class T>
bool check_output(context& ctx, const std::string& what, const device_buffer<T>& d,
                  std::int64_t offset, const std::vector<T>& want, std::vector<T>& all) {
  d.download(all);
  bool ok = ctx.check(compare_exact(what, all.data() + offset, want.data(), want.size()));
  const std::vector<unsigned char> poison(std::size_t(offset) * sizeof(T), poison_byte<T>());
  if (offset > 0 && std::memcmp(all.data(), poison.data(), poison.size()) != 0) {
    check_result r{what + ": elements before the output pointer", std::size_t(offset), 1, {}};
    r.first.push_back({0, "overwritten", "untouched"});
    ok = ctx.check(r) && ok;
  }
  return ok;
}

template <class T>
void run_type(context& ctx, const std::vector<reversal_variant>& variants, std::int64_t n,
              offsets off, bool with_peer) {
  const std::size_t bytes = std::size_t(n) * sizeof(T);
  const std::vector<T> input = reversal_input<T>(std::size_t(n), ctx.seed());
  const std::vector<T> want = reversed(input);

  // d_a holds the input (in place: its pristine copy); d_b the output (in place: the array).
  device_buffer<T> d_a(std::size_t(n + off.in)), d_b(std::size_t(n + off.out));
  d_a.poison();
  if (n > 0)
    CUDA_CHECK(cudaMemcpy(d_a.data() + off.in, input.data(), bytes, cudaMemcpyHostToDevice));
  const T* in = d_a.data() + off.in;
  T* out = d_b.data() + off.out;

  // Poisoned output, a checked run, the timed runs, the check again. In place, every run starts
  // from the input again (a device copy before the L2 flush, outside the timed region).
  std::vector<T> got;
  auto measure = [&](const std::string& what, bool in_place, const std::function<void()>& run,
                     timing_stats& time) {
    d_b.poison();
    auto prepare = [&] {
      if (in_place && n > 0) CUDA_CHECK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice));
    };
    prepare();
    run();
    CUDA_CHECK(cudaDeviceSynchronize());
    bool ok = check_output(ctx, what, d_b, off.out, want, got);
    time = ctx.time(prepare, run);
    return check_output(ctx, what + " after timing", d_b, off.out, want, got) && ok;
  };

  // The peers first, on the same buffers: thrust::reverse_copy if a variant works out of place,
  // thrust::reverse if one works in place.
  bool any_out = false, any_in = false;
  for (const auto& v : variants) {
    any_out = any_out || bool(launches_of<T>(v).out_of_place);
    any_in = any_in || bool(launches_of<T>(v).in_place);
  }
  double copy_peer_gbps = 0, in_place_peer_gbps = 0;
  timing_stats peer_time;
  if (with_peer && any_out &&
      measure(
          "thrust::reverse_copy output", false, [&] { thrust_reverse_copy(in, out, n); },
          peer_time))
    copy_peer_gbps = gb_per_s(2.0 * double(bytes), peer_time.median_ms);
  if (with_peer && any_in &&
      measure(
          "thrust::reverse output", true, [&] { thrust_reverse(out, n); }, peer_time))
    in_place_peer_gbps = gb_per_s(2.0 * double(bytes), peer_time.median_ms);

  for (const reversal_variant& v : variants) {
    const reversal_launches<T>& l = launches_of<T>(v);
    if (l.empty()) continue;
    const bool in_place = bool(l.in_place);
    timing_stats time;
    const bool ok = measure(
        v.name.empty() ? "output" : v.name + " output", in_place,
        [&] {
          if (in_place)
            l.in_place(out, n);
          else
            l.out_of_place(in, out, n);
          CUDA_CHECK_LAUNCH();
        },
        time);
    result_row row;
    row.variant = v.name;
    if (off.any()) row.variant += (row.variant.empty() ? "" : " ") + off.name(in_place);
    row.type = type_name<T>();
    row.n = n;
    row.bytes = 2.0 * double(bytes);  // every element read once and written once
    row.time = time;
    const double peer_gbps = in_place ? in_place_peer_gbps : copy_peer_gbps;
    if (peer_gbps > 0) {
      row.peer = in_place ? "thrust::reverse" : "thrust::reverse_copy";
      row.peer_gbps = peer_gbps;
    }
    row.ok = ok;
    ctx.report(row);
  }
}

}  // namespace

std::vector<std::int64_t> reversal_test_sizes(std::int64_t block) {
  std::vector<std::int64_t> sizes{
      0,  1,   2,   3,   4,         5,     31,        32,
      33, 255, 256, 257, block - 1, block, block + 1, (std::int64_t(1) << 24) + 7};
  for (const int k : {10, 16, 20}) {
    sizes.push_back((std::int64_t(1) << k) - 1);
    sizes.push_back((std::int64_t(1) << k) + 1);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

int run_reversal_program(int argc, char** argv, const reversal_step& step) {
  program p("reversal", step.step, step.summary);
  const reversal_variant& first = step.variants.at(0);
  std::vector<std::string> types{"int32"};
  if (!first.float32.empty()) types.push_back("float");
  if (!first.int64.empty()) types.push_back("int64");
  std::string type = "int32";
  p.args().add_choice("type", type, types, "element type (int32 is the course's)");
  bool sweep = false, no_peer = false;
  if (!step.sweep_help.empty()) p.args().add_flag(step.sweep_flag, sweep, step.sweep_help);
  p.args().add_flag("no-peer", no_peer, "do not measure the Thrust peer");
  offsets off;
  if (step.any_alignment && first.int32.in_place) {
    p.args().add_int("offset", off.out, 0, 7,
                     "start the array this many elements past cudaMalloc's 256-byte boundary");
  } else if (step.any_alignment) {
    p.args().add_int("in-offset", off.in, 0, 7,
                     "start the input this many elements past cudaMalloc's 256-byte boundary");
    p.args().add_int("out-offset", off.out, 0, 7, "start the output this many elements past it");
  }
  const std::int64_t max_n = step.max_n > 0 ? step.max_n : MAX_N_INT32_INDEX;
  p.limit_n(max_n);

  return p.run(argc, argv, [&](context& ctx) {
    std::vector<reversal_variant> variants = step.variants;
    if (!sweep) variants.resize(1);
    const double size = type == "int64" ? 8.0 : 4.0;
    // Two device arrays per element: input and output (in place: the array and its pristine copy).
    const std::int64_t n =
        ctx.resolve_n(2 * size, size, max_n);
    ctx.measure_yardsticks(std::size_t(n) * std::size_t(size));
    std::fprintf(ctx.log(), "n = %lld %s elements (%s in, as much out)\n",
                 static_cast<long long>(n), type.c_str(), show_bytes(double(n) * size).c_str());
    if (type == "float")
      run_type<float>(ctx, variants, n, off, !no_peer);
    else if (type == "int64")
      run_type<std::int64_t>(ctx, variants, n, off, !no_peer);
    else
      run_type<std::int32_t>(ctx, variants, n, off, !no_peer);
    return ctx.exit_code();
  });
}

}  // namespace common
