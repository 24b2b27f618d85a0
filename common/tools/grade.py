#!/usr/bin/env python3
"""grade.py: grades students' exercises against the solutions, on hidden sizes, in one run.

    bash common/tools/grade.sh [--exercises DIR | --submissions DIR] [--only NAME] [--seed S]
                               [--sanitize] [--format human|csv|json] [--build-dir DIR]

A student's work is a copy of exercises/ (only each <NN_name>/<name>.cuh is taken from it; the
programs, tests and references are this repository's). For each exercise the grader

  1. builds the student's program (a compile error scores 0 for that exercise, with its first lines),
  2. runs it on the hidden cases of solutions/<NN_name>/grading.json, each with every hidden seed
     and a time limit: a pass earns its share of the correctness points; a wrong answer (exit 1,
     first mismatches shown), a crash (exit 3, a signal, a usage error) or a time-out earns nothing,
  3. when every case passed, times the student's program and the solution's on the timing
     arguments, alternating, in the same run: full speed points within SPEED_FULL_RATIO (1.2x) of the
     solution's time, none from SPEED_ZERO_RATIO (3.0x), linear between,
  4. with --sanitize, runs the sanitize case under compute-sanitizer memcheck: a report costs
     SANITIZER_PENALTY points.

Scores: CORRECT_POINTS (70) + SPEED_POINTS (30) per exercise. Exit status: 0 graded (whatever the
scores), 1 a solution did not build or its timing run failed (that exercise is not graded and the
report says so), 2 bad usage, 77 no CUDA device. The grader runs students' code: run it in a
container or VM of your own; every run has a time limit.
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

CORRECT_POINTS = 70.0
SPEED_POINTS = 30.0
SPEED_FULL_RATIO = 1.2
SPEED_ZERO_RATIO = 3.0
SANITIZER_PENALTY = 25.0
TIMING_ROUNDS = 3            # student, solution, student, solution, ... (median of each side)
EXIT_NO_DEVICE = 77
EXIT_WRONG = 1

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------- the hidden specification

@dataclass
class Spec:
    dir: str                      # "01_saxpy"
    name: str                     # "saxpy"
    cases: list                   # argument strings
    seeds: list
    timing: str
    sanitize: str
    timeout_s: float = 60.0
    speed_full: float = SPEED_FULL_RATIO
    speed_zero: float = SPEED_ZERO_RATIO


def load_specs(solutions_dir):
    specs = []
    for d in sorted(os.listdir(solutions_dir)):
        path = os.path.join(solutions_dir, d, "grading.json")
        if not re.match(r"^\d\d_", d) or not os.path.isfile(path):
            continue
        with open(path) as f:
            j = json.load(f)
        specs.append(Spec(dir=d, name=j["name"], cases=list(j["cases"]), seeds=list(j["seeds"]),
                          timing=j["timing"], sanitize=j["sanitize"],
                          timeout_s=float(j.get("timeout_s", 60)),
                          speed_full=float(j.get("speed_full", SPEED_FULL_RATIO)),
                          speed_zero=float(j.get("speed_zero", SPEED_ZERO_RATIO))))
    return specs


def speed_target_text(spec):
    """The README's "speed target" row, which the sync check compares with grading.json."""
    return (f"full speed marks within {spec.speed_full:g}x of the solution's time on "
            f"`{spec.timing}`")


# ---------------------------------------------------------------- scoring (pure, unit-tested)

def speed_points(ratio, full=SPEED_FULL_RATIO, zero=SPEED_ZERO_RATIO, points=SPEED_POINTS):
    """Full points up to `full` x the solution's time, none from `zero` x, linear between."""
    if ratio <= full:
        return points
    if ratio >= zero:
        return 0.0
    return points * (zero - ratio) / (zero - full)


@dataclass
class RunResult:
    rc: int                       # exit status; negative: killed by that signal
    output: str = ""              # stdout + stderr
    timed_out: bool = False
    seconds: float = 0.0


