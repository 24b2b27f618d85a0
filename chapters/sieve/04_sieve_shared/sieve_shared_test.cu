// sieve_shared: tests. Each bug of the slides' listing is switched on alone and must give a wrong
// sieve, both in a host model of the kernel (the same tile_offset() and first_strike()) and on the
// GPU; the fixed kernel must give the right one at every test size. (The compile errors are
// checked by the tests in CMakeLists.txt, the race by racecheck in gpu_checks.sh.)
#include <vector>

#include "common/sieve/testing.cuh"
#include "sieve_shared.cuh"

namespace cs = common::sieve;
using namespace sieve_shared;

namespace {

constexpr std::int32_t NEVER_WRITTEN = -1;

// The kernel's logic on the host, one block after the other (strikes never conflict here).
std::vector<std::int32_t> host_model(std::int64_t n, unsigned bugs) {
  std::vector<std::int32_t> out(std::size_t(n + 1), NEVER_WRITTEN);
  const std::vector<std::uint32_t> primes = cs::primes_up_to(cs::isqrt(std::uint64_t(n)));
  for (unsigned b = 0; b < blocks_for(n); ++b) {
    const std::int64_t offset = tile_offset(b, bugs);
    std::vector<std::int32_t> tile(TILE, 0);
    auto strike = [&](std::int64_t factor) {
      const std::int64_t end = std::min(offset + TILE, n + 1);
      for (std::int64_t i = first_strike(factor, offset, bugs); i < end; i += factor)
        tile[i - offset] = 1;
    };
    if (bugs & FACTOR_FROM_THREAD_ROW) {
      for (int row = 0; row < BLOCK_THREADS / WARP_SIZE; ++row)
        if (row >= 2 || (row == 1 && (bugs & FACTOR_ONE))) strike(row);
    } else {
      for (const std::uint32_t p : primes) strike(p);
      if (bugs & FACTOR_ONE) strike(1);
    }
    for (int t = 0; t < TILE; ++t)
      if (offset + t <= n) out[offset + t] = tile[t];
  }
  return out;
}

bool model_is_right(std::int64_t n, unsigned bugs) {
  const std::vector<std::int32_t> got = host_model(n, bugs);
  return cs::check_output(cs::layout::int32_per_number, got.data(), n,
                          cs::odd_composite_bits(std::uint64_t(n)))
      .ok();
}

constexpr std::int64_t SEVERAL_TILES = 3 * TILE + 5;

}  // namespace

HOST_TEST_CASE("the fixed kernel's host model sieves right at every test size") {
  for (const std::int64_t n : common::testing::sieve_test_sizes(std::int64_t(1) << 24, TILE)) {
    CAPTURE(n);
    CHECK(model_is_right(n, NONE));
  }
}

HOST_TEST_CASE("listing bug: the block offset blockDim.x * blockDim.x leaves tiles unwritten") {
  CHECK(tile_offset(0, OFFSET_FROM_BLOCK_SIZE) == tile_offset(5, OFFSET_FROM_BLOCK_SIZE));
  CHECK(tile_offset(5, NONE) == 5 * TILE);
  const std::vector<std::int32_t> got = host_model(SEVERAL_TILES, OFFSET_FROM_BLOCK_SIZE);
  CHECK(got[0] == NEVER_WRITTEN);
  CHECK(got[2 * TILE] == NEVER_WRITTEN);
  CHECK_FALSE(model_is_right(SEVERAL_TILES, OFFSET_FROM_BLOCK_SIZE));
}

HOST_TEST_CASE("listing bug: factors from the thread row miss composites of larger primes") {
  const std::vector<std::int32_t> got = host_model(SEVERAL_TILES, FACTOR_FROM_THREAD_ROW);
  CHECK(got[121] == 0);  // 11 * 11: no row has the factor 11
  CHECK(got[49] == 1);   // 7 * 7: row 7 strikes it
  CHECK_FALSE(model_is_right(SEVERAL_TILES, FACTOR_FROM_THREAD_ROW));
}

HOST_TEST_CASE("listing bug: starting at the first multiple strikes the prime itself") {
  CHECK(first_strike(7, 0, PRIME_STRIKES_ITSELF) == 0);  // 0 % 7 == 0: it starts at 0, then 7
  CHECK(first_strike(7, 0, NONE) == 49);
  CHECK(first_strike(7, 100, NONE) == 105);
  CHECK(first_strike(7, 105, NONE) == 105);
  CHECK(first_strike(97, 8192, NONE) == 9409);  // 97^2 lies past the tile's first multiple
  const std::vector<std::int32_t> got = host_model(SEVERAL_TILES, PRIME_STRIKES_ITSELF);
  CHECK(got[2] == 1);
  CHECK(got[97] == 1);
  CHECK_FALSE(model_is_right(SEVERAL_TILES, PRIME_STRIKES_ITSELF));
}

HOST_TEST_CASE("listing bug: the factor 1 strikes every number and 0 would never advance") {
  const std::vector<std::int32_t> got = host_model(SEVERAL_TILES, FACTOR_ONE);
  CHECK(got[1] == 1);
  CHECK(got[8191] == 1);  // a prime
  CHECK_FALSE(model_is_right(SEVERAL_TILES, FACTOR_ONE));
  // The listing's thread 0 would strike with 0: offset % 0 divides by zero, and jx += 0 loops
  // forever. The fixed kernel's factors are the primes, all >= 2.
  const std::vector<std::uint32_t> primes = cs::primes_up_to(cs::isqrt(MAX_N));
  CHECK(primes.front() == 2);
}

GPU_TEST_CASE("sieve_shared strikes exactly the composites at every test size") {
  for (const auto& v : variants())
    common::testing::check_sieve_sizes(v, common::testing::sieve_test_sizes(MAX_N, TILE));
}

GPU_TEST_CASE("each listing bug alone gives a wrong sieve on the GPU") {
  const std::vector<cs::array_variant> buggy = {
      {"offset", cs::layout::int32_per_number, launch<OFFSET_FROM_BLOCK_SIZE>},
      {"thread_row", cs::layout::int32_per_number, launch<FACTOR_FROM_THREAD_ROW>},
      {"self_strike", cs::layout::int32_per_number, launch<PRIME_STRIKES_ITSELF>},
      {"factor_one", cs::layout::int32_per_number, launch<FACTOR_ONE>}};
  for (const auto& v : buggy) {
    CAPTURE(v.name);
    common::device_buffer<unsigned char> d_out(cs::output_bytes(v.out, SEVERAL_TILES));
    common::device_buffer<std::uint32_t> d_primes(cs::sieving_primes_capacity(SEVERAL_TILES));
    d_out.poison();
    v.launch(SEVERAL_TILES, {d_out.data(), d_primes.data(), d_primes.size()});
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned char> got = d_out.download();
    CHECK_FALSE(
        cs::check_output(v.out, got.data(), SEVERAL_TILES, cs::odd_composite_bits(SEVERAL_TILES))
            .ok());
  }
}
