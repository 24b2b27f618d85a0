// The main() of every doctest binary of the book. Without a CUDA device and without an explicit
// test-case filter (CTest always gives one), the "gpu" suite is left out with a note, so a student
// running a test binary by hand sees the host cases pass instead of an early exit.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

#include "common/device_info.cuh"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  bool filtered_or_listing = false;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    for (const char* prefix : {"-tc", "--test-case", "-ts", "--test-suite", "-l", "--list"})
      if (std::strncmp(a, prefix, std::strlen(prefix)) == 0) filtered_or_listing = true;
  }
  if (!filtered_or_listing && !common::has_cuda_device()) {
    std::fprintf(stderr, "no CUDA device: leaving out the gpu test suite\n");
    context.addFilter("test-suite-exclude", "gpu");
  }
  return context.run();
}
