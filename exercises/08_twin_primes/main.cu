// Exercise 08, twin_primes: the program (shared by the skeleton and the solution). The sieving
// primes and the reference count on the host (a known count for n = 10^k), the GPU's count
// checked, timed, checked again, reported. Time is the figure of merit: the row's bytes are 0.
#include <twin_primes.cuh>  // the skeleton's or the solution's: found through the include path

#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "twin_primes_problem.hpp"

int main(int argc, char** argv) {
  common::program program("exercises", "twin_primes",
                          "count the twin prime pairs (p, p + 2) with p + 2 <= n (exercise 08)");

  return program.run(argc, argv, [&](common::context& ctx) {
    // --n is the limit, not an element count: the device holds only the sieving primes.
    const auto n = std::uint64_t(ctx.resolve_n(0, 0, twin_primes_problem::MAX_N));
    const std::vector<std::uint32_t> primes = twin_primes_problem::sieving_primes(n);
    const unsigned long long want = twin_primes_problem::count_twins_reference(n);
    std::fprintf(ctx.log(), "n = %llu: %zu sieving primes, %llu twin pairs expected\n",
                 static_cast<unsigned long long>(n), primes.size(), want);

    common::device_buffer<std::uint32_t> d_primes(primes.size());
    common::device_buffer<unsigned long long> d_count(1);
    d_primes.upload(primes);
    const auto poison = [&] { d_count.poison(); };
    const auto run = [&] {
      twin_primes::launch(n, d_primes.data(), std::int64_t(primes.size()), d_count.data());
    };
    const auto check = [&](const std::string& what) {
      const unsigned long long got = d_count.download()[0];
      return ctx.check(common::compare_exact(what, &got, &want, 1));
    };

    poison();
    run();
    bool ok = check("twin pairs");
    const common::timing_stats time = ctx.time(poison, run);
    ok = check("twin pairs after timing") && ok;

    common::result_row row;
    row.type = "uint64";
    row.n = std::int64_t(n);
    row.bytes = 0;  // a sieve moves almost nothing: its figure of merit is the time
    row.time = time;
    row.ok = ok;
    ctx.report(row);
    return ctx.exit_code();
  });
}
