// sieve_grid: the program (common/sieve/program.cu does the reference, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_grid.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_array_program(
      argc, argv,
      {"sieve_grid", "Sieve of Eratosthenes: primes strike, spread over the whole GPU",
       sieve_grid::MAX_N, "one int per number: 2^31 numbers take 8 GiB", sieve_grid::variants()});
}
