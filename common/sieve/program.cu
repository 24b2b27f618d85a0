#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/device_buffer.cuh"
#include "common/per_device.cuh"
#include "common/program.cuh"
#include "common/sieve/peer_primesieve.hpp"
#include "common/sieve/program.cuh"
#include "common/sieve/reference.hpp"

namespace common::sieve {
namespace {

std::string peer_label(int threads) {
  return primesieve_name() + ", " + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads");
}

// The peer's repetitions: as many as the program's, but only about 20 s of them: primesieve takes
// seconds at 10^12 even on all cores. When not even two fit, the reference run is the only sample.
int peer_reps(const context& ctx, double first_ms) {
  const int affordable = first_ms > 0 ? int(20000.0 / first_ms) : ctx.timing().reps;
  return std::clamp(affordable, 0, ctx.timing().reps);
}

struct peer_timing {
  std::string label;
  timing_stats time;
};

// primesieve on all host threads over [lo, hi]: its count (the reference) and its time.
peer_timing time_primesieve(context& ctx, std::uint64_t lo, std::uint64_t hi,
                            std::uint64_t& count) {
  const int threads = primesieve_all_threads();
  const auto t0 = std::chrono::steady_clock::now();
  count = primesieve_count(lo, hi, threads);
  const double first_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  int reps = peer_reps(ctx, first_ms);
  std::uint64_t again = count;
  peer_timing peer{peer_label(threads), summarize({first_ms})};
  if (reps >= 2)
    peer.time = time_on_host(0, reps, [&] { again = primesieve_count(lo, hi, threads); });
  else
    reps = 1;  // the reference run above
  if (again != count) throw std::runtime_error("primesieve gave two different counts");
  std::fprintf(ctx.log(), "peer %s: %llu primes, median %.3f ms of %d runs\n", peer.label.c_str(),
               static_cast<unsigned long long>(count), peer.time.median_ms, reps);
  return peer;
}

check_result check_count(const std::string& what, std::uint64_t got, std::uint64_t want) {
  check_result r{what, 1, got == want ? 0u : 1u, {}};
  if (got != want) r.first.push_back({0, std::to_string(got), std::to_string(want)});
  return r;
}

void fill_row(result_row& row, std::uint64_t numbers, const timing_stats& time,
              const peer_timing& peer) {
  row.type = "numbers";
  row.bytes = double(numbers);  // the rate's numerator: numbers sieved (see program.cuh)
  row.time = time;
  row.peer = peer.label;
  row.peer_gbps = gb_per_s(double(numbers), peer.time.median_ms);
}

// The sieve's input is the range of numbers itself: no option of the program makes it random.
void refuse_seed(program& p, const std::string& step) {
  p.args().refuse("seed", "--seed does not apply to " + step +
                              ": its input is the range of numbers itself, not random data");
}

}  // namespace

timing_stats time_on_host(int warmup, int reps, const std::function<void()>& op) {
  return time_on_host_clock(
      warmup, reps, [] {}, op);
}

std::size_t output_bytes(layout out, std::int64_t n) {
  switch (out) {
    case layout::int32_per_number:
      return std::size_t(n + 1) * sizeof(std::int32_t);
    case layout::byte_per_number:
      return std::size_t(n + 1);
    case layout::bit_per_odd:
      return std::size_t(odd_bit_words(std::uint64_t(n))) * 4;
  }
  return 0;
}

check_result check_output(layout out, const void* output, std::int64_t n,
                          const std::vector<std::uint32_t>& reference_bits) {
  if (out == layout::bit_per_odd) {
    const auto* got = static_cast<const std::uint32_t*>(output);
    return compare_elements(
        "odd-number bits", reference_bits.size(),
        [&](std::size_t w) { return got[w] != reference_bits[w]; },
        [&](std::size_t w) {
          char a[16], b[16];
          std::snprintf(a, sizeof a, "%08x", got[w]);
          std::snprintf(b, sizeof b, "%08x", reference_bits[w]);
          return mismatch{w, a, b};  // word w holds the odd numbers 64w + 1 ... 64w + 63
        });
  }
  auto flag = [&](std::size_t i) -> int {
    if (out == layout::int32_per_number) return static_cast<const std::int32_t*>(output)[i];
    return static_cast<const std::uint8_t*>(output)[i];
  };
  return compare_elements(
      "flag per number", std::size_t(n) + 1,
      [&](std::size_t i) { return flag(i) != int(is_struck(reference_bits, i)); },
      [&](std::size_t i) {
        return mismatch{i, std::to_string(flag(i)), is_struck(reference_bits, i) ? "1" : "0"};
      });
}

std::uint64_t count_primes_in_output(layout out, const void* output, std::int64_t n) {
  std::uint64_t count = 0;
  if (out == layout::bit_per_odd) {
    const auto* words = static_cast<const std::uint32_t*>(output);
    for (std::uint64_t w = 0; w < odd_bit_words(std::uint64_t(n)); ++w)
      count += 32 - std::uint64_t(__builtin_popcount(words[w]));
    return count + (n >= 2 ? 1 : 0);
  }
  for (std::int64_t i = 2; i <= n; ++i) {
    const int f = out == layout::int32_per_number ? static_cast<const std::int32_t*>(output)[i]
                                                  : static_cast<const std::uint8_t*>(output)[i];
    count += f == 0;
  }
  return count;
}

int sm_count() {
  static PerDevice<int> cache;
  int count = 0;
  CUDA_CHECK(cache.get_current(count, [](int& sms) {
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }));
  return count;
}

std::size_t sieving_primes_capacity(std::int64_t n) {
  // pi(x) < 1.26 x / ln x for x > 1 (Rosser and Schoenfeld); plus a little for tiny x.
  const double x = double(isqrt(std::uint64_t(std::max<std::int64_t>(n, 0))));
  return std::size_t(x < 3 ? 2 : 1.26 * x / std::log(x)) + 8;
}

std::uint32_t upload_sieving_primes(std::int64_t n, std::uint32_t smallest,
                                    const sieve_buffers& buffers) {
  std::vector<std::uint32_t> primes = primes_up_to(isqrt(std::uint64_t(n)));
  primes.erase(primes.begin(), std::lower_bound(primes.begin(), primes.end(), smallest));
  if (primes.size() > buffers.primes_capacity)
    throw std::logic_error("upload_sieving_primes: more primes than sieving_primes_capacity()");
  if (!primes.empty())
    CUDA_CHECK(
        cudaMemcpy(buffers.d_primes, primes.data(), primes.size() * 4, cudaMemcpyHostToDevice));
  return std::uint32_t(primes.size());
}

// --variant NAME (or "all"), one choice per name.
void add_variant_option(program& p, std::string& which, const std::vector<std::string>& variants) {
  std::vector<std::string> names{"all"};
  names.insert(names.end(), variants.begin(), variants.end());
  p.args().add_choice("variant", which, names, "which variant to run");
}

template <class Variant>
std::vector<std::string> names_of(const std::vector<Variant>& variants) {
  std::vector<std::string> names;
  for (const auto& v : variants) names.push_back(v.name);
  return names;
}

// The CPU reference of [0, n] (odd composites as bits), checked against primesieve's pi(n), which
// is timed as the peer: want gets pi(n), peer its timing.
std::vector<std::uint32_t> checked_reference(context& ctx, std::int64_t n, std::uint64_t& want,
                                             peer_timing& peer) {
  std::vector<std::uint32_t> reference = odd_composite_bits(std::uint64_t(n));
  peer = time_primesieve(ctx, 0, std::uint64_t(n), want);
  ctx.check(check_count("pi(n) of the CPU reference against primesieve",
                        count_primes_in_bits(reference, std::uint64_t(n)), want));
  return reference;
}

int run_array_program(int argc, char** argv, const array_step& step) {
  program p("sieve", step.name, step.summary);
  std::string which = "all";
  add_variant_option(p, which, names_of(step.variants));
  refuse_seed(p, step.name);
  p.limit_n(step.max_n, step.limit_reason);
  return p.run(argc, argv, [&](context& ctx) {
    double most_bytes = 0;
    for (const auto& v : step.variants)
      most_bytes = std::max(most_bytes, double(output_bytes(v.out, 1 << 20)) / (1 << 20));
    const std::int64_t n = ctx.resolve_n(most_bytes, 0, step.max_n);
    std::fprintf(ctx.log(), "sieve of [0, %lld]\n", static_cast<long long>(n));
    std::uint64_t want = 0;
    peer_timing peer;
    const std::vector<std::uint32_t> reference = checked_reference(ctx, n, want, peer);

    device_buffer<std::uint32_t> d_primes(sieving_primes_capacity(n));
    for (const array_variant& v : step.variants) {
      if (which == "all" ? v.racy : which != v.name) continue;
      const std::size_t bytes = output_bytes(v.out, n);
      device_buffer<unsigned char> d_out(bytes);
      const sieve_buffers buffers{d_out.data(), d_primes.data(), d_primes.size()};
      std::vector<unsigned char> got;
      auto run_and_check = [&](const std::string& when) {
        d_out.download(got);
        bool ok = ctx.check(check_output(v.out, got.data(), n, reference));
        ok = ctx.check(check_count("pi(n) " + when, count_primes_in_output(v.out, got.data(), n),
                                   want)) &&
             ok;
        return ok;
      };
      d_out.poison();  // a number the launch never writes fails the check
      v.launch(n, buffers);
      CUDA_CHECK(cudaDeviceSynchronize());
      bool ok = run_and_check("");
      // Timed end to end: host work (the sieving primes) and kernels; the sync first waits for the
      // L2 flush, so host work cannot hide behind it.
      const timing_stats time = ctx.time([&] {
        CUDA_CHECK(cudaDeviceSynchronize());
        v.launch(n, buffers);
      });
      ok = run_and_check("after timing") && ok;
      result_row row;
      row.variant = step.variants.size() > 1 ? v.name : "";
      row.n = n;
      fill_row(row, std::uint64_t(n), time, peer);
      row.ok = ok;
      ctx.report(row);
    }
    return ctx.exit_code();
  });
}

int run_count_program(int argc, char** argv, const count_step& step) {
  program p("sieve", step.name, step.summary);
  std::string which = "all";
  std::int64_t lo = 0, hi = 0;
  bool list = false;
  const auto max_hi = std::int64_t(step.max_hi);
  add_variant_option(p, which, step.variants);
  p.args().add_int("lo", lo, 0, max_hi, "count the primes in [lo, hi]");
  p.args().add_int("hi", hi, 0, max_hi, "the range's upper end, inclusive (instead of --n)");
  p.args().add_flag("list", list, "print the primes of the range (at most 10^6 numbers long)");
  refuse_seed(p, step.name);
  const std::int64_t max_n = std::min(max_hi, common::MAX_N);
  p.limit_n(max_n);
  p.args().set_default("n", show_int(std::int64_t(step.default_n)));
  p.args().set_default("hi", "");
  p.args().set_help("n", "count the primes in [0, n], e.g. 1e10 or 2^32+15");
  // The range needs no device: a bad one is a usage error (exit 2) with or without a GPU.
  p.add_usage_check([&] {
    const cli& args = p.args();
    if (args.was_set("n") && (args.was_set("hi") || args.was_set("lo")))
      throw usage_error("give either --n N (the range [0, N]) or --lo/--hi, not both");
    if (args.was_set("lo") && !args.was_set("hi"))
      throw usage_error("--lo needs --hi: the range is [lo, hi]");
    if (!args.was_set("hi"))
      hi = args.was_set("n")       ? p.given_n()
           : args.was_set("quick") ? std::min(QUICK_N, max_n)
                                   : std::int64_t(step.default_n);
    if (lo > hi)
      throw usage_error("--lo " + std::to_string(lo) + " is above --hi " + std::to_string(hi) +
                        ": the range must have lo <= hi");
    if (list && std::uint64_t(hi - lo) + 1 > MAX_LIST_NUMBERS)
      throw usage_error("--list prints at most " + std::to_string(MAX_LIST_NUMBERS) +
                        " numbers; [" + std::to_string(lo) + ", " + std::to_string(hi) +
                        "] holds " + std::to_string(hi - lo + 1) + ": narrow --lo/--hi");
  });
  return p.run(argc, argv, [&](context& ctx) {
    const std::uint64_t numbers = std::uint64_t(hi - lo) + (lo > 0 ? 1 : 0);
    std::fprintf(ctx.log(), "primes in [%lld, %lld]\n", static_cast<long long>(lo),
                 static_cast<long long>(hi));
    std::uint64_t want = 0;
    const peer_timing peer = time_primesieve(ctx, std::uint64_t(lo), std::uint64_t(hi), want);
    for (const std::string& name : step.variants) {
      if (which != "all" && which != name) continue;
      std::unique_ptr<range_counter> counter = step.make(name, std::uint64_t(hi));
      const std::string how = counter->how(std::uint64_t(lo), std::uint64_t(hi));
      if (!how.empty()) std::fprintf(ctx.log(), "%s: %s\n", name.c_str(), how.c_str());
      std::uint64_t got = counter->count(std::uint64_t(lo), std::uint64_t(hi));
      bool ok = ctx.check(check_count("primes in the range", got, want));
      if (list) {
        const std::vector<std::uint64_t> primes =
            counter->primes(std::uint64_t(lo), std::uint64_t(hi));
        ok = ctx.check(check_count("primes listed", primes.size(), want)) && ok;
        for (const std::uint64_t q : primes)
          std::fprintf(ctx.log(), "%llu\n", static_cast<unsigned long long>(q));
      }
      // A count returns its total to the host: timed on the host's clock from an idle device to
      // the call's return, as primesieve is (time_host_call).
      const timing_stats time =
          ctx.time_host_call([&] { got = counter->count(std::uint64_t(lo), std::uint64_t(hi)); });
      ok = ctx.check(check_count("primes in the range after timing", got, want)) && ok;
      result_row row;
      row.variant = step.variants.size() > 1 ? name : "";
      if (lo > 0)
        row.variant += (row.variant.empty() ? "" : " ") + std::string("from ") + std::to_string(lo);
      row.n = std::int64_t(numbers);
      fill_row(row, numbers, time, peer);
      row.ok = ok;
      ctx.report(row);
    }
    return ctx.exit_code();
  });
}

int run_host_program(int argc, char** argv, const std::string& name, const std::string& summary,
                     std::int64_t max_n, const std::vector<host_variant>& variants) {
  program p("sieve", name, summary);
  std::string which = "all";
  add_variant_option(p, which, names_of(variants));
  refuse_seed(p, name);
  p.limit_n(max_n, "one byte per number in host memory");
  return p.run(argc, argv, [&](context& ctx) {
    const std::int64_t n = ctx.resolve_n(0, 0, max_n);
    std::fprintf(ctx.log(), "sieve of [0, %lld] on the host\n", static_cast<long long>(n));
    std::uint64_t want = 0;
    peer_timing peer;
    const std::vector<std::uint32_t> reference = checked_reference(ctx, n, want, peer);
    for (const host_variant& v : variants) {
      if (which != "all" && which != v.name) continue;
      std::vector<std::uint8_t> flags;
      std::uint64_t got = v.sieve(n, &flags);
      bool ok = ctx.check(check_count("pi(n)", got, want));
      if (!flags.empty())
        ok = ctx.check(check_output(layout::byte_per_number, flags.data(), n, reference)) && ok;
      const timing_stats time =
          time_on_host(ctx.timing().warmup, ctx.timing().reps, [&] { got = v.sieve(n, nullptr); });
      ok = ctx.check(check_count("pi(n) after timing", got, want)) && ok;
      result_row row;
      row.variant = variants.size() > 1 ? v.name : "";
      row.n = n;
      fill_row(row, std::uint64_t(n), time, peer);
      row.ok = ok;
      ctx.report(row);
    }
    return ctx.exit_code();
  });
}

}  // namespace common::sieve
