// reverse_fast: tests. Host: the plan (head, groups, shift) for every n % 4 and offset; the
// launches' preconditions. GPU: every type at every test size and 2^28 + 3, every offset pair of
// input and output, the sweep's variants, n > 2^31 checked on the GPU; overlapping arrays refused
// with the output untouched, two streams at once, a device reset between launches.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/reversal/testing.cuh"
#include "reverse_fast.cuh"

namespace {
// The step's launch and its 16-byte kernel alone, in the form the test helpers take (stream 0, an
// error ends the process).
template <class T>
constexpr auto* checked_launch = &reverse_fast::checked<T, reverse_fast::launch<T>>;
template <class T>
constexpr auto* checked_variant = &reverse_fast::checked<T, reverse_fast::launch_variant<T>>;

// A pointer `offset` elements past a 256-byte boundary, for the plan (never dereferenced).
template <class T>
const T* at_offset(int offset) {
  return reinterpret_cast<const T*>(std::uintptr_t(1) << 20) + offset;
}
}  // namespace

HOST_TEST_CASE("the plan covers every output element once and picks the right window") {
  // Replays the kernel's arithmetic on the host: every output element is written once, from the
  // input element the reversal says.
  for (int in_off = 0; in_off < 4; ++in_off) {
    for (int out_off = 0; out_off < 4; ++out_off) {
      for (std::int64_t n = 0; n < 40; ++n) {
        const auto p = reverse_fast::make_plan(at_offset<int>(in_off), at_offset<int>(out_off), n);
        CAPTURE(in_off);
        CAPTURE(out_off);
        CAPTURE(n);
        std::vector<std::int64_t> source(n, -1);  // which input element each output gets
        for (std::int64_t k = 0; k < p.head; ++k) source[k] = n - 1 - k;
        const std::int64_t rest = n - p.head;
        for (std::int64_t j = 0; j < p.groups; ++j) {
          for (int k = 0; k < 4; ++k) {
            // reversed_window: output element k = window element 3 - k, at chunk position
            // 4 * (first_chunk - j) + shift + 3 - k, i.e. input element that minus misalign.
            const std::int64_t x = 4 * (p.first_chunk - j) + p.shift + 3 - k - p.misalign;
            CHECK(source[p.head + 4 * j + k] == -1);
            source[p.head + 4 * j + k] = x;
          }
        }
        for (std::int64_t i = 4 * p.groups; i < rest; ++i) source[p.head + i] = rest - 1 - i;
        for (std::int64_t i = 0; i < n; ++i) CHECK(source[i] == n - 1 - i);
        if (p.groups > 0) CHECK((out_off + p.head) % 4 == 0);  // groups start on 16 bytes
      }
    }
  }
}

