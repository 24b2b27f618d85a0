// transpose_any_shape's plan: host tests, no GPU. The plan at shapes on both sides of every rule's
// edges, on the H200's and the H100's facts (and the portable build's on the H200), equals the
// golden table tools/plan_goldens.txt (each line: shape, GPU, rule, kernel and its launch); and
// the rules' building blocks keep their invariants. To record the table again after a change
// of the rules that is meant: TRANSPOSE_PLAN_RECORD=1 transpose_any_shape_plan_test.
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/testing.hpp"
#include "plan.hpp"
#include "variants.hpp"

namespace {
using namespace transpose_any_shape;
using shape = std::pair<std::int64_t, std::int64_t>;

// Shapes on both sides of each rule's edges, rule by rule (in RULES' order).
std::vector<shape> edge_shapes() {
  // clang-format off
  std::vector<std::vector<shape>> groups = {
      // nothing, a copy, the narrow kernel just past them
      {{0, 5}, {5, 0}, {1, 5}, {5, 1}, {2, 5}, {1, 1}},
      // loads in halves: both sides from 96, 4 per SM along short rows, 1 to 32 past them,
      // one wave, very tall
      {{92, 30001}, {96, 30001}, {2048, 1001}, {2112, 1001}, {4224, 1001}, {4288, 1001},
       {192, 2689}, {192, 2753}, {512, 8447}, {512, 8449}, {4096, 4161}, {4096, 4225},
       {8708, 1089}, {8712, 1089}, {70000, 5001}},
      // stretches: short side 19 / 20 / 64 / 65 and 96 / 97 / 128 / 129 rows, blocks per SM edges
      {{19, 50001}, {20, 50001}, {64, 50001}, {65, 50001}, {20, 33792}, {20, 33793}, {20, 67584},
       {20, 67585}, {96, 25345}, {97, 25344}, {97, 25345}, {128, 33792}, {128, 33793},
       {129, 30003}, {50001, 20}, {33793, 20}},
      // one side off, one wave of lines: few columns 63 / 64 / 79 / 80, rows filling their tiles
      {{30003, 63}, {30003, 64}, {30003, 79}, {30003, 80}, {48, 30003}, {49, 30003}, {96, 30003},
       {97, 30003}, {1001, 4096}, {12289, 333}, {2001, 3000}, {2001, 3300}},
      // small wide matrices: 40 / 41 rows, 112 / 113, both sides aligned
      {{40, 30003}, {41, 30003}, {64, 30003}, {65, 30003}, {112, 30003}, {113, 30003},
       {44, 30004}, {41, 15001}, {41, 70001}},
      // large wide matrices of 65 to 127 odd rows: 113 / 114, 115 / 116, 127 / 128; runs per SM
      {{65, 67457}, {113, 67457}, {114, 67457}, {115, 67457}, {116, 67457}, {127, 67457},
       {128, 67457}, {119, 422368}, {119, 422372}, {127, 422372}, {64, 67457}},
      // the few-side kernels: 16 / 17, 40 / 41 rows, 64 / 65 columns, odd rows to 127, aligned
      {{100003, 16}, {100003, 17}, {17, 100003}, {40, 1000001}, {41, 1000001}, {1000001, 64},
       {1000003, 65}, {1000003, 96}, {1000003, 97}, {1000003, 127}, {1000003, 128}, {1000000, 40},
       {1000000, 32}, {32, 1000000}, {28, 1000000}, {20003, 100}, {20003, 112}, {20003, 113},
       {20003, 116}, {118145, 116}, {118145, 115}, {185727, 127}, {187237, 127}, {67457, 65},
       {67455, 65}, {185729, 108}},
      // a few waves: a few side of 19 / 20, 31 / 32, 47 / 48, 60 / 61 / 63 / 64 columns
      {{30001, 19}, {30001, 20}, {30001, 31}, {30001, 32}, {30001, 47}, {30001, 48}, {30001, 60},
       {30001, 61}, {30001, 63}, {30001, 64}, {30004, 40}, {50003, 60}, {40, 60001}, {20001, 17}},
      // the narrow kernel: 16 / 17, short odd rows 40 / 41
      {{16, 5000}, {17, 5000}, {5000, 16}, {39, 41}, {41, 45}, {8, 4000000}},
      // aligned lines where both sides are odd: one wave (4, 5, 8 tiles per SM), bandwidth,
      // very tall, one row of tiles
      {{1025, 1027}, {2051, 1103}, {2049, 2047}, {3001, 2003}, {4097, 4097}, {10001, 10003},
       {70001, 5001}, {67, 500001}, {131, 1101}, {16383, 16385}},
      // whole sectors along: along first, 9 times as tall
      {{2052, 300}, {2052, 301}, {9828, 1092}, {9028, 1104}, {1028, 300}, {300004, 300}},
      // the tiles along: 16 / 17 tiles across, input rows off 64 bytes up to 4 columns, 700 tiles,
      // rows % 16 == 8, rows % 64 of 16, 32, 48
      {{4096, 1024}, {4096, 1088}, {8000, 8004}, {8000, 32004}, {8000, 32068}, {11264, 44740},
       {11264, 44804}, {16392, 27572}, {16392, 15360}, {4112, 6172}, {4112, 6164}, {4080, 6124},
       {2000, 4004}},
      // very tall: 48 times with both sides on 64 bytes, 8 with realigned loads
      {{300000, 2000}, {96000, 2000}, {97024, 2048}, {70000, 5001}, {80000, 10001}},
      // whole sectors down; thin last columns; wide fetches down 20000 / 28000 rows
      {{4100, 4100}, {16388, 16388}, {14788, 13761}, {1100, 1089}, {19996, 3116}, {20004, 3116},
       {27996, 3116}, {28004, 3116}, {20004, 3117}, {16384, 16385}, {16385, 16384},
       {16384, 16384}, {4100, 1028}, {1092, 1089}},
  };
  // clang-format on
  std::vector<shape> all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  return all;
}

// One line per plan: the rule, the kernel and its options, and the launch.
std::string summary(const plan& p) {
  std::ostringstream o;
  o << p.rule << " | " << kernel_name(p.kernel);
  switch (p.kernel) {
    case kernel_kind::nothing:
      return o.str();
    case kernel_kind::copy:
      o << " " << p.step << " floats";
      return o.str();
    case kernel_kind::narrow:
      o << (p.gather ? " gather" : " scatter") << (p.index64 ? " 64" : " 32");
      break;
    case kernel_kind::lines:
      o << " absorb " << p.absorb << " rows " << p.rows_in_flight << " min blocks " << p.min_blocks;
      break;
    case kernel_kind::few_cols:
    case kernel_kind::few_rows:
      o << " run " << p.run << (p.run_template == ANY_RUN ? " (at launch)" : "") << " pitch mod "
        << p.pitch_mod << " swizzle " << p.swizzle << " sectors " << p.sectors;
      break;
    case kernel_kind::stretch_rows:
    case kernel_kind::stretch_cols:
      o << " run " << p.run;
      break;
    case kernel_kind::loads_in_halves:
      break;
    case kernel_kind::whole_sectors:
    case kernel_kind::tiles:
      o << (p.down ? " down" : " along") << " loads " << (p.aligned_loads ? "aligned" : "realigned")
        << " stores " << (p.aligned_stores ? "aligned" : "realigned") << " bulk " << p.whole_bulk
        << " split " << p.split_chunks << " absorb " << p.absorb << " wide " << p.wide_fetch;
      break;
  }
  o << " | grid " << p.step << " x " << p.walk << " shared " << p.shared_bytes;
  return o.str();
}

std::vector<std::string> plan_lines() {
  const gpu_facts gpus[] = {h200_facts(), h100_facts(), h200_portable_facts()};
  std::vector<std::string> lines;
  for (const shape& s : edge_shapes())
    for (const gpu_facts& g : gpus)
      lines.push_back(std::to_string(s.first) + " x " + std::to_string(s.second) + " | " + g.name +
                      " | " + summary(choose_plan(matrix_shape{s.first, s.second}, g)));
  return lines;
}
}  // namespace

