// sieve_cpu: the program (common/sieve/program.cu does the reference, checks, timing, primesieve).
#include "common/sieve/program.cuh"
#include "sieve_cpu.cuh"

int main(int argc, char** argv) {
  return common::sieve::run_host_program(
      argc, argv, "sieve_cpu", "Sieve of Eratosthenes on one host core", sieve_cpu::MAX_N,
      {{"simple", sieve_cpu::sieve}, {"primesieve_1_thread", sieve_cpu::primesieve_one_thread}});
}
