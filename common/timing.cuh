// Timing with CUDA events: warm-up, then many repetitions, each timed alone, summarized by the
// median. Before every repetition the L2 cache is flushed, so every repetition reads its input
// from DRAM, as a first touch of data in a real program would.
//
// Why flush rather than rotate buffers: rotating needs as many input copies as fit past the L2
// (on a 50 MB L2, a 16 MB input needs 4+ copies, and every step would have to manage them); one
// flush buffer of twice the L2, written with cudaMemset before each repetition and outside the
// timed region, evicts everything the previous repetition left behind, for any step and any size.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <vector>

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/stats.hpp"

namespace common {

struct timing_options {
  int warmup = 3;  // untimed runs first: module load, clocks ramping up, first-touch effects
  int reps = 30;   // timed repetitions (>= 20 for every number the book prints)
};

class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes) : scratch_(2 * l2_bytes + (std::size_t(1) << 20)) {}
  void flush() {
    value_ ^= 0x5A;  // a different byte each time, so no write is a no-op
    CUDA_CHECK(cudaMemsetAsync(scratch_.data(), value_, scratch_.bytes()));
  }
  std::size_t bytes() const { return scratch_.bytes(); }

 private:
  device_buffer<unsigned char> scratch_;
  unsigned char value_ = 0;
};

// Runs prepare() (untimed: restore an input that op modifies, reset a counter), flushes L2, then
// times op() with events on the default stream. op must enqueue all its work on stream 0.
template <class Prepare, class Op>
timing_stats time_repeated(const timing_options& options, l2_flusher& flusher, Prepare&& prepare,
                           Op&& op) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples;
  for (int rep = 0; rep < options.warmup + options.reps; ++rep) {
    prepare();
    flusher.flush();
    CUDA_CHECK(cudaEventRecord(start));
    op();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= options.warmup) samples.push_back(ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return summarize(std::move(samples));
}

// warmup + reps runs of op() timed on the host's steady clock, before() run untimed ahead of each.
template <class Before, class Op>
timing_stats time_on_host_clock(int warmup, int reps, Before&& before, Op&& op) {
  std::vector<double> samples;
  for (int rep = 0; rep < warmup + reps; ++rep) {
    before();
    const auto t0 = std::chrono::steady_clock::now();
    op();
    const auto t1 = std::chrono::steady_clock::now();
    if (rep >= warmup)
      samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return summarize(std::move(samples));
}

// For an operation that is a host call returning its result to the host, with the device idle
// when it returns (a count that copies its total back, or counts on the host): prepare(), the L2
// flush and a wait for the device, all untimed; then op() timed on the host's steady clock, as a
// host peer is timed. Events around a host call would also time the host's wake-up from the wait
// and the stop event's trip to the idle GPU after the call has returned: several microseconds that
// are not the call's.
template <class Prepare, class Op>
timing_stats time_repeated_on_host(const timing_options& options, l2_flusher& flusher,
                                   Prepare&& prepare, Op&& op) {
  return time_on_host_clock(
      options.warmup, options.reps,
      [&] {
        prepare();
        flusher.flush();
        CUDA_CHECK(cudaDeviceSynchronize());
      },
      op);
}

}  // namespace common