HOST_TEST_CASE(
    "the plan at every rule's edges equals the golden table on the H200 and H100 and portable "
    "facts") {
  const std::string file = TRANSPOSE_PLAN_GOLDENS;
  const std::vector<std::string> now = plan_lines();
  if (const char* record = std::getenv("TRANSPOSE_PLAN_RECORD");
      record && std::string(record) == "1") {
    std::ofstream out(file);
    for (const std::string& l : now) out << l << "\n";
    MESSAGE("recorded " << now.size() << " plans in " << file);
  }
  std::ifstream in(file);
  REQUIRE(in.good());
  std::vector<std::string> golden;
  for (std::string l; std::getline(in, l);) golden.push_back(l);
  REQUIRE(golden.size() == now.size());
  for (std::size_t i = 0; i < now.size(); ++i) {
    CAPTURE(i);
    CHECK(now[i] == golden[i]);
  }
}

HOST_TEST_CASE("the portable build's plans use neither bulk copies nor wide fetches") {
  for (const shape& s : edge_shapes()) {
    const plan p = choose_plan(matrix_shape{s.first, s.second}, h200_portable_facts());
    CAPTURE(s.first);
    CAPTURE(s.second);
    CHECK_FALSE(p.whole_bulk);
    CHECK_FALSE(p.wide_fetch);
  }
}