def describe_failure(r, timeout_s):
    """None for a pass, else why the run failed, in a few words and its first telling lines."""
    if r.timed_out:
        return f"time-out after {timeout_s:g} s"
    if r.rc == 0:
        return None
    lines = [l.strip() for l in r.output.splitlines() if l.strip()]
    telling = [l for l in lines if re.search(r"not implemented|mismatch|got|want|error|FAILED", l,
                                             re.IGNORECASE)]
    detail = "; ".join((telling or lines)[-3:])[:300]
    if r.rc == EXIT_WRONG:
        return "wrong answer" + (f": {detail}" if detail else "")
    if r.rc < 0:
        try:
            name = signal.Signals(-r.rc).name
        except ValueError:
            name = f"signal {-r.rc}"
        return f"crash ({name})"
    if r.rc == 2:
        return "usage error" + (f": {detail}" if detail else "")
    if r.rc == 3:
        return "crash (CUDA error)" + (f": {detail}" if detail else "")
    if r.rc == EXIT_NO_DEVICE:
        return "no CUDA device"
    return f"crash (exit {r.rc})" + (f": {detail}" if detail else "")


def median_ms(r):
    """The first JSON row's median_ms of a --format json run, or None."""
    for line in r.output.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                return float(json.loads(line)["median_ms"])
            except (ValueError, KeyError):
                return None
    return None


@dataclass
class Grade:
    student: str
    exercise: str
    correct: float = 0.0
    speed: float = 0.0
    penalty: float = 0.0
    cases_passed: int = 0
    cases_total: int = 0
    ratio: float = None           # student time / solution time
    notes: list = field(default_factory=list)

    @property
    def total(self):
        return max(0.0, self.correct + self.speed - self.penalty)


def grade_exercise(spec, student, runner, sanitize=False, seed=None):
    """Grades one exercise of one student. runner: build(side, spec) -> None or an error text,
    run(side, spec, args, timeout_s) -> RunResult, sanitize(side, spec, args, timeout_s) ->
    RunResult; side is "student" or "solution"."""
    g = Grade(student=student, exercise=spec.name)
    seeds = [seed] if seed is not None else spec.seeds
    cases = [(c, s) for c in spec.cases for s in seeds]
    g.cases_total = len(cases)
    error = runner.build("student", spec)
    if error:
        g.notes.append(error)
        return g
    failures, timed_out, skipped = [], None, 0
    for index, (args, s) in enumerate(cases):
        r = runner.run("student", spec, f"{args} --seed {s} --reps 1 --warmup 0", spec.timeout_s)
        why = describe_failure(r, spec.timeout_s)
        if why is None:
            g.cases_passed += 1
            continue
        failures.append(f"{args} --seed {s}: {why}")
        if r.timed_out or "not implemented" in why:
            # A program that hung once would make every case wait out its limit, and an
            # unfinished skeleton fails them all: stop here.
            timed_out = failures[-1]
            skipped = len(cases) - index - 1
            break
    g.correct = round(CORRECT_POINTS * g.cases_passed / max(1, g.cases_total), 1)
    shown = failures[:3] + ([timed_out] if timed_out and timed_out not in failures[:3] else [])
    g.notes += shown
    if len(failures) > len(shown):
        g.notes.append(f"... and {len(failures) - len(shown)} more failed cases")
    if skipped:
        g.notes.append(f"{skipped} remaining case(s) not run after that")
    if failures:
        g.notes.append("speed not graded: not every case passed")
    else:
        timing_seed = seeds[0]
        times = {"student": [], "solution": []}
        for _ in range(TIMING_ROUNDS):
            for side in ("student", "solution"):
                r = runner.run(side, spec, f"{spec.timing} --seed {timing_seed} --format json",
                               spec.timeout_s)
                why = describe_failure(r, spec.timeout_s)
                ms = median_ms(r) if why is None else None
                if ms is None:
                    if side == "solution":
                        raise ReferenceFailed(f"{spec.name}: the solution's timing run failed: "
                                              f"{why or 'no JSON row'}")
                    g.notes.append(f"timing run ({spec.timing}): {why or 'no JSON row'}")
                    times = None
                    break
                times[side].append(ms)
            if times is None:
                break
        if times:
            student_ms = statistics.median(times["student"])
            solution_ms = statistics.median(times["solution"])
            g.ratio = student_ms / solution_ms if solution_ms > 0 else 1.0
            g.speed = round(speed_points(g.ratio, spec.speed_full, spec.speed_zero), 1)
            g.notes.append(f"time {student_ms:.4g} ms vs solution {solution_ms:.4g} ms "
                           f"({g.ratio:.2f}x)")
    if sanitize:
        r = runner.sanitize("student", spec, f"{spec.sanitize} --seed {seeds[0]} --reps 1 "
                            "--warmup 0", spec.timeout_s * 4)
        m = re.search(r"ERROR SUMMARY: (\d+) error", r.output)
        errors = int(m.group(1)) if m else 0
        if r.timed_out or errors > 0 or (r.rc != 0 and r.rc != EXIT_WRONG):
            g.penalty = SANITIZER_PENALTY
            why = (f"{errors} error(s)" if errors else describe_failure(r, spec.timeout_s * 4))
            g.notes.append(f"memcheck on {spec.sanitize}: {why}")
    return g


