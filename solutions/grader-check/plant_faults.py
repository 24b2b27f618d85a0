#!/usr/bin/env python3
"""plant_faults.py: writes submissions with one planted fault or cheat each, for the grader's own
GPU check (common/tools/grader_gpu_check.sh). It lives on the instructor's side (solutions/): its
plants are built from the solutions, and a handout must not ship a working answer.

    python3 solutions/grader-check/plant_faults.py OUT_DIR

Each OUT_DIR/<plant>/ is laid out like a student's copy of exercises/ (<NN_name>/<name>.cuh):

  honest mistakes (scored as before)
    wrong/             saxpy's grid rounded down: the last partial block never runs -> partial
    slow/              saxpy on 8 blocks whatever n is                             -> no speed points
    hang/              saxpy's kernel never returns                                -> stopped
  cheats (each scores 0, or is flagged with its reason)
    static_init/       prints a success line and a result row from a static initializer, exits 0
    include_solution/  includes the solution's header by its path in the repository
    library/           argmax with CUB and Thrust
    shadowed_header/   a do-nothing saxpy beside a common/random.hpp that makes every input 0
    check_macro/       a do-nothing saxpy that redefines compare_device_elements (its program's
                       check) to check nothing
    forged_stats/      the solution plus its own common::summarize, which reports 1 us
    forged_clock/      the solution plus its own cudaEventElapsedTime, which reports 1 us
    memoized/          saxpy that copies its first result into every later call with the same
                       buffers
    grandchild/        a setsid grandchild holding stdout, fake output, exit 0
    write_reference/   overwrites whatever reference program it can find, then the skeleton
    run_reference/     runs the solution's program in its place (same arguments, same channel)
    read_grading/      the solution, which refuses to run unless it can read grading.json
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def read(*parts):
    with open(os.path.join(REPO, *parts)) as f:
        return f.read()


def replace_region(text, name, body):
    pattern = re.compile(r"(// >>> YOUR CODE: " + re.escape(name) + r"\n)(.*?)(\n\s*// <<< YOUR CODE)",
                         re.S)
    if not pattern.search(text):
        raise SystemExit(f"plant_faults: no region {name!r}")
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


DO_NOTHING = {"launch": """\
  // Planted: does nothing.
  (void)a;
  (void)d_x;
  (void)d_y;
  (void)n;
  (void)block_threads;"""}

FAKE_OUTPUT = r"""
#include <cstdio>
#include <cstdlib>
namespace {
// Planted: a fake success line and result row, then exit 0, before main() runs.
const int planted_fake_output = [] {
  std::printf("check block=64: ok: 67108864 elements checked\n");
  std::printf("{\"part\":\"exercises\",\"step\":\"saxpy\",\"variant\":\"block=64\","
              "\"median_ms\":0.01,\"ok\":true}\n");
  std::fflush(stdout);
  std::_Exit(0);
  return 0;
}();
}  // namespace
"""

GRANDCHILD = r"""
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
namespace {
// Planted: a grandchild in a session of its own keeps stdout open for ten minutes.
const int planted_grandchild = [] {
  if (fork() == 0) {
    if (fork() == 0) {
      setsid();
      sleep(600);
    }
    std::_Exit(0);
  }
  std::printf("check block=64: ok: 67108864 elements checked\n");
  std::fflush(stdout);
  std::_Exit(0);
  return 0;
}();
}  // namespace
"""

WRITE_REFERENCE = r"""
#include <glob.h>
#include <sys/stat.h>
#include <cstdio>
namespace {
// Planted: overwrites every reference program it can reach with a script that exits 0.
const int planted_write = [] {
  const char* patterns[] = {"/tmp/grade-reference-*/saxpy", "@BUILD@/reference/bin/solution_saxpy"};
  for (const char* pattern : patterns) {
    glob_t found{};
    if (glob(pattern, 0, nullptr, &found) == 0) {
      for (size_t i = 0; i < found.gl_pathc; ++i) {
        chmod(found.gl_pathv[i], 0755);
        if (FILE* f = std::fopen(found.gl_pathv[i], "w")) {
          std::fputs("#!/bin/sh\nexit 0\n", f);
          std::fclose(f);
          std::fprintf(stderr, "planted: wrote %s\n", found.gl_pathv[i]);
        }
      }
    }
    globfree(&found);
  }
  return 0;
}();
}  // namespace
"""

RUN_REFERENCE = r"""
#include <glob.h>
#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
namespace {
// Planted: becomes the solution's program, with the same arguments and the same grader's channel.
const int planted_run = [] {
  std::vector<std::string> args;
  std::ifstream cmdline("/proc/self/cmdline");
  for (std::string arg; std::getline(cmdline, arg, '\0');) args.push_back(arg);
  const char* patterns[] = {"/tmp/grade-reference-*/saxpy", "@BUILD@/reference/bin/solution_saxpy"};
  for (const char* pattern : patterns) {
    glob_t found{};
    if (glob(pattern, 0, nullptr, &found) == 0 && found.gl_pathc > 0) {
      std::vector<char*> argv{found.gl_pathv[0]};
      for (std::size_t i = 1; i < args.size(); ++i) argv.push_back(&args[i][0]);
      argv.push_back(nullptr);
      std::fprintf(stderr, "planted: running %s\n", found.gl_pathv[0]);
      std::fflush(stderr);
      execv(found.gl_pathv[0], argv.data());
      std::fprintf(stderr, "planted: could not run %s\n", found.gl_pathv[0]);
    }
    globfree(&found);
  }
  return 0;
}();
}  // namespace
"""

READ_GRADING = r"""
#include <cstdio>
#include <cstdlib>
namespace {
// Planted: runs only when it can read the hidden sizes.
const int planted_read = [] {
  if (FILE* f = std::fopen("@REPO@/solutions/01_saxpy/grading.json", "r")) {
    std::fclose(f);
    return 0;
  }
  std::fprintf(stderr, "planted: could not read grading.json\n");
  std::exit(1);
}();
}  // namespace
"""

CHECK_MACRO = r"""
#include <string>
#include "common/verify.hpp"
namespace common {
// Planted: a check that checks nothing, in place of the program's own (saxpy's main.cu checks
// its output with compare_device_elements).
template <class T, class Wrong, class Describe>
check_result compare_device_elements_planted(const std::string& what, const T*, std::size_t n,
                                             Wrong, Describe, std::size_t = 0) {
  return check_result{what, n, 0, {}};
}
}  // namespace common
#define compare_device_elements compare_device_elements_planted
"""

FORGED_STATS = r"""
#include <vector>
#include "common/stats.hpp"
namespace common {
// Planted: the harness's summary of the timings, replaced.
timing_stats summarize(std::vector<double> samples) {
  return timing_stats{0.001, 0.001, 0.001, 0.001, int(samples.size())};
}
}  // namespace common
"""

FORGED_CLOCK = r"""
#include <cuda_runtime.h>
// Planted: the CUDA runtime's event timer, replaced.
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;
  return cudaSuccess;
}
"""

SHADOW = """\
// Planted: a stray copy of the project's header that makes every input zero (the grader must
// never compile it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
namespace common {
inline std::vector<float> random_floats(std::size_t n, std::uint64_t, float, float) {
  return std::vector<float>(n, 0.0f);
}
}  // namespace common
"""

MEMO = {"launch": """\
  // Planted memo: the first result for these buffers is copied into every later call.
  static const float* memo_x = nullptr;
  static float* memo_y = nullptr;
  static std::int64_t memo_n = -1;
  static float* memo_result = nullptr;
  if (n == 0) return;
  if (memo_result && d_x == memo_x && d_y == memo_y && n == memo_n) {
    CUDA_CHECK(cudaMemcpyAsync(d_y, memo_result, std::size_t(n) * sizeof(float),
                               cudaMemcpyDeviceToDevice));
    return;
  }
  const std::int64_t blocks = (n + block_threads - 1) / block_threads;
  kernel<<<unsigned(blocks), block_threads>>>(a, d_x, d_y, n);
  CUDA_CHECK_LAUNCH();
  if (memo_result) CUDA_CHECK(cudaFree(memo_result));
  CUDA_CHECK(cudaMalloc(&memo_result, std::size_t(n) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(memo_result, d_y, std::size_t(n) * sizeof(float),
                        cudaMemcpyDeviceToDevice));
  memo_x = d_x;
  memo_y = d_y;
  memo_n = n;"""}

HONEST = {
    "wrong": {"launch": """\
  // Planted bug: rounds the grid down, so the last partial block is never launched.
  const std::int64_t blocks = n / block_threads;
  if (blocks == 0) return;
  kernel<<<unsigned(blocks), block_threads>>>(a, d_x, d_y, n);
  CUDA_CHECK_LAUNCH();"""},
    "slow": {"kernel": """\
  // Planted slowness: a tiny grid strides over the array, so few bytes are in flight.
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    y[i] = a * x[i] + y[i];""", "launch": """\
  if (n == 0) return;
  kernel<<<8, block_threads>>>(a, d_x, d_y, n);  // planted: 8 blocks, whatever n is
  CUDA_CHECK_LAUNCH();"""},
    "hang": {"kernel": """\
  // Planted hang: clock64() is volatile, so the compiler keeps this loop, which never ends.
  while (clock64() >= 0) {
  }"""},
}


def plants(build_dir):
    solution = read("solutions", "01_saxpy", "saxpy.cuh")
    skeleton = read("exercises", "01_saxpy", "saxpy.cuh")

    def regions(text, changes):
        for name, body in changes.items():
            text = replace_region(text, name, body)
        return text
    out = {}
    for kind, changes in HONEST.items():
        out[kind] = {"01_saxpy/saxpy.cuh": regions(solution, changes)}
    out["static_init"] = {"01_saxpy/saxpy.cuh": skeleton + FAKE_OUTPUT}
    out["include_solution"] = {"01_saxpy/saxpy.cuh":
                               f'#include "{REPO}/solutions/01_saxpy/saxpy.cuh"\n'}
    out["library"] = {"02_argmax/argmax.cuh": (
        "#include <cub/cub.cuh>\n#include <thrust/execution_policy.h>\n"
        "#include <thrust/extrema.h>\n" + read("solutions", "02_argmax", "argmax.cuh") +
        "\n// Planted: the library peer.\ninline const float* planted_peer(const float* d, "
        "std::int64_t n) {\n  return thrust::max_element(thrust::device, d, d + n);\n}\n")}
    out["shadowed_header"] = {"01_saxpy/saxpy.cuh": regions(solution, DO_NOTHING),
                              "01_saxpy/common/random.hpp": SHADOW, "common/random.hpp": SHADOW}
    out["check_macro"] = {"01_saxpy/saxpy.cuh": regions(solution, DO_NOTHING) + CHECK_MACRO}
    out["memoized"] = {"01_saxpy/saxpy.cuh": regions(solution, MEMO)}
    out["forged_stats"] = {"01_saxpy/saxpy.cuh": solution + FORGED_STATS}
    out["forged_clock"] = {"01_saxpy/saxpy.cuh": solution + FORGED_CLOCK}
    out["grandchild"] = {"01_saxpy/saxpy.cuh": skeleton + GRANDCHILD}
    out["write_reference"] = {"01_saxpy/saxpy.cuh":
                              skeleton + WRITE_REFERENCE.replace("@BUILD@", build_dir)}
    out["run_reference"] = {"01_saxpy/saxpy.cuh":
                            skeleton + RUN_REFERENCE.replace("@BUILD@", build_dir)}
    out["read_grading"] = {"01_saxpy/saxpy.cuh": solution + READ_GRADING.replace("@REPO@", REPO)}
    return out


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__ + "\n    (a second argument: the grader's --build-dir)")
    build_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.join(REPO, "build", "grade")
    for kind, files in plants(os.path.abspath(build_dir)).items():
        for path, text in files.items():
            target = os.path.join(sys.argv[1], kind, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as f:
                f.write(text)
        print(f"plant_faults: {os.path.join(sys.argv[1], kind)}")


if __name__ == "__main__":
    main()