GPU_TEST_CASE("reverse_fast int32 matches the CPU at every test size and 2^28 + 3") {
  common::testing::check_out_of_place_sizes<std::int32_t>(
      checked_launch<std::int32_t>, reverse_fast::BLOCK_ELEMENTS, {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_fast float and int64 match the CPU at every test size and 2^28 + 3") {
  common::testing::check_out_of_place_sizes<float>(
      checked_launch<float>, reverse_fast::BLOCK_ELEMENTS, {(std::int64_t(1) << 28) + 3});
  common::testing::check_out_of_place_sizes<std::int64_t>(
      checked_launch<std::int64_t>, reverse_fast::BLOCK_ELEMENTS, {(std::int64_t(1) << 28) + 3});
}

GPU_TEST_CASE("reverse_fast takes pointers at every offset from 16 bytes") {
  // d_in + 1 and friends: every pair of offsets, each type, n around warp and block edges.
  static_assert(reverse_fast::SMALL_BLOCK_ELEMENTS == 1024,
                "1024, 1025: one block of elements, two");
  std::uint64_t seed = 1;
  for (const std::int64_t n :
       {1, 2, 3, 5, 7, 8, 9, 127, 128, 129, 1023, 1024, 1025, 4099, 100003, (1 << 20) + 3}) {
    for (int in_off = 0; in_off < 4; ++in_off) {
      for (int out_off = 0; out_off < 4; ++out_off) {
        CAPTURE(n);
        CAPTURE(in_off);
        CAPTURE(out_off);
        const auto a = common::testing::check_out_of_place<std::int32_t>(
            checked_launch<std::int32_t>, n, seed++, in_off, out_off);
        INFO(common::describe(a));
        CHECK(a.ok());
        const auto b = common::testing::check_out_of_place<std::int64_t>(
            checked_launch<std::int64_t>, n, seed++, in_off % 2, out_off % 2);
        INFO(common::describe(b));
        CHECK(b.ok());
      }
    }
  }
}

GPU_TEST_CASE("reverse_fast's 16-byte kernel alone matches the CPU at every test size and offset") {
  // The step takes the element kernel up to ELEMENTS_MAX_N; the sweep's variants take this one at
  // every n, so its small sizes and block edges are checked here.
  common::testing::check_out_of_place_sizes<std::int32_t>(checked_variant<std::int32_t>,
                                                          reverse_fast::BLOCK_ELEMENTS, {});
  std::uint64_t seed = 11;
  for (const std::int64_t n : {1, 2, 3, 5, 9, 1023, 1024, 1025, 4099, 100003}) {
    for (int in_off = 0; in_off < 4; ++in_off) {
      for (int out_off = 0; out_off < 4; ++out_off) {
        const auto r = common::testing::check_out_of_place<std::int32_t>(
            common::testing::out_of_place_launch<std::int32_t>(checked_variant<std::int32_t>), n,
            seed++, in_off, out_off);
        INFO("n=", n, " in_off=", in_off, " out_off=", out_off, " ", common::describe(r));
        CHECK(r.ok());
      }
    }
  }
}

GPU_TEST_CASE("reverse_fast matches the CPU either side of the element kernel's limit") {
  constexpr std::int64_t LIMIT = reverse_fast::ELEMENTS_MAX_N;
  std::uint64_t seed = 21;
  for (const std::int64_t n : {LIMIT - 1, LIMIT, LIMIT + 1, LIMIT + 3}) {
    for (int off = 0; off < 4; ++off) {
      const auto a = common::testing::check_out_of_place<std::int32_t>(
          common::testing::out_of_place_launch<std::int32_t>(checked_launch<std::int32_t>), n,
          seed++, off, 3 - off);
      INFO("n=", n, " off=", off, " ", common::describe(a));
      CHECK(a.ok());
      const auto b = common::testing::check_out_of_place<std::int64_t>(
          common::testing::out_of_place_launch<std::int64_t>(checked_launch<std::int64_t>), n,
          seed++, off % 2, 1 - off % 2);
      INFO(common::describe(b));
      CHECK(b.ok());
    }
  }
}

GPU_TEST_CASE("reverse_fast sweep variants match the CPU") {
  using namespace reverse_fast;
  for (const std::int64_t n : {1000, 100003, (1 << 22) + 1}) {
    for (const auto& launch :
         {common::testing::out_of_place_launch<float>(checked<float, launch_variant<float, 2>>),
          common::testing::out_of_place_launch<float>(checked<float, launch_variant<float, 4>>),
          common::testing::out_of_place_launch<float>(checked<float, launch_variant<float, 8>>),
          common::testing::out_of_place_launch<float>(
              checked<float, launch_variant<float, 1, PLAIN_STORES>>),
          common::testing::out_of_place_launch<float>(
              checked<float, launch_variant<float, 1, STREAMING_BOTH>>)}) {
      const auto r = common::testing::check_out_of_place<float>(launch, n, 7, 1, 2);
      INFO("n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
  }
}

HOST_TEST_CASE(
    "reverse_fast refuses overlapping arrays and pointers not aligned to their element") {
  using reverse_fast::check_arguments;
  // Made-up addresses: the checks run before any CUDA call.
  auto* base = reinterpret_cast<std::int32_t*>(std::uintptr_t(1) << 32);
  CHECK(check_arguments<std::int32_t>(base, base + 1000, 1000) == cudaSuccess);
  CHECK(check_arguments<std::int32_t>(base + 1000, base, 1000) == cudaSuccess);
  CHECK(check_arguments<std::int32_t>(base, base, 1000) == cudaErrorInvalidValue);  // in place
  CHECK(check_arguments<std::int32_t>(base, base + 999, 1000) == cudaErrorInvalidValue);
  CHECK(check_arguments<std::int32_t>(base + 999, base, 1000) == cudaErrorInvalidValue);
  CHECK(check_arguments<std::int32_t>(base, base + 1, 1000) == cudaErrorInvalidValue);
  CHECK(check_arguments<std::int32_t>(base, base, 0) == cudaSuccess);  // nothing to do
  CHECK(check_arguments<std::int32_t>(base, base + 1000, -1) == cudaErrorInvalidValue);
  CHECK(check_arguments<std::int32_t>(nullptr, base, 5) == cudaErrorInvalidValue);
  const auto* odd = reinterpret_cast<const std::int32_t*>(reinterpret_cast<const char*>(base) + 2);
  CHECK(check_arguments<std::int32_t>(odd, base + 1000, 8) == cudaErrorInvalidValue);
  CHECK(check_arguments<std::int64_t>(reinterpret_cast<const std::int64_t*>(base + 1),
                                      reinterpret_cast<std::int64_t*>(base + 1000),
                                      8) == cudaErrorInvalidValue);
  // Both launch functions check them first, at either side of the element kernel's limit.
  for (const std::int64_t n : {std::int64_t(8), std::int64_t(reverse_fast::ELEMENTS_MAX_N) + 1}) {
    CHECK(reverse_fast::launch<std::int32_t>(base, base + n / 2, n) == cudaErrorInvalidValue);
    CHECK(reverse_fast::launch_variant<std::int32_t>(base, base + n / 2, n) ==
          cudaErrorInvalidValue);
  }
}

GPU_TEST_CASE("reverse_fast refuses overlapping arrays and leaves the output untouched") {
  for (const std::int64_t n : {std::int64_t(1000), std::int64_t(1) << 20}) {
    common::device_buffer<std::int32_t> d(2 * n);
    d.poison();
    CHECK(reverse_fast::launch<std::int32_t>(d.data(), d.data() + n / 2, n) ==
          cudaErrorInvalidValue);
    CHECK(reverse_fast::launch<std::int32_t>(d.data(), d.data(), n) == cudaErrorInvalidValue);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (const std::int32_t x : d.download()) REQUIRE(x == std::int32_t(0xABABABAB));
  }
}

GPU_TEST_CASE("reverse_fast reverses on two streams at once") {
  for (const std::int64_t n : {std::int64_t(5000), (std::int64_t(1) << 24) + 3}) {
    CAPTURE(n);
    const std::vector<std::int32_t> a = common::reversal_input<std::int32_t>(std::size_t(n), 1),
                                    b = common::reversal_input<std::int32_t>(std::size_t(n), 2);
    common::device_buffer<std::int32_t> d_a(n), d_b(n), d_out_a(n + 1), d_out_b(n + 3);
    d_a.upload(a);
    d_b.upload(b);
    d_out_a.poison();
    d_out_b.poison();
    common::testing::on_two_streams(5, [&](cudaStream_t first, cudaStream_t second) {
      // the outputs at offsets 1 and 3 (not 16 bytes)
      CHECK(reverse_fast::launch(d_a.data(), d_out_a.data() + 1, n, first) == cudaSuccess);
      CHECK(reverse_fast::launch(d_b.data(), d_out_b.data() + 3, n, second) == cudaSuccess);
    });
    const std::vector<std::int32_t> got_a = d_out_a.download(), got_b = d_out_b.download();
    CHECK(std::equal(a.rbegin(), a.rend(), got_a.begin() + 1));
    CHECK(std::equal(b.rbegin(), b.rend(), got_b.begin() + 3));
  }
}

GPU_TEST_CASE("reverse_fast reverses again after a device reset") {
  for (int round = 0; round < 2; ++round) {
    for (const std::int64_t n : {std::int64_t(1000), (std::int64_t(1) << 20) + 1}) {
      const auto r = common::testing::check_out_of_place<std::int32_t>(checked_launch<std::int32_t>,
                                                                       n, 5, 1, 2);
      INFO("round ", round, " n=", n, " ", common::describe(r));
      CHECK(r.ok());
    }
    CUDA_CHECK(cudaDeviceReset());
  }
}

GPU_TEST_CASE("reverse_fast reverses 2^31 + 5 int32 (64-bit indices) checked on the GPU") {
  const std::int64_t n = (std::int64_t(1) << 31) + 5;
  if (!common::testing::device_holds(2 * std::size_t(n) * sizeof(std::int32_t),
                                     "2^31 + 5 int32 in and out"))
    return;
  CHECK(common::testing::wrong_elements_on_device(checked_launch<std::int32_t>, {}, n, 3) == 0);
}
