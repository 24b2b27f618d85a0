// sieve_segmented_probe: where a count's time goes on short ranges and ranges far from 0 (not a
// step of the book: the evidence for the page's "Ranges away from 0"). For each range, the whole
// count as the program times it (from a synchronized device to the count on the host) beside the
// host's simple sieve of its sieving primes (every prime up to the square root of the range's
// end, common::sieve::primes_up_to: what the count spends on them up to a square root of
// HOST_SIEVING_PRIMES_MAX; past it the GPU finds them), each the best of 15 on the host's steady
// clock; then what any count pays at least: an empty launch waited for, and copies of the count.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "common/check.cuh"
#include "common/cli.hpp"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/sieve/program.cuh"
#include "sieve_segmented.cuh"

namespace {

// The best of `reps` runs of op on the host's steady clock, in microseconds. Every op here ends
// with the device idle (a count copies its result back; the others wait).
template <class Op>
double best_us(int reps, Op&& op) {
  return common::sieve::time_on_host(0, reps, op).min_ms * 1000.0;
}

__global__ void empty_kernel() {}

}  // namespace

int main(int argc, char** argv) {
  common::cli cli("sieve_segmented_probe",
                  "where sieve_segmented's time goes on short ranges and far from 0: the whole "
                  "count beside finding the sieving primes on the host, and the launch floor");
  return common::run_with_device(cli.program(), cli, argc, argv, [&](const common::device_info&) {
    struct range {
      std::uint64_t lo, hi;
    };
    const range ranges[] = {{0, 2},
                            {0, 1000},
                            {0, 100003},
                            {0, 1000003},
                            {1000000, 1000100},
                            {1000000000000ull, 1000000001000ull},
                            {1000000000000ull, 1000000100000ull},
                            {100000000000000ull, 100000100000000ull}};
    constexpr int REPS = 15;
    std::printf("%-38s %14s %22s\n", "range [lo, hi] (byte_stores)", "count us",
                "host sieving primes us");
    for (const range r : ranges) {
      sieve_segmented::counter counter(true, r.hi);
      volatile std::uint64_t sink = counter.count(r.lo, r.hi);  // warm-up
      const double count_us = best_us(REPS, [&] { sink = counter.count(r.lo, r.hi); });
      const double primes_us = best_us(
          REPS, [&] { sink = common::sieve::primes_up_to(common::sieve::isqrt(r.hi)).size(); });
      char label[64];
      std::snprintf(label, sizeof label, "[%llu, %llu]", static_cast<unsigned long long>(r.lo),
                    static_cast<unsigned long long>(r.hi));
      std::printf("%-38s %14.1f %22.1f\n", label, count_us, primes_us);
    }
    common::device_buffer<unsigned long long> d_count(1);
    unsigned long long host = 0, *pinned = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinned, sizeof *pinned));
    const double empty_us = best_us(50, [] {
      empty_kernel<<<1, 32>>>();
      CUDA_CHECK(cudaDeviceSynchronize());
    });
    const double pageable_us = best_us(50, [&] {
      CUDA_CHECK(cudaMemcpy(&host, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
    });
    const double pinned_us = best_us(50, [&] {
      CUDA_CHECK(cudaMemcpyAsync(pinned, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaStreamSynchronize(0));
    });
    const double sequence_us = best_us(50, [&] {
      CUDA_CHECK(cudaMemsetAsync(d_count.data(), 0, sizeof host));
      empty_kernel<<<1, 32>>>();
      CUDA_CHECK(cudaMemcpy(&host, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
    });
    CUDA_CHECK(cudaFreeHost(pinned));
    std::printf("an empty launch, waited for:                 %8.1f us\n", empty_us);
    std::printf("the 8-byte count copied to pageable memory:  %8.1f us\n", pageable_us);
    std::printf("the same to pinned memory, async + sync:     %8.1f us\n", pinned_us);
    std::printf(
        "memset + empty launch + pageable copy:       %8.1f us (a count's calls, no work)\n",
        sequence_us);
    return 0;
  });
}
