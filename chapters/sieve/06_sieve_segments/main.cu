// sieve_segments: the program (common/sieve/program.cu does the range, checks, timing,
// primesieve).
#include "common/sieve/program.cuh"
#include "sieve_segments.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_count_program(
      argc, argv,
      {"sieve_segments",
       "count the primes in [lo, hi]: segments of bits in shared memory",
       sieve_segments::MAX_HI,
       10000000000ull,
       {"bits"},
       sieve_segments::make_counter<sieve_segments::counter>});
}
