#!/usr/bin/env python3
"""The grader's isolated build with a real compiler (no GPU needed), on planted submissions:

  saxpy            includes the solution's header by its path in the repository  -> flagged
  argmax           the solution plus CUB, which the README does not allow          -> flagged
  mean_variance    the solution, beside a stray common/random.hpp that would break
                   the build if it shadowed the project's header                   -> builds
  transpose_double the solution plus a macro meant to turn the program's own check
                   into a no-op                                                    -> builds, and
                   neither the program (main.cu) nor the grader's channel is
                   compiled with the student's header
  rotate90         the solution plus grading.json pulled into the program with
                   .incbin                                                         -> flagged
  compact          a compile error                                                 -> its error
  segmented_scan   missing                                                         -> named
  twin_primes      the solution plus a dlopen of cuBLAS                            -> flagged
  histogram        the solution plus its own common::summarize (forged medians)    -> flagged
  rotate_array     the solution plus its own cudaEventElapsedTime (forged times)   -> flagged
and a stale program from an earlier build is never graded.

    PYTHONPATH=common/tools python3 common/tools/tests/grade_build_test.py SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys

import grade


def solution(spec):
    with open(os.path.join(grade.REPO, "solutions", spec.dir, spec.name + ".cuh")) as f:
        return f.read()


def main():
    scratch = os.path.abspath(sys.argv[1])
    shutil.rmtree(scratch, ignore_errors=True)
    student = os.path.join(scratch, "mallory", "exercises")
    specs = {s.name: s for s in grade.load_specs(os.path.join(grade.REPO, "solutions"))}

    def plant(name, text, extra=None):
        folder = os.path.join(student, specs[name].dir)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name + ".cuh"), "w") as f:
            f.write(text)
        for path, body in (extra or {}).items():
            os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
            with open(os.path.join(folder, path), "w") as f:
                f.write(body)

    plant("saxpy", f'#include "{grade.REPO}/solutions/01_saxpy/saxpy.cuh"\n')
    plant("argmax", "#include <cub/cub.cuh>\n" + solution(specs["argmax"]))
    shadow = {"common/random.hpp": "#error the student's random.hpp shadowed the project's\n"}
    plant("mean_variance", solution(specs["mean_variance"]), shadow)
    os.makedirs(os.path.join(student, "common"), exist_ok=True)
    with open(os.path.join(student, "common", "random.hpp"), "w") as f:
        f.write(shadow["common/random.hpp"])
    plant("transpose_double", solution(specs["transpose_double"]) + """
#include "common/verify.hpp"
namespace common {
template <class... Args>
check_result compare_exact_always(Args&&...) { return {"fooled", 0, 0, {}}; }
}  // namespace common
#define compare_exact(...) compare_exact_always(__VA_ARGS__)
""")
    grading = os.path.join(grade.REPO, "solutions", specs["rotate90"].dir, "grading.json")
    plant("rotate90", solution(specs["rotate90"]) +
          f'\n__asm__(".section .rodata\\n.incbin \\"{grading}\\"\\n.previous");\n')
    plant("compact", solution(specs["compact"]).replace("namespace compact {",
                                                         "namespace compact { oops", 1))
    plant("twin_primes", "#include <dlfcn.h>\n" + solution(specs["twin_primes"]) + """
inline void* twin_primes_helper() { return dlopen("libcublas.so.13", RTLD_NOW); }
static void* const twin_primes_helper_handle = twin_primes_helper();
""")

    plant("histogram", solution(specs["histogram"]) + """
#include <vector>
#include "common/stats.hpp"
namespace common {
timing_stats summarize(std::vector<double> samples) { return {0.001, 0.001, 0.001, 0.001, 30}; }
}  // namespace common
""")
    plant("rotate_array", solution(specs["rotate_array"]) + """
