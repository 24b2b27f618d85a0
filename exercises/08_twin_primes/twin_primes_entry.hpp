// twin_primes_entry: the program's way into the student's twin_primes.cuh. main.cu includes only
// this header; twin_primes_entry.cu, a translation unit of its own, includes twin_primes.cuh and
// defines these functions, so that no macro or declaration of the student's file reaches the
// program's checks, its timing or the grader's channel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace twin_primes_entry {

void launch(std::uint64_t n, const std::uint32_t* d_primes, std::int64_t prime_count,
            unsigned long long* d_count);

}  // namespace twin_primes_entry