class ReferenceFailed(Exception):
    pass


# ---------------------------------------------------------------- building and running

def run_process(cmd, timeout_s, cwd=None):
    """Runs cmd (a list) with a time limit; on time-out kills its whole process group."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                            start_new_session=True, text=True, errors="replace")
    try:
        out, _ = proc.communicate(timeout=timeout_s)
        return RunResult(proc.returncode, out, False, time.monotonic() - start)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return RunResult(-signal.SIGKILL, out or "", True, time.monotonic() - start)


def first_error_lines(log, count=6):
    lines = log.splitlines()
    idx = [i for i, l in enumerate(lines) if re.search(r"error", l, re.IGNORECASE)]
    start = idx[0] if idx else max(0, len(lines) - count)
    return "\n    ".join(l.rstrip()[:200] for l in lines[start:start + count])


def failed_block(log, target):
    """The compiler output that ninja printed under a FAILED line of `target`, or None."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("FAILED:") and (f"/{target}.dir/" in line or
                                           line.rstrip().endswith(f"bin/{target}")):
            block = []
            for follow in lines[i + 1:]:
                if follow.startswith(("FAILED:", "ninja:")) or re.match(r"^\[\d+/\d+\]", follow):
                    break
                block.append(follow)
            return "\n".join(block)
    return None


class CMakeRunner:
    """Builds in <build>/reference (the solutions) and <build>/students/<student> (the student's
    headers through -DEXERCISE_HEADERS_DIR) and runs the programs there."""

    def __init__(self, build_root, student, exercises_dir, sanitizer):
        self.dirs = {"solution": os.path.join(build_root, "reference"),
                     "student": os.path.join(build_root, "students", student)}
        self.exercises_dir = os.path.abspath(exercises_dir)
        self.sanitizer = sanitizer
        self.configured = set()
        self.built = {}

    def configure(self, side):
        if side in self.configured:
            return None
        cmd = ["cmake", "-S", REPO, "-B", self.dirs[side], "-G", "Ninja",
               "-DCMAKE_BUILD_TYPE=Release"]
        if side == "student":
            cmd.append(f"-DEXERCISE_HEADERS_DIR={self.exercises_dir}")
        r = run_process(cmd, 600)
        if r.rc != 0:
            return "configure failed:\n    " + first_error_lines(r.output, 12)
        self.configured.add(side)
        return None

    def target(self, side, spec):
        return ("exercise_" if side == "student" else "solution_") + spec.name

    def binary(self, side, spec):
        return os.path.join(self.dirs[side], "bin", self.target(side, spec))

    def build(self, side, spec):
        """None when spec's program of this side is built, else why not (built by prebuild())."""
        key = (side, spec.name)
        if key not in self.built:
            self.prebuild(side, [spec])
        return self.built[key]

    def prebuild(self, side, specs):
        """Builds the programs of every exercise of one side in one parallel build that keeps going
        past failures (ninja -k 0): a compile error in one exercise costs that exercise, and the
        others build at the same time. build() reports the outcome of each."""
        error = self.configure(side)
        targets = {}
        for spec in specs:
            key = (side, spec.name)
            if key in self.built:
                continue
            if error:
                self.built[key] = error
                continue
            if side == "student":
                header = os.path.join(self.exercises_dir, spec.dir, spec.name + ".cuh")
                if not os.path.isfile(header):
                    self.built[key] = f"missing: {spec.dir}/{spec.name}.cuh"
                    continue
                if os.path.exists(self.binary(side, spec)):
                    os.remove(self.binary(side, spec))  # never grade an earlier build
            targets[self.target(side, spec)] = key
        if not targets:
            return
        r = run_process(["cmake", "--build", self.dirs[side], "--target", *targets, "--", "-k",
                         "0"], 3600)
        for target, key in targets.items():
            spec = next(s for s in specs if s.name == key[1])
            failed = failed_block(r.output, target)
            if failed is not None or not os.path.isfile(self.binary(side, spec)):
                self.built[key] = "compile error:\n    " + first_error_lines(
                    failed if failed is not None else r.output)
            else:
                self.built[key] = None

    def run(self, side, spec, args, timeout_s):
        return run_process([self.binary(side, spec)] + args.split(), timeout_s)

    def sanitize(self, side, spec, args, timeout_s):
        if not self.sanitizer:
            return RunResult(0, "compute-sanitizer not found: not checked")
        return run_process([self.sanitizer, "--tool", "memcheck", "--error-exitcode", "99",
                            self.binary(side, spec)] + args.split(), timeout_s)


