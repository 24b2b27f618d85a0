// sieve_buckets: the program (common/sieve/program.cu does the range, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_buckets.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_count_program(
      argc, argv,
      {"sieve_buckets",
       "count the primes in [lo, hi]: the large primes in buckets, the sieving primes on the GPU",
       sieve_buckets::MAX_HI,
       10000000000ull,
       {"bytes"},
       sieve_segments::make_counter<sieve_buckets::counter>});
}
