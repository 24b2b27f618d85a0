// The programs of Part IV, written once. Three kinds of step:
//   array steps (sieve_naive, sieve_grid, sieve_shared, sieve_bits) fill the sieve itself on the
//     GPU; the program checks it element by element against the CPU reference and pi(n) against
//     primesieve, then times it (the launch includes computing and uploading the sieving primes);
//   the count step (sieve_segmented) counts the primes of a range [lo, hi] without storing the
//     sieve; checked against primesieve, and --list prints the primes of a short range;
//   the host step (sieve_cpu) runs on one host core.
// Every row is about time: its figure of merit is the median time and the rate in numbers per
// second (row.bytes holds the numbers sieved, type "numbers", so the "gbps" column reads 10^9
// numbers per second); the peer is primesieve on all host threads, timed in the same process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/program.cuh"
#include "common/verify.hpp"

namespace common::sieve {

// --quick: the usual 100003 (not a power of two, fast under compute-sanitizer).
constexpr std::int64_t QUICK_N = common::QUICK_N;

enum class layout { int32_per_number, byte_per_number, bit_per_odd };

// Bytes of the output of [0, n] in a layout.
std::size_t output_bytes(layout out, std::int64_t n);

// Checks a downloaded output of [0, n] element by element against the odd-bit reference.
check_result check_output(layout out, const void* output, std::int64_t n,
                          const std::vector<std::uint32_t>& reference_bits);
// pi(n) read from an output of [0, n].
std::uint64_t count_primes_in_output(layout out, const void* output, std::int64_t n);

// The device buffers of an array step's launch: the output (poisoned by the program before each
// checked launch) and room for the sieving primes, every prime <= sqrt(n).
struct sieve_buffers {
  void* d_out = nullptr;
  std::uint32_t* d_primes = nullptr;
  std::size_t primes_capacity = 0;
};
std::size_t sieving_primes_capacity(std::int64_t n);
// Computes the primes p with smallest <= p <= sqrt(n) on the host (ascending) and copies them to
// buffers.d_primes; returns how many. Part of every timed launch that needs them.
std::uint32_t upload_sieving_primes(std::int64_t n, std::uint32_t smallest,
                                    const sieve_buffers& buffers);

// The current device's SM count, asked once per device and context (launches that size their grid
// by it run inside the timing).
int sm_count();

// Fills buffers.d_out with the sieve of [0, n] in the variant's layout, on stream 0.
using sieve_launch = void (*)(std::int64_t n, const sieve_buffers& buffers);

struct array_variant {
  std::string name;
  layout out;
  sieve_launch launch;
  // A deliberately racy variant (its output is right, but threads write one word at once): run only
  // when named with --variant, so that the sanitizer tests of `--quick` stay clean.
  bool racy = false;
};

struct array_step {
  std::string name;
  std::string summary;
  std::int64_t max_n;
  std::string limit_reason;  // why max_n: "one block has at most 1024 threads"
  std::vector<array_variant> variants;
};

int run_array_program(int argc, char** argv, const array_step& step);

// The count step's device side: counts the primes of [lo, hi] (every device buffer it needs is
// allocated when it is made, outside the timed region), and lists them for a short range.
class range_counter {
 public:
  virtual ~range_counter() = default;
  // Returns with the device idle (the program times it on the host's clock).
  virtual std::uint64_t count(std::uint64_t lo, std::uint64_t hi) = 0;
  virtual std::vector<std::uint64_t> primes(std::uint64_t lo, std::uint64_t hi) = 0;
  // How count(lo, hi) is done, for a step that counts some ranges another way (the program prints
  // it before the results); empty where there is nothing to say.
  virtual std::string how(std::uint64_t /*lo*/, std::uint64_t /*hi*/) const { return {}; }
};

struct count_step {
  std::string name;
  std::string summary;
  std::uint64_t max_hi;     // the largest --hi (and --n) it takes
  std::uint64_t default_n;  // pi(default_n) without --n, --lo or --hi
  std::vector<std::string> variants;
  // A counter of the named variant for ranges with hi <= max_hi.
  std::function<std::unique_ptr<range_counter>(const std::string& variant, std::uint64_t max_hi)>
      make;
};

// The longest range --list prints.
constexpr std::uint64_t MAX_LIST_NUMBERS = 1000000;

int run_count_program(int argc, char** argv, const count_step& step);

// The host step: a sieve of [0, n] on one core, returning pi(n) and, if flags is not null, one
// byte per number (the byte_per_number layout).
using host_sieve = std::uint64_t (*)(std::int64_t n, std::vector<std::uint8_t>* flags);

struct host_variant {
  std::string name;
  host_sieve sieve;
};

int run_host_program(int argc, char** argv, const std::string& name, const std::string& summary,
                     std::int64_t max_n, const std::vector<host_variant>& variants);

// Median of repetitions of a host function, timed with the steady clock (the peer, the host step).
timing_stats time_on_host(int warmup, int reps, const std::function<void()>& op);

}  // namespace common::sieve
