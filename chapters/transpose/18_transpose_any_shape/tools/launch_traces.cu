// launch_traces: records, without a GPU, the launches (kernel, grid, block, dynamic shared bytes)
// that transpose_any_shape's default and every --sweep variant make at each shape of
// trace_shapes.txt, on the H200's and the H100's facts (plan.hpp's h200_facts and h100_facts: 132
// SMs each, DRAM bandwidth from the memory clock and bus width in book/results/<gpu>/*.csv, the
// few-side kernels' occupancy from their registers in the sm_90 build). --check compares them with
// the committed goldens (launch_traces.txt): the launch code may be rearranged, but no launch
// may change. --record writes the goldens (only from the code whose launches are the reference).
// Format: "<gpu> <rows>x<cols> | <launches>" for the default, and "... | <variant> | <launches>"
// for each variant whose launches differ from the default's; an H100 line only where the H100's
// launches differ from the H200's.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chapters/transpose/18_transpose_any_shape/transpose_any_shape.cuh"

namespace {
using namespace transpose_any_shape;

struct gpu {
  const char* name;
  gpu_facts facts;
};
const gpu GPUS[] = {{"H200", h200_facts()}, {"H100", h100_facts()}};

std::string trace_of(const gpu& g, const common::matrix_launch& launch, std::int64_t rows,
                     std::int64_t cols) {
  trace::sink sink;
  sink.gpu = g.facts;
  trace::current_sink() = &sink;
  // Two distinct 256-byte aligned addresses: nothing is launched, nothing is read.
  launch(reinterpret_cast<const float*>(std::uintptr_t(1) << 40),
         reinterpret_cast<float*>(std::uintptr_t(2) << 40), rows, cols);
  trace::current_sink() = nullptr;
  std::string joined;
  for (const std::string& line : sink.lines) joined += (joined.empty() ? "" : " ; ") + line;
  return joined.empty() ? "(none)" : joined;
}

std::vector<std::string> record(const std::vector<std::pair<std::int64_t, std::int64_t>>& shapes) {
  const std::vector<common::matrix_variant> all = variants();
  std::vector<std::string> out;
  for (const auto& [rows, cols] : shapes) {
    std::vector<std::string> first;  // the H200's lines of this shape
    for (const gpu& g : GPUS) {
      const std::string key =
          std::string(g.name) + " " + std::to_string(rows) + "x" + std::to_string(cols);
      std::vector<std::string> lines;
      const std::string base = trace_of(g, all[0].launch, rows, cols);
      lines.push_back(key + " | " + base);
      for (std::size_t i = 1; i < all.size(); ++i) {
        const std::string t = trace_of(g, all[i].launch, rows, cols);
        if (t != base) lines.push_back(key + " | " + all[i].name + " | " + t);
      }
      if (&g == &GPUS[0]) {
        first = lines;
        out.insert(out.end(), lines.begin(), lines.end());
        continue;
      }
      bool same = lines.size() == first.size();
      for (std::size_t i = 0; same && i < lines.size(); ++i)
        same = lines[i].substr(lines[i].find(' ')) == first[i].substr(first[i].find(' '));
      if (!same) out.insert(out.end(), lines.begin(), lines.end());
    }
  }
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: launch_traces --shapes trace_shapes.txt (--record FILE | --check FILE)\n");
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  std::string shapes_file, record_file, check_file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    if (a == "--shapes")
      shapes_file = argv[++i];
    else if (a == "--record")
      record_file = argv[++i];
    else if (a == "--check")
      check_file = argv[++i];
    else
      return usage();
  }
  if (shapes_file.empty() || record_file.empty() == check_file.empty()) return usage();
  std::ifstream in(shapes_file);
  if (!in) {
    std::fprintf(stderr, "launch_traces: cannot read %s\n", shapes_file.c_str());
    return 2;
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
  for (std::int64_t r, c; in >> r >> c;) shapes.push_back({r, c});
  const std::vector<std::string> lines = record(shapes);
  if (!record_file.empty()) {
    std::ofstream out(record_file);
    for (const std::string& l : lines) out << l << "\n";
    std::printf("%zu shapes, %zu lines -> %s\n", shapes.size(), lines.size(), record_file.c_str());
    return out ? 0 : 3;
  }
  std::ifstream golden(check_file);
  if (!golden) {
    std::fprintf(stderr, "launch_traces: cannot read %s\n", check_file.c_str());
    return 2;
  }
  std::vector<std::string> want;
  for (std::string l; std::getline(golden, l);) want.push_back(l);
  std::size_t shown = 0, differ = 0;
  for (std::size_t i = 0; i < std::max(want.size(), lines.size()); ++i) {
    const std::string w = i < want.size() ? want[i] : "(missing)";
    const std::string g = i < lines.size() ? lines[i] : "(missing)";
    if (w == g) continue;
    ++differ;
    if (shown++ < 10)
      std::printf("line %zu\n  golden: %s\n  now:    %s\n", i + 1, w.c_str(), g.c_str());
  }
  std::printf("%zu shapes, %zu lines: %s (%zu differ)\n", shapes.size(), lines.size(),
              differ == 0 ? "identical to the goldens" : "NOT identical", differ);
  return differ == 0 ? 0 : 1;
}
