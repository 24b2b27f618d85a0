// The grader's channel: what an exercise program hands to common/tools/grade.py so that the
// grader, not the program, decides whether a run was correct and how fast it was.
//
// The grader starts the program with two environment variables: BOOK_GRADER_FD, the write end of a
// pipe whose read end only the grader holds (what arrived there cannot be rewound or rewritten),
// and BOOK_GRADER_NONCE, a 64-bit hex number drawn for the case.
// Without them every call here does nothing, so a student's or the book's runs are unchanged.
// With them the program appends one JSON line per record to that descriptor, each tagged with the
// nonce: the digest of each checked output (computed on the device by this file's kernels), the
// digests of every timed repetition's output, the times with the bytes that must move, and, at the
// end, the most device memory the run held in device_buffers (what the grader admits it by). The
// grader runs the solution (built in its own tree) with the same arguments and nonce and compares
// the records; exit codes and printed lines decide nothing.
//
// Memoizing a result across repetitions does not pay: before each repetition perturb() overwrites
// a few hundred input elements (positions and sources drawn from the nonce and the repetition) with
// copies of other elements, and undoes it afterwards; every repetition's output is digested.
//
// This file is compiled in a translation unit of its own (common/grader_channel.cu), which never
// includes a student's header: no macro of theirs reaches the digests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/stats.hpp"

namespace common {

class grader_channel {
 public:
  // Reads BOOK_GRADER_FD and BOOK_GRADER_NONCE; inactive when either is missing or malformed.
  grader_channel();
  grader_channel(const grader_channel&) = delete;
  grader_channel& operator=(const grader_channel&) = delete;
  ~grader_channel();

  bool active() const { return fd_ >= 0; }

  // The digest of `bytes` bytes of device memory at d_data, recorded under `what`.
  void output(const std::string& what, const void* d_data, std::size_t bytes);
  // Small results (a mean, an index) recorded as numbers. tolerance 0 asks for equality; with a
  // tolerance, `reference` holds the CPU reference's values, and the grader takes the solution
  // process's reference (never the student's) and accepts values within the tolerance of it.
  void values(const std::string& what, const std::vector<double>& values, double tolerance = 0,
              const std::vector<double>& reference = {});

  // Timing hooks, called from the timing's prepare step and after it (both no-ops when inactive):
  //   begin_rep(digest)   digest() records the previous repetition's output (through
  //                       rep_output() or rep_values()), then the previous perturbation is undone
  //   perturb(...)        this repetition's perturbation of one input buffer (after any restore)
  //   end_reps(digest)    the last repetition's output, the undo, and the "reps" record
  void begin_rep(const std::function<void()>& digest);
  void perturb(void* d_data, std::int64_t count, int element_bytes);
  void end_reps(const std::function<void()>& digest);
  void rep_output(const void* d_data, std::size_t bytes);
  void rep_values(const std::vector<double>& values);
  // A number in [0, max] drawn from the nonce and the repetition (0 when inactive): for a program
  // whose input is only a size (twin_primes), the size of each repetition.
  std::uint64_t rep_jitter(std::uint64_t max) const;

  // The timed figures: median/min/max over the repetitions, the bytes that must move, and the
  // process's yardsticks.
  void timing(const timing_stats& time, double bytes, double copy_gbps, double read_gbps);

 private:
  struct saved_perturbation {
    void* data;
    int element_bytes;
    void* d_saved;  // [0, PERTURBED) old values, then [PERTURBED, 2 PERTURBED) positions
    int count;
  };
  void write_line(const std::string& json);
  std::string digest_hex(const void* d_data, std::size_t bytes);
  void undo_perturbations();

  int fd_ = -1;
  std::uint64_t nonce_ = 0;
  int rep_ = -1;  // the repetition in progress, warm-ups included; -1 before the first
  std::vector<saved_perturbation> perturbed_;
  std::vector<std::string> rep_digests_;
};

// ctx.time(prepare, run), graded: before each repetition the previous one's output is digested
// (digest() calls rep_output() or rep_values()) and the inputs are perturbed (perturb(), after
// prepare()); afterwards prepare() and run() once more on the real input, so that the program's
// own check after timing sees the real input's output. Not graded, it is ctx.time(prepare, run).
template <class Context, class Prepare, class Run, class Digest, class Perturb>
timing_stats graded_time(Context& ctx, grader_channel& grader, Prepare&& prepare, Run&& run,
                         Digest&& digest, Perturb&& perturb) {
  const timing_stats time = ctx.time(
      [&] {
        grader.begin_rep(digest);
        prepare();
        perturb();
      },
      run);
  if (grader.active()) {
    grader.end_reps(digest);
    prepare();
    run();
  }
  return time;
}

}  // namespace common
