#!/usr/bin/env python3
"""The grader's build step with a real compiler (no GPU needed): a student's copy where one
exercise does not compile, one is complete and one is missing is built in one parallel build;
the broken one is reported with its compiler error, the complete one builds, the missing one is
named, and a stale program from an earlier build is never graded.

    python3 common/tools/tests/grade_build_test.py SCRATCH_DIR
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import grade  # noqa: E402


def main():
    scratch = os.path.abspath(sys.argv[1])
    shutil.rmtree(scratch, ignore_errors=True)
    student = os.path.join(scratch, "alice")
    specs = {s.name: s for s in grade.load_specs(os.path.join(grade.REPO, "solutions"))}
    broken, complete, missing = specs["saxpy"], specs["argmax"], specs["mean_variance"]
    for spec, side in ((broken, "exercises"), (complete, "solutions")):
        os.makedirs(os.path.join(student, spec.dir))
        shutil.copy(os.path.join(grade.REPO, side, spec.dir, spec.name + ".cuh"),
                    os.path.join(student, spec.dir))
    header = os.path.join(student, broken.dir, broken.name + ".cuh")
    with open(header) as f:
        text = f.read()
    with open(header, "w") as f:
        f.write(text.replace('common::todo("saxpy::launch");', 'common::todo("saxpy::launch") oops;'))

    failures = []
    runner = grade.CMakeRunner(os.path.join(scratch, "build"), "alice", student, None)
    # A program left by an earlier build of the broken exercise must not be graded.
    stale = runner.binary("student", broken)
    os.makedirs(os.path.dirname(stale), exist_ok=True)
    with open(stale, "w") as f:
        f.write("stale")
    runner.prebuild("student", [broken, complete, missing])
    got = {s.name: runner.build("student", s) for s in (broken, complete, missing)}
    if not (got["saxpy"] or "").startswith("compile error:") or "oops" not in got["saxpy"]:
        failures.append(f"broken saxpy: want its compile error, got {got['saxpy']!r}")
    if os.path.exists(stale):
        failures.append("the stale saxpy program is still there")
    if got["argmax"] is not None or not os.path.isfile(runner.binary("student", complete)):
        failures.append(f"complete argmax: want it built, got {got['argmax']!r}")
    if got["mean_variance"] != "missing: 03_mean_variance/mean_variance.cuh":
        failures.append(f"missing mean_variance: got {got['mean_variance']!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"grade_build_test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
