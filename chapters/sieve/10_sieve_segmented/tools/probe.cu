// sieve_segmented_probe: where a count's time goes on short ranges and ranges far from 0 (not a
// step of the book: the evidence for the page's "Short ranges" and "Ranges away from 0"). For each
// range: the count as shipped (short ranges on the host), the same count on the GPU only, and
// primesieve on all host threads (the bench's peer), each timed as the program times a count: the
// median of 50 on the host's steady clock after 3 warm-ups, the L2 flushed and the device idle
// before each; beside them the host's simple sieve of the range's sieving primes (every
// prime up to the square root of its end, common::sieve::primes_up_to), the best of 15: what a
// count far from 0 spent before the GPU found them. Then what any count on the GPU pays at least:
// an empty launch waited for, a launch that writes 8 bytes to mapped host memory waited for by
// the stream or by the host spinning on them (as a count now waits), and the copies a count made
// before.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "common/check.cuh"
#include "common/cli.hpp"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/sieve/peer_primesieve.hpp"
#include "common/sieve/program.cuh"
#include "common/timing.cuh"
#include "sieve_segmented.cuh"

namespace {

// The best of `reps` runs of op on the host's steady clock, in microseconds. Every op here ends
// with the device idle (a count copies its result back; the others wait).
template <class Op>
double best_us(int reps, Op&& op) {
  return common::sieve::time_on_host(0, reps, op).min_ms * 1000.0;
}
// As the program times a count (time_repeated_on_host): the L2 flushed and the device idle before
// each run, the median of 50 after 3 warm-ups. primesieve is timed the same way here.
template <class Op>
double median_us(common::l2_flusher& flusher, Op&& op) {
  return common::time_repeated_on_host(
             {3, 50}, flusher, [] {}, op)
             .median_ms *
         1000.0;
}

__global__ void empty_kernel() {}
__global__ void write_kernel(unsigned long long* to, unsigned long long value) {
  *reinterpret_cast<volatile unsigned long long*>(to) = value;
}

}  // namespace

int main(int argc, char** argv) {
  common::cli cli("sieve_segmented_probe",
                  "where sieve_segmented's time goes on short ranges and far from 0: the count "
                  "as shipped, on the GPU only, primesieve, and the launch floor");
  return common::run_with_device(
      cli.program(), cli, argc, argv, [&](const common::device_info& device) {
        common::l2_flusher flusher(device.l2_bytes);
        struct range {
          std::uint64_t lo, hi;
        };
        const range ranges[] = {{0, 2},
                                {0, 1000},
                                {0, 10007},
                                {0, 16383},
                                {0, 32767},
                                {0, 49151},
                                {0, 65535},
                                {0, 65536},
                                {0, 100003},
                                {0, 300007},
                                {0, 1000003},
                                {1000000, 1001000},
                                {16000000, 16001000},
                                {100000000, 100001000},
                                {1000000000000ull, 1000000001000ull},
                                {1000000000000ull, 1000000100000ull},
                                {100000000000000ull, 100000100000000ull}};
        std::printf("%-36s %9s %9s %11s %9s %12s\n", "range [lo, hi] (byte_stores)", "count us",
                    "GPU us", "primesieve", "on host", "host primes");
        for (const range r : ranges) {
          sieve_segmented::counter counter(true, r.hi), on_gpu(true, r.hi);
          on_gpu.count_short_ranges_on_host(false);
          volatile std::uint64_t sink = counter.count(r.lo, r.hi) + on_gpu.count(r.lo, r.hi);
          const double count_us = median_us(flusher, [&] { sink = counter.count(r.lo, r.hi); });
          const double gpu_us = median_us(flusher, [&] { sink = on_gpu.count(r.lo, r.hi); });
          const double peer_us =
              median_us(flusher, [&] { sink = common::sieve::primesieve_count(r.lo, r.hi, 0); });
          const double primes_us = best_us(
              15, [&] { sink = common::sieve::primes_up_to(common::sieve::isqrt(r.hi)).size(); });
          char label[64];
          std::snprintf(label, sizeof label, "[%llu, %llu]", static_cast<unsigned long long>(r.lo),
                        static_cast<unsigned long long>(r.hi));
          std::printf("%-36s %9.1f %9.1f %11.1f %9s %12.1f\n", label, count_us, gpu_us, peer_us,
                      sieve_segmented::short_range(r.lo, r.hi) ? "yes" : "no", primes_us);
        }
        common::device_buffer<unsigned long long> d_count(1);
        unsigned long long host = 0, *pinned = nullptr;
        CUDA_CHECK(cudaMallocHost(&pinned, sizeof *pinned));
        // Each the best and the median of 200 runs on the host's clock (no flush: nothing to read).
        const auto floor_line = [](const char* what, const auto& op) {
          const common::timing_stats t = common::sieve::time_on_host(3, 200, op);
          std::printf("%-58s best %5.1f us, median %5.1f us\n", what, t.min_ms * 1e3,
                      t.median_ms * 1e3);
        };
        unsigned long long *mapped = nullptr, *mapped_on_device = nullptr, number = 0;
        CUDA_CHECK(cudaHostAlloc(&mapped, sizeof *mapped, cudaHostAllocMapped));
        CUDA_CHECK(cudaHostGetDevicePointer(&mapped_on_device, mapped, 0));
        floor_line("an empty launch, waited for (stream synchronize)", [] {
          empty_kernel<<<1, 32>>>();
          CUDA_CHECK(cudaStreamSynchronize(0));
        });
        floor_line("a launch writing 8 bytes to mapped memory, waited for", [&] {
          write_kernel<<<1, 32>>>(mapped_on_device, ++number);
          CUDA_CHECK(cudaStreamSynchronize(0));
        });
        floor_line("the same, the host spinning on the 8 bytes (a count now)", [&] {
          write_kernel<<<1, 32>>>(mapped_on_device, ++number);
          while (*reinterpret_cast<volatile unsigned long long*>(mapped) != number) {
          }
        });
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaFreeHost(mapped));
        floor_line("the 8-byte count copied to pageable memory", [&] {
          CUDA_CHECK(cudaMemcpy(&host, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
        });
        floor_line("the same to pinned memory, async + sync", [&] {
          CUDA_CHECK(cudaMemcpyAsync(pinned, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
          CUDA_CHECK(cudaStreamSynchronize(0));
        });
        floor_line("memset + empty launch + pageable copy (a count before)", [&] {
          CUDA_CHECK(cudaMemsetAsync(d_count.data(), 0, sizeof host));
          empty_kernel<<<1, 32>>>();
          CUDA_CHECK(cudaMemcpy(&host, d_count.data(), sizeof host, cudaMemcpyDeviceToHost));
        });
        CUDA_CHECK(cudaFreeHost(pinned));
        return 0;
      });
}