# ---------------------------------------------------------------- reports

def fmt(x):
    return f"{x:.1f}".rstrip("0").rstrip(".")


def report_human(grades, out):
    by_student = {}
    for g in grades:
        by_student.setdefault(g.student, []).append(g)
    for student, gs in by_student.items():
        out.write(f"{student}\n")
        out.write(f"  {'exercise':<20} {'cases':>7} {'correct':>8} {'speed':>6} {'penalty':>8} "
                  f"{'total':>6}\n")
        for g in gs:
            out.write(f"  {g.exercise:<20} {g.cases_passed:>3}/{g.cases_total:<3} "
                      f"{fmt(g.correct):>8} {fmt(g.speed):>6} {fmt(-g.penalty) if g.penalty else '':>8} "
                      f"{fmt(g.total):>6}\n")
            for note in g.notes:
                out.write(f"      {note}\n")
        total = sum(g.total for g in gs)
        out.write(f"  {'total':<20} {'':>7} {'':>8} {'':>6} {'':>8} {fmt(total):>6} "
                  f"of {fmt(len(gs) * (CORRECT_POINTS + SPEED_POINTS))}\n")


CSV_FIELDS = ["student", "exercise", "cases_passed", "cases_total", "correct", "speed", "penalty",
              "total", "ratio", "notes"]


def grade_row(g):
    return {"student": g.student, "exercise": g.exercise, "cases_passed": g.cases_passed,
            "cases_total": g.cases_total, "correct": g.correct, "speed": g.speed,
            "penalty": g.penalty, "total": round(g.total, 1),
            "ratio": None if g.ratio is None else round(g.ratio, 3), "notes": " | ".join(g.notes)}


def report_csv(grades, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for g in grades:
        row = grade_row(g)
        for k in ("correct", "speed", "penalty", "total"):
            row[k] = fmt(row[k])
        w.writerow(row)


def report_json(grades, out):
    json.dump([grade_row(g) for g in grades], out, indent=1)
    out.write("\n")


def write_gradebook(grades, exercises, path):
    """One row per student: each exercise's total and the sum."""
    students = []
    for g in grades:
        if g.student not in students:
            students.append(g.student)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["student"] + exercises + ["total"])
        for s in students:
            mine = {g.exercise: g.total for g in grades if g.student == s}
            w.writerow([s] + [fmt(mine.get(e, 0.0)) for e in exercises] +
                       [fmt(sum(mine.values()))])


# ---------------------------------------------------------------- the command

