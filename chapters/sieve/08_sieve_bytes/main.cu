// sieve_bytes: the program (common/sieve/program.cu does the range, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_bytes.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_count_program(
      argc, argv,
      {"sieve_bytes",
       "count the primes in [lo, hi]: segments of bytes in shared memory, plain stores",
       sieve_bytes::MAX_HI,
       10000000000ull,
       {"bytes"},
       sieve_segments::make_counter<sieve_bytes::counter>});
}