#include <cuda_runtime.h>
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;
  return cudaSuccess;
}
""")

    builder = grade.StudentBuilder(os.path.join(scratch, "worker"),
                                   grade.make_scratch_tree(grade.REPO,
                                                           os.path.join(scratch, "handout")))
    failures = []
    if os.path.exists(os.path.join(builder.src, "solutions")) or any(
            "grading.json" in names for _, _, names in os.walk(builder.src)):
        failures.append("the scratch tree holds solutions/ or a grading.json")
    # A program left by an earlier build must not be graded.
    error = builder.configure()
    if error:
        print(error)
        return 1
    stale = os.path.join(builder.build, "bin", "exercise_compact")
    os.makedirs(os.path.dirname(stale), exist_ok=True)
    with open(stale, "w") as f:
        f.write("stale")
    names = ["saxpy", "argmax", "mean_variance", "transpose_double", "rotate90", "compact",
             "segmented_scan", "twin_primes", "histogram", "rotate_array"]
    out_dir = os.path.join(scratch, "programs")
    got = builder.build_student(student, [specs[n] for n in names], out_dir,
                                grade.secret_snippets(os.path.join(grade.REPO, "solutions")))
    for name in names:
        print(f"{name}: {got[name]}")

    def expect(name, ok, what):
        if not ok:
            failures.append(f"{name}: want {what}, got {got[name]!r}")
    expect("saxpy", (got["saxpy"] or "").startswith("FLAGGED: includes a file from outside the "
                                                     "handout") and "solutions/01_saxpy" in
           got["saxpy"], "flagged for including the solution")
    expect("argmax", "FLAGGED: uses cub" in (got["argmax"] or ""), "flagged for CUB")
    expect("mean_variance", got["mean_variance"] is None, "built (the stray header unused)")
    expect("transpose_double", got["transpose_double"] is None, "built")
    expect("rotate90", "FLAGGED: the program holds text of solutions/05_rotate90/grading.json"
           in (got["rotate90"] or ""), "flagged for holding grading.json")
    expect("compact", (got["compact"] or "").startswith("compile error:") and
           "oops" in got["compact"], "its compile error")
    expect("segmented_scan", got["segmented_scan"] == "missing: 07_segmented_scan/"
           "segmented_scan.cuh", "named as missing")
    expect("twin_primes", "FLAGGED: uses cublas" in (got["twin_primes"] or ""),
           "flagged for cuBLAS")
    expect("histogram", "FLAGGED: defines common::summarize" in (got["histogram"] or "") and
           "a function of the grader's harness" in got["histogram"], "flagged for its summarize")
    expect("rotate_array", "FLAGGED: defines cudaEventElapsedTime" in (got["rotate_array"] or ""),
           "flagged for its cudaEventElapsedTime")
    if os.path.exists(stale):
        failures.append("the stale compact program is still there")
    for name in names:
        built = os.path.isfile(os.path.join(out_dir, name))
        if built != (got[name] is None):
            failures.append(f"{name}: program {'copied' if built else 'missing'} for {got[name]!r}")
    # The macro reached only the student's own translation unit: neither the program (main.cu)
    # nor the grader's channel includes the student's header.
    deps = subprocess.run(["ninja", "-C", builder.build, "-t", "deps"], capture_output=True,
                          text=True).stdout
    blocks = [b.strip("\n") for b in deps.split("\n\n") if b.strip()]

    def objects(part):
        return [b for b in blocks if part in b.splitlines()[0]]
    header = os.path.join(builder.headers, "04_transpose_double", "transpose_double.cuh")
    channel = objects("grader_channel.cu.o")
    program = objects("exercise_transpose_double.dir/main.cu.o")
    entry = objects("exercise_transpose_double.dir/transpose_double_entry.cu.o")
    if not channel or any("headers/" in b for b in channel):
        failures.append("the grader's channel was compiled with a student's header (or not found)")
    if not program or any(header in b for b in program):
        failures.append("the program (main.cu) was compiled with the student's header (or not "
                        "found)")
    if not entry or not any(header in b for b in entry):
        failures.append("transpose_double_entry.cu's deps do not show the student's header: "
                        "this test no longer sees the isolation it checks")
    for f in failures:
        print("FAIL:", f)
    print(f"grade_build_test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
