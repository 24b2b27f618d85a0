// sieve_bits: the program (common/sieve/program.cu does the reference, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_bits.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_array_program(
      argc, argv,
      {"sieve_bits", "Sieve of Eratosthenes: odd numbers only, one bit each", sieve_bits::MAX_N,
       "one bit per odd number: 2^36 numbers take 4 GiB", sieve_bits::variants()});
}
