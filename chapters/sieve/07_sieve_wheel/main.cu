// sieve_wheel: the program (common/sieve/program.cu does the range, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_wheel.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_count_program(argc, argv,
                                          {"sieve_wheel",
                                           "count the primes in [lo, hi]: segments of bits in "
                                           "shared memory, with a wheel and a warp per small prime",
                                           sieve_wheel::MAX_HI,
                                           10000000000ull,
                                           {"bits"},
                                           sieve_segments::make_counter<sieve_wheel::counter>});
}
