// sieve_shared: the program (common/sieve/program.cu does the reference, checks, timing,
// primesieve).
#include "common/sieve/program.cuh"
#include "sieve_shared.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_array_program(
      argc, argv,
      {"sieve_shared", "Sieve of Eratosthenes: the course's shared-memory kernel, fixed",
       sieve_shared::MAX_N, "one int per number: 2^31 numbers take 8 GiB",
       sieve_shared::variants()});
}
