// doctest helpers. HOST_TEST_CASE runs everywhere (label "unit"). GPU_TEST_CASE (label "gpu")
// exits with 77 when no CUDA device is usable, so CTest, which runs each case in its own process,
// reports it as Skipped rather than Passed. Run by hand without a device, the test binary leaves
// the gpu suite out and says so (see test_main.cpp).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace common::testing {

// Test names become CTest names and doctest filters: a ',' splits a doctest filter and a ';'
// splits a CMake list, so neither may appear (checked at compile time by the macros below).
constexpr bool valid_test_name(const char* name) {
  for (; *name != '\0'; ++name)
    if (*name == ',' || *name == ';') return false;
  return true;
}

// Exits the process with 77 (after a message) when there is no usable CUDA device.
void skip_without_gpu();

// Inside a GPU test case: exits with 77 (CTest: Skipped) after "not available on this GPU: <why>"
// when `available` is false (a Hopper-only kernel in a build or on a GPU without sm_90 code).
void skip_unless_available(bool available, const char* why);

// At the start of a GPU test case whose arrays are large (past 2^31 elements): true when the
// current device has `bytes` free with 1 GiB to spare. Otherwise it prints "<what> needs ... of
// device memory ...: GPU test skipped" and returns false, and the case returns at once, before it
// checks anything. CTest matches that line (SKIP_REGULAR_EXPRESSION, set where the cases are
// discovered) and reports the case as Skipped: a GPU of 16 GB skips a case it cannot hold instead
// of failing it, or passing it unchecked. The process goes on to its other cases.
bool device_holds(std::size_t bytes, const char* what);

// The sizes every GPU test covers: 0, 1, 2, 31, 32, 33, block-1, block, block+1, a few
// non-powers of two, and one array larger than a 50 MB L2 (2^24 + 7 four-byte elements).
std::vector<std::int64_t> edge_sizes(std::int64_t block);

}  // namespace common::testing

#define COMMON_CHECK_TEST_NAME(name) \
  static_assert(common::testing::valid_test_name(name), "no ',' or ';' in test names")

#define COMMON_HOST_CASE_IMPL(body, name)                               \
  static void body();                                                   \
  TEST_CASE(name* doctest::test_suite("unit")) {                        \
    COMMON_CHECK_TEST_NAME(name);                                       \
    body();                                                             \
  }                                                                     \
  static void body()
#define HOST_TEST_CASE(name) COMMON_HOST_CASE_IMPL(DOCTEST_ANONYMOUS(host_case_body_), name)

#define COMMON_GPU_CASE_IMPL(body, name)                                \
  static void body();                                                   \
  TEST_CASE(name* doctest::test_suite("gpu")) {                         \
    COMMON_CHECK_TEST_NAME(name);                                       \
    common::testing::skip_without_gpu();                                \
    body();                                                             \
  }                                                                     \
  static void body()
#define GPU_TEST_CASE(name) COMMON_GPU_CASE_IMPL(DOCTEST_ANONYMOUS(gpu_case_body_), name)