def find_tool(name):
    found = shutil.which(name)
    if found:
        return found
    for d in ("/usr/local/cuda/bin", "/usr/local/cuda/compute-sanitizer"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exercises", default=os.path.join(REPO, "exercises"),
                    help="a student's filled-in copy of exercises/ (default: exercises/)")
    ap.add_argument("--submissions",
                    help="one folder per student, each a copy of exercises/; writes a gradebook")
    ap.add_argument("--gradebook", help="gradebook CSV (default <build-dir>/gradebook.csv)")
    ap.add_argument("--only", action="append", default=[],
                    help="grade this exercise only (name or NN_name; repeatable)")
    ap.add_argument("--seed", type=int, help="one seed instead of the hidden ones")
    ap.add_argument("--sanitize", action="store_true", help="also run compute-sanitizer memcheck")
    ap.add_argument("--format", choices=["human", "csv", "json"], default="human")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "grade"))
    ap.add_argument("--timeout", type=float,
                    help="seconds allowed per run, instead of each exercise's own limit")
    ap.add_argument("--solutions", default=os.path.join(REPO, "solutions"), help=argparse.SUPPRESS)
    ap.add_argument("--gpu-info", help="gpu_info program used for the device check "
                    "(default: build it in <build-dir>/reference)")
    a = ap.parse_args(argv)

    def usage(msg):
        print(f"grade: {msg}", file=sys.stderr)
        return 2

    if not os.path.isdir(a.solutions):
        return usage(f"no solutions/ at {a.solutions}: grading needs the instructor's side "
                     "(a student's handout has none)")
    specs = load_specs(a.solutions)
    if a.only:
        known = {s.name for s in specs} | {s.dir for s in specs}
        unknown = [o for o in a.only if o not in known]
        if unknown:
            return usage(f"unknown exercise {', '.join(unknown)}; exercises: "
                         f"{', '.join(s.name for s in specs)}")
        specs = [s for s in specs if s.name in a.only or s.dir in a.only]
    if a.timeout is not None:
        if a.timeout <= 0:
            return usage(f"--timeout {a.timeout:g}: must be more than 0 seconds")
        for s in specs:
            s.timeout_s = a.timeout
    if a.submissions:
        if not os.path.isdir(a.submissions):
            return usage(f"--submissions {a.submissions}: not a directory")
        students = [(d, os.path.join(a.submissions, d)) for d in sorted(os.listdir(a.submissions))
                    if os.path.isdir(os.path.join(a.submissions, d))]
        if not students:
            return usage(f"--submissions {a.submissions}: no student folders inside")
    else:
        if not os.path.isdir(a.exercises):
            return usage(f"--exercises {a.exercises}: not a directory")
        students = [(os.path.basename(os.path.normpath(a.exercises)), a.exercises)]

    # The device check comes first: without a GPU nothing can be graded.
    gpu_info = a.gpu_info
    if not gpu_info:
        reference = CMakeRunner(a.build_dir, "-", a.exercises, None)
        error = reference.configure("solution")
        if not error:
            r = run_process(["cmake", "--build", reference.dirs["solution"], "--target",
                             "gpu_info"], 1200)
            error = None if r.rc == 0 else "building gpu_info failed:\n    " + \
                first_error_lines(r.output)
        if error:
            print(f"grade: {error}", file=sys.stderr)
            return 2
        gpu_info = os.path.join(reference.dirs["solution"], "bin", "gpu_info")
    r = run_process([gpu_info, "--check"], 120)
    if r.rc == EXIT_NO_DEVICE:
        print("grade: no CUDA device here, so nothing can be graded (exit 77). Run the grader "
              "on a machine with an NVIDIA GPU.\n  " + r.output.strip(), file=sys.stderr)
        return EXIT_NO_DEVICE
    if r.rc != 0:
        print(f"grade: the device check failed (exit {r.rc}): {r.output.strip()}",
              file=sys.stderr)
        return 3

    sanitizer = find_tool("compute-sanitizer") if a.sanitize else None
    if a.sanitize and not sanitizer:
        return usage("--sanitize: compute-sanitizer not found (PATH, /usr/local/cuda/bin)")
    grades, reference_failures = [], []
    log = sys.stderr if a.format != "human" else sys.stdout
    for student, folder in students:
        runner = CMakeRunner(a.build_dir, student, folder, sanitizer)
        print(f"grade: {student}: building {len(specs)} exercise(s) and their solutions ...",
              file=sys.stderr, flush=True)
        runner.prebuild("solution", specs)
        runner.prebuild("student", specs)
        for spec in specs:
            print(f"grade: {student} / {spec.name} ...", file=sys.stderr, flush=True)
            error = runner.build("solution", spec)
            if error:
                reference_failures.append(f"{spec.name}: the solution does not build: {error}")
                continue
            try:
                grades.append(grade_exercise(spec, student, runner, a.sanitize, a.seed))
            except ReferenceFailed as e:
                reference_failures.append(str(e))
    out = io.StringIO()
    {"human": report_human, "csv": report_csv, "json": report_json}[a.format](grades, out)
    sys.stdout.write(out.getvalue())
    if a.submissions:
        path = a.gradebook or os.path.join(a.build_dir, "gradebook.csv")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        write_gradebook(grades, [s.name for s in specs], path)
        print(f"grade: gradebook written to {path}", file=log)
    for f in reference_failures:
        print(f"grade: NOT GRADED: {f}", file=sys.stderr)
    return 1 if reference_failures else 0


if __name__ == "__main__":
    sys.exit(main())
