// sieve_segmented: the program (common/sieve/program.cu does the range, checks, timing,
// primesieve).
#include "common/sieve/program.cuh"
#include "sieve_segmented.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_count_program(
      argc, argv,
      {"sieve_segmented", "count the primes in [lo, hi]: a segmented sieve in shared memory",
       sieve_segmented::MAX_HI, 10000000000ull, sieve_segmented::variant_names(),
       sieve_segmented::make_counter});
}
