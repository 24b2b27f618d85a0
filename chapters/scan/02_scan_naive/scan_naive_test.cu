// scan_naive: tests. GPU: every size up to its limit, both types, poisoned output; the slides'
// listing (kernel_classic, labelled "classic") gives a wrong scan, shown here and kept out of the
// program and of the sanitizer set.
#include <cstdint>
#include <vector>

#include "common/random.hpp"
#include "common/scan/testing.cuh"
#include "scan_naive.cuh"

namespace {
const common::scan_variant naive =
    common::variant_of("", scan_naive::launch<std::int32_t>, scan_naive::launch<float>);
}  // namespace

GPU_TEST_CASE("scan_naive scans int32 and float at every size up to one block") {
  common::testing::check_scan_sizes(
      naive, common::testing::scan_sizes(scan_naive::BLOCK_THREADS, scan_naive::BLOCK_THREADS,
                                         scan_naive::MAX_N));
}

GPU_TEST_CASE("classic: the slides' += listing gives a wrong scan of 3 1 7 0 4 1 6 3") {
  const std::vector<std::int32_t> in = {3, 1, 7, 0, 4, 1, 6, 3};
  common::device_buffer<std::int32_t> d_in(in.size()), d_out(in.size());
  d_in.upload(in);
  d_out.poison();
  scan_naive::launch_classic(d_in.data(), std::int64_t(in.size()), d_out.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::int32_t> got = d_out.download();
  const common::check_result r =
      common::check_scan("classic", in.data(), got.data(), in.size(), false);
  std::string shown;
  for (const std::int32_t x : got) shown += std::to_string(x) + " ";
  MESSAGE("the slides' listing gives ", shown,
          "(want 0 3 4 11 11 15 16 22): ", common::describe(r));
  CHECK_FALSE(r.ok());
  // The corrected kernel on the same input.
  d_out.poison();
  scan_naive::launch(d_in.data(), std::int64_t(in.size()), d_out.data());
  CHECK(d_out.download() == std::vector<std::int32_t>{0, 3, 4, 11, 11, 15, 16, 22});
}

GPU_TEST_CASE("classic: the slides' += listing is wrong at most elements of a 1024 input") {
  const std::vector<std::int32_t> in = common::scan_input<std::int32_t>(1024, 5);
  common::device_buffer<std::int32_t> d_in(in.size()), d_out(in.size());
  d_in.upload(in);
  d_out.poison();
  scan_naive::launch_classic(d_in.data(), 1024, d_out.data());
  const std::vector<std::int32_t> got = d_out.download();
  const common::check_result r = common::check_scan("classic", in.data(), got.data(), 1024, false);
  MESSAGE(common::describe(r));
  CHECK(r.mismatches > 512);
}
