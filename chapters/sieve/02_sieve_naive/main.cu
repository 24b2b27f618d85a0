// sieve_naive: the program (common/sieve/program.cu does the reference, checks, timing,
// primesieve).
#include "common/sieve/program.cuh"
#include "sieve_naive.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_array_program(
      argc, argv,
      {"sieve_naive", "Sieve of Eratosthenes: the course's one-block kernel", sieve_naive::MAX_N,
       "one block has at most 1024 threads, one per factor up to sqrt(n)",
       sieve_naive::variants()});
}
