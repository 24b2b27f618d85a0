// reverse_in_place: tests. Host: the plan and the kernel's write pattern replayed on the host for
// every n up to past a warp's groups and every offset. GPU: every type at every test size and
// 2^28 + 3, every offset, the sweep's variants, the Thrust peer's agreement, n > 2^31 checked
// on the GPU; an array not aligned to its element refused and left as it was, two streams at once,
// a device reset between launches.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/reversal/testing.cuh"
#include "reverse_in_place.cuh"

namespace {

// The step's launch and its 16-byte kernel alone, in the form the test helpers take (stream 0, an
// error ends the process).
template <class T>
constexpr auto* checked_launch = &reverse_in_place::checked<T, reverse_in_place::launch<T>>;
template <class T>
constexpr auto* checked_variant =
    &reverse_in_place::checked<T, reverse_in_place::launch_variant<T>>;

// A pointer `offset` elements past a 256-byte boundary, for the plan (never dereferenced).
template <class T>
T* at_offset(int offset) {
  return reinterpret_cast<T*>(std::uintptr_t(1) << 20) + offset;
}

// What the kernel does, element by element, on the host: every thread's reads first, then its
// writes, with the same chunk arithmetic, runs of `run` groups that exchange (a warp's 32 or a
// block's 256 x UNROLL: a group's place in its run is its index % run) and element picks. Returns
// the array after the reversal of 0, 1, ..., n - 1 (a never-written element keeps its value), and
// counts writes per element in `writes`.
template <class T>
std::vector<std::int64_t> replay(int misalign, std::int64_t n, int run, std::vector<int>& writes) {
  constexpr int V = reverse_in_place::VEC<T>;
  const auto p = reverse_in_place::make_plan(at_offset<T>(misalign), n);
  std::vector<std::int64_t> old(n), now(n);
  for (std::int64_t i = 0; i < n; ++i) old[i] = now[i] = i;
  writes.assign(n, 0);
  auto write = [&](std::int64_t i, std::int64_t value) {
    REQUIRE(i >= 0);
    REQUIRE(i < n);
    now[i] = value;
    ++writes[i];
  };
  // window_new(j)[k]: the value that window element k of group j receives.
  auto window_new = [&](std::int64_t j, int k) { return old[p.head + V * j + V - 1 - k]; };
  for (std::int64_t j = 0; j < p.groups; ++j) {
    const int k = int(j % run);
    const std::int64_t chunk = V * (p.first_chunk - j) - misalign;  // element index of the chunk
    const std::int64_t window = chunk + p.shift;
    CHECK(window >= p.back_begin);
    CHECK(window + V <= p.back_end);
    for (int k = 0; k < V; ++k) write(p.head + V * j + k, old[window + V - 1 - k]);
    if (p.shift == 0) {
      for (int e = 0; e < V; ++e) write(chunk + e, window_new(j, e));
    } else {
      if (k != run - 1 && j + 1 < p.groups) {
        for (int e = 0; e < V; ++e)
          write(chunk + e,
                e < p.shift ? window_new(j + 1, V - p.shift + e) : window_new(j, e - p.shift));
      } else {
        for (int e = p.shift; e < V; ++e) write(chunk + e, window_new(j, e - p.shift));
      }
      if (k == 0)
        for (int e = 0; e < p.shift; ++e) write(chunk + V + e, window_new(j, V - p.shift + e));
    }
  }
  auto swap_pair = [&](std::int64_t i) {
    write(i, old[n - 1 - i]);
    write(n - 1 - i, old[i]);
  };
  for (std::int64_t i = 0; i < p.head; ++i) swap_pair(i);
  for (std::int64_t i = p.head + V * p.groups; i < n / 2; ++i) swap_pair(i);
  return now;
}

// Every n below 300 and every n within 40 of 1, 2 and 3 runs' worth of groups (2 VEC run
// elements per run: the groups cover the front half), at every offset.
template <class T>
void check_replay(int run) {
  constexpr int V = reverse_in_place::VEC<T>;
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 0; n < 300; ++n) sizes.push_back(n);
  for (const std::int64_t runs : {1, 2, 3})
    for (std::int64_t n = 2 * V * run * runs - 40; n < 2 * V * run * runs + 40; ++n)
      sizes.push_back(n);
  for (int misalign = 0; misalign < V; ++misalign) {
    for (const std::int64_t n : sizes) {
      std::vector<int> writes;
      const auto got = replay<T>(misalign, n, run, writes);
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < n; ++i)
        // Every element written exactly once, except an odd n's middle one, which stays.
        wrong += got[i] != n - 1 - i || writes[i] != (n % 2 == 1 && i == n / 2 ? 0 : 1);
      INFO("run=", run, " misalign=", misalign, " n=", n);
      CHECK(wrong == 0);
    }
  }
}

}  // namespace

