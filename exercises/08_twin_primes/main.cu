// Exercise 08, twin_primes: the program (shared by the skeleton and the solution). The sieving
// primes and the reference count on the host (a known count for n = 10^k), the GPU's count
// checked, timed, checked again, reported. Time is the figure of merit: the row's bytes are 0.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"
#include "common/program.cuh"
#include "twin_primes_entry.hpp"
#include "twin_primes_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "twin_primes",
                          "count the twin prime pairs (p, p + 2) with p + 2 <= n (exercise 08)");

  return program.run(argc, argv, [&](common::context& ctx) {
    // --n is the limit, not an element count: the device holds only the sieving primes.
    const auto n = std::uint64_t(ctx.resolve_n(0, 0, twin_primes_problem::MAX_N));
    common::grader_channel grader;
    const std::vector<std::uint32_t> primes = twin_primes_problem::sieving_primes(n);
    const unsigned long long want = twin_primes_problem::count_twins_reference(n);
    std::fprintf(ctx.log(), "n = %llu: %zu sieving primes, %llu twin pairs expected\n",
                 static_cast<unsigned long long>(n), primes.size(), want);

    common::device_buffer<std::uint32_t> d_primes(primes.size());
    common::device_buffer<unsigned long long> d_count(1);
    d_primes.upload(primes);
    const auto poison = [&] { d_count.poison(); };
    // Graded timing runs count up to a limit a little below n, another one each repetition, so
    // that a count remembered across repetitions is wrong; the sieving primes cover them all.
    std::uint64_t limit = n;
    std::int64_t prime_count = std::int64_t(primes.size());
    const auto set_limit = [&](std::uint64_t l) {  // keeps launch's contract: p * p <= limit
      limit = l;
      prime_count = std::upper_bound(
                        primes.begin(), primes.end(), l,
                        [](std::uint64_t v, std::uint32_t p) { return v < std::uint64_t(p) * p; }) -
                    primes.begin();
    };
    const auto run = [&] {
      twin_primes_entry::launch(limit, d_primes.data(), prime_count, d_count.data());
    };
    const auto check = [&](const std::string& what) {
      const unsigned long long got = d_count.download()[0];
      return ctx.check(common::compare_exact(what, &got, &want, 1));
    };

    poison();
    run();
    bool ok = check("twin pairs");
    grader.output("twin pairs", d_count.data(), d_count.bytes());
    const auto digest = [&] { grader.rep_output(d_count.data(), d_count.bytes()); };
    const common::timing_stats time = common::graded_time(
        ctx, grader,
        [&] {
          poison();
          set_limit(n);
        },
        run, digest,
        [&] { set_limit(n - grader.rep_jitter(std::min<std::uint64_t>(n, 1u << 16))); });
    ok = check("twin pairs after timing") && ok;
    grader.output("twin pairs after timing", d_count.data(), d_count.bytes());

    common::result_row row;
    row.type = "uint64";
    row.n = std::int64_t(n);
    row.bytes = 0;  // a sieve moves almost nothing: its figure of merit is the time
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    grader.timing(time, row.bytes, 0, 0);
    return ctx.exit_code();
  });
}