HOST_TEST_CASE("pointers off 16-byte boundaries take aligned lines at every shape") {
  for (const shape& s : edge_shapes()) {
    const plan p = choose_plan(matrix_shape{s.first, s.second, false}, h200_facts());
    CAPTURE(s.first);
    CAPTURE(s.second);
    if (s.first == 0 || s.second == 0)
      CHECK(p.kernel == kernel_kind::nothing);
    else if (s.first == 1 || s.second == 1)
      CHECK(p.kernel == kernel_kind::copy);
    else
      CHECK(p.kernel == kernel_kind::lines);
  }
}

HOST_TEST_CASE("every plan's grid is within the launch limits") {
  for (const gpu_facts& g : {h200_facts(), h100_facts()})
    for (const variant& v : variant_table())
      for (const shape& s : edge_shapes()) {
        const plan p = choose_plan(matrix_shape{s.first, s.second}, g, v.on);
        CAPTURE(v.name);
        CAPTURE(s.first);
        CAPTURE(s.second);
        CHECK(p.step <= std::int64_t(INT32_MAX));
        CHECK(p.shared_bytes <= g.shared_per_sm - g.shared_reserved_per_block);
        if (p.kernel == kernel_kind::loads_in_halves) CHECK(p.walk <= MAX_GRID_Y);
        if (p.kernel != kernel_kind::nothing) CHECK(p.rule[0] != '\0');
      }
}

HOST_TEST_CASE("few_pitch holds a run with its lead and the rows past it at 4 past a multiple") {
  for (const int run : {FEW_SHORT_RUN, FEW_RUN}) {
    for (const int mod : {FULL_PITCH_MOD, COMPACT_PITCH_MOD}) {
      CAPTURE(run);
      CAPTURE(mod);
      const int pitch = few_pitch(run, mod);
      CHECK(pitch >= run + 2 * BELOW);
      CHECK(pitch % mod == VEC);
      CHECK(pitch - VEC < run + 2 * BELOW + mod);  // no more padding than the rule needs
      std::set<int> groups;
      for (int row = 0; row < 8; ++row) groups.insert(row * pitch % 32 / VEC);
      CHECK(groups.size() == 8);
    }
  }
  CHECK(few_pitch(FEW_RUN, COMPACT_PITCH_MOD) < few_pitch(FEW_RUN));
}

HOST_TEST_CASE("the occupancy model takes registers and then shared rows in 128-byte units") {
  const gpu_facts g = h200_facts();
  CHECK(blocks_per_sm(g, 5, 0) == 5);
  // 228 KB / (45 KB + 1 KB reserved) = 4 blocks; a byte more than a quarter of the SM's shared
  // memory (less the reserved KB) rounds up to the next 128 bytes and leaves room for 3.
  CHECK(blocks_per_sm(g, 8, 45 * 1024) == 4);
  CHECK(blocks_per_sm(g, 8, 57344) == 4);  // 57344 + 1024 = 233472 / 4 - 1024
  CHECK(blocks_per_sm(g, 8, 57345) == 3);
  CHECK(blocks_per_sm(g, 8, 300 * 1024) == 1);  // never 0: the kernel still runs, one at a time
}

HOST_TEST_CASE("describe names the rule and the kernel and the launch") {
  const std::string d = describe(choose_plan(matrix_shape{4097, 4099}, h200_facts()));
  CHECK(d.find("rule:") != std::string::npos);
  CHECK(d.find("kernel_lines") != std::string::npos);
  CHECK(d.find("blocks:") != std::string::npos);
}

HOST_TEST_CASE("every variant name in the committed results is a variant of the table") {
  // The result rows join on the variant column: a renamed variant would orphan its rows.
  std::set<std::string> names;
  for (const variant& v : variant_table()) names.insert(v.name);
  std::istringstream files(TRANSPOSE_RESULT_FILES);
  int rows = 0;
  for (std::string file; std::getline(files, file, '|');) {
    std::ifstream in(file);
    CAPTURE(file);
    REQUIRE(in.good());
    for (std::string line; std::getline(in, line);) {
      const std::string step = "transpose,transpose_any_shape,";
      if (line.compare(0, step.size(), step) != 0) continue;
      const std::string name = line.substr(step.size(), line.find(',', step.size()) - step.size());
      CAPTURE(name);
      CHECK(names.count(name) == 1);
      ++rows;
    }
  }
  CHECK(rows > 0);
}