HOST_TEST_CASE("the plan and the write pattern reverse every n at every offset (int32 and float)") {
  using namespace reverse_in_place;
  // A warp's runs (warp shuffles), and a block's of 1 and 4 rounds.
  check_replay<std::int32_t>(RUN_GROUPS<WARP_SHUFFLES, 1>);
  check_replay<std::int32_t>(RUN_GROUPS<BLOCK_SHARED, 1>);
  check_replay<std::int32_t>(RUN_GROUPS<BLOCK_SHARED, 4>);
}

HOST_TEST_CASE("the plan and the write pattern reverse every n at every offset (int64)") {
  using namespace reverse_in_place;
  check_replay<std::int64_t>(RUN_GROUPS<WARP_SHUFFLES, 1>);
  check_replay<std::int64_t>(RUN_GROUPS<BLOCK_SHARED, 1>);
}

GPU_TEST_CASE("reverse_in_place int32 matches the CPU at every test size and 2^28 + 3") {
  common::testing::check_in_place_sizes<std::int32_t>(checked_launch<std::int32_t>,
                                                      reverse_in_place::BLOCK_ELEMENTS,
                                                      {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_in_place float and int64 match the CPU at every test size and 2^28 + 3") {
  common::testing::check_in_place_sizes<float>(
      checked_launch<float>, reverse_in_place::BLOCK_ELEMENTS, {(std::int64_t(1) << 28) + 3});
  common::testing::check_in_place_sizes<std::int64_t>(checked_launch<std::int64_t>,
                                                      reverse_in_place::BLOCK_ELEMENTS,
                                                      {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_in_place takes arrays at every offset from 16 bytes") {
  std::uint64_t seed = 1;
  for (const std::int64_t n :
       {2,   3,    5,    7,    8,    9,    15,   16,   17,     255,          256,
        257, 1023, 1024, 1025, 2047, 2048, 2049, 4099, 100003, (1 << 20) + 3}) {  // 1024: SMALL_N
    for (int offset = 0; offset < 4; ++offset) {
      CAPTURE(n);
      CAPTURE(offset);
      const auto a = common::testing::check_in_place<std::int32_t>(checked_launch<std::int32_t>, n,
                                                                   seed++, offset);
      INFO(common::describe(a));
      CHECK(a.ok());
      const auto b = common::testing::check_in_place<std::int64_t>(checked_launch<std::int64_t>, n,
                                                                   seed++, offset % 2);
      INFO(common::describe(b));
      CHECK(b.ok());
    }
  }
}

GPU_TEST_CASE(
    "reverse_in_place's 16-byte kernel alone matches the CPU at every test size and offset") {
  // The step takes the small kernel up to SMALL_N; the sweep's variants take this one at every n.
  common::testing::check_in_place_sizes<std::int32_t>(checked_variant<std::int32_t>,
                                                      reverse_in_place::BLOCK_ELEMENTS, {});
  std::uint64_t seed = 11;
  for (const std::int64_t n : {2, 3, 5, 9, 17, 257, 1023, 1024, 1025, 2049}) {
    for (int offset = 0; offset < 4; ++offset) {
      const auto r = common::testing::check_in_place<std::int32_t>(
          common::testing::in_place_launch<std::int32_t>(checked_variant<std::int32_t>), n, seed++,
          offset);
      INFO("n=", n, " offset=", offset, " ", common::describe(r));
      CHECK(r.ok());
    }
  }
}

GPU_TEST_CASE("reverse_in_place sweep variants match the CPU") {
  using namespace reverse_in_place;
  for (const std::int64_t n : {1000, 100003, (1 << 22) + 1}) {
    for (const auto& launch :
         {common::testing::in_place_launch<float>(checked<float, launch_variant<float, 2>>),
          common::testing::in_place_launch<float>(checked<float, launch_variant<float, 4>>),
          common::testing::in_place_launch<float>(
              checked<float, launch_variant<float, 1, PLAIN_STORES>>),
          common::testing::in_place_launch<float>(
              checked<float, launch_variant<float, 1, STREAMING_STORES, WARP_SHUFFLES>>),
          common::testing::in_place_launch<float>(
              checked<float, launch_variant<float, 4, STREAMING_STORES, WARP_SHUFFLES>>)}) {
      const auto r = common::testing::check_in_place<float>(launch, n, 7, 1);
      INFO("n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
  }
}

GPU_TEST_CASE("reverse_in_place refuses an array not aligned to its element and leaves it") {
  common::device_buffer<std::int32_t> d(4096);
  d.poison();
  auto* odd = reinterpret_cast<std::int32_t*>(reinterpret_cast<char*>(d.data()) + 2);
  CHECK(reverse_in_place::launch<std::int32_t>(odd, 8) == cudaErrorInvalidValue);
  CHECK(reverse_in_place::launch<std::int32_t>(odd, 4000) == cudaErrorInvalidValue);
  CHECK(reverse_in_place::launch<std::int32_t>(d.data(), -1) == cudaErrorInvalidValue);
  CHECK(reverse_in_place::launch<std::int32_t>(nullptr, 8) == cudaErrorInvalidValue);
  CHECK(reverse_in_place::launch<std::int32_t>(nullptr, 1) == cudaSuccess);  // nothing moves
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t x : d.download()) REQUIRE(x == std::int32_t(0xABABABAB));
}

GPU_TEST_CASE("reverse_in_place reverses on two streams at once") {
  for (const std::int64_t n : {std::int64_t(1000), (std::int64_t(1) << 24) + 3}) {
    CAPTURE(n);
    const std::vector<std::int32_t> a = common::reversal_input<std::int32_t>(std::size_t(n), 1),
                                    b = common::reversal_input<std::int32_t>(std::size_t(n), 2);
    common::device_buffer<std::int32_t> d_a(n + 1), d_b(n + 3);
    CUDA_CHECK(cudaMemcpy(d_a.data() + 1, a.data(), n * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b.data() + 3, b.data(), n * 4, cudaMemcpyHostToDevice));
    common::testing::on_two_streams(5, [&](cudaStream_t first, cudaStream_t second) {
      // five reversals in all: reversed
      CHECK(reverse_in_place::launch(d_a.data() + 1, n, first) == cudaSuccess);
      CHECK(reverse_in_place::launch(d_b.data() + 3, n, second) == cudaSuccess);
    });
    const std::vector<std::int32_t> got_a = d_a.download(), got_b = d_b.download();
    CHECK(std::equal(a.rbegin(), a.rend(), got_a.begin() + 1));
    CHECK(std::equal(b.rbegin(), b.rend(), got_b.begin() + 3));
  }
}

GPU_TEST_CASE("reverse_in_place reverses again after a device reset") {
  for (int round = 0; round < 2; ++round) {
    for (const std::int64_t n : {std::int64_t(1000), (std::int64_t(1) << 20) + 1}) {
      const auto r =
          common::testing::check_in_place<std::int32_t>(checked_launch<std::int32_t>, n, 5, 1);
      INFO("round ", round, " n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
    CUDA_CHECK(cudaDeviceReset());
  }
}

GPU_TEST_CASE("reverse_in_place reverses 2^31 + 5 int32 (64-bit indices) checked on the GPU") {
  const std::int64_t n = (std::int64_t(1) << 31) + 5;
  if (!common::testing::device_holds(std::size_t(n) * sizeof(std::int32_t), "2^31 + 5 int32"))
    return;
  CHECK(common::testing::wrong_elements_on_device({}, checked_launch<std::int32_t>, n, 3) == 0);
}
