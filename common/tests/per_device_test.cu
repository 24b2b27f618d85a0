// PerDevice: a launch function's cache, kept per device and per context (host only: the device
// indices and context ids here are made up, so no GPU is needed).
#include <doctest/doctest.h>

#include "common/per_device.cuh"

namespace {

struct counting_compute {
  int* calls;
  int value;
  cudaError_t operator()(int& out) const {
    ++*calls;
    out = value;
    return cudaSuccess;
  }
};

}  // namespace

TEST_CASE("PerDevice computes once per device and keeps the devices apart") {
  common::PerDevice<int> cache;
  int calls = 0, got = -1;
  CHECK(cache.get(0, 7, got, counting_compute{&calls, 132}) == cudaSuccess);
  CHECK(got == 132);
  CHECK(cache.get(1, 9, got, counting_compute{&calls, 114}) == cudaSuccess);  // an H100 beside
  CHECK(got == 114);
  CHECK(cache.get(0, 7, got, counting_compute{&calls, -1}) == cudaSuccess);  // kept
  CHECK(got == 132);
  CHECK(cache.get(1, 9, got, counting_compute{&calls, -1}) == cudaSuccess);
  CHECK(got == 114);
  CHECK(calls == 2);
}

TEST_CASE("PerDevice recomputes after the device's context changed (a reset)") {
  common::PerDevice<int> cache;
  int calls = 0, got = -1;
  CHECK(cache.get(3, 100, got, counting_compute{&calls, 1}) == cudaSuccess);
  CHECK(cache.get(3, 101, got, counting_compute{&calls, 2}) == cudaSuccess);
  CHECK(got == 2);
  CHECK(calls == 2);
  CHECK(cache.get(3, 101, got, counting_compute{&calls, 3}) == cudaSuccess);
  CHECK(got == 2);
  CHECK(calls == 2);
}

TEST_CASE("PerDevice keeps nothing when the computation fails, and rejects a negative device") {
  common::PerDevice<int> cache;
  int calls = 0, got = 5;
  auto failing = [&](int&) {
    ++calls;
    return cudaErrorInvalidValue;
  };
  CHECK(cache.get(0, 1, got, failing) == cudaErrorInvalidValue);
  CHECK(got == 5);  // untouched
  CHECK(cache.get(0, 1, got, counting_compute{&calls, 8}) == cudaSuccess);
  CHECK(got == 8);
  CHECK(calls == 2);
  CHECK(cache.get(-1, 1, got, counting_compute{&calls, 9}) == cudaErrorInvalidDevice);
}
