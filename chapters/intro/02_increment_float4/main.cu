// increment_float4: the program (the flow is common::run_increment_variants).
#include <vector>

#include "common/intro/program.cuh"
#include "increment_float4.cuh"

int main(int argc, char** argv) {
  common::program program("intro", "increment_float4",
                          "add 1 to every float with 16-byte accesses");
  int block_threads = increment_float4::BLOCK_THREADS;
  int vectors = increment_float4::VECTORS_PER_THREAD;
  bool sweep = false;
  program.args().add_int("block", block_threads, 1, 1024, "threads per block");
  program.args().add_int("vectors", vectors, 1, 4, "float4 per thread: 1, 2 or 4");
  program.args().add_flag("sweep", sweep, "vectors 1, 2, 4 with blocks of 64, 256, 1024");
  program.add_usage_check([&] {
    if (vectors == 3) throw common::usage_error("--vectors must be 1, 2 or 4, got 3");
  });

  return program.run(argc, argv, [&](common::context& ctx) {
    std::vector<std::pair<int, int>> configs{{vectors, block_threads}};
    if (sweep) configs = {{1, 64}, {1, 256}, {1, 1024}, {2, 64},  {2, 256},
                          {2, 1024}, {4, 64}, {4, 256}, {4, 1024}};
    std::vector<common::increment_variant> variants;
    std::int64_t max_n = common::MAX_N;
    for (const auto& [v, block] : configs) {
      variants.push_back({"vectors=" + std::to_string(v) + " block=" + std::to_string(block),
                          [v = v, block = block](float* d, std::int64_t n) {
                            increment_float4::launch_vectors(v, d, n, block);
                          }});
      max_n = std::min(max_n, increment_float4::max_elements(block, v));
    }
    return common::run_increment_variants(ctx, variants, increment_float4::increment_cpu, max_n);
  });
}
