#!/usr/bin/env python3
"""grade.py: grades students' exercises against the solutions, on hidden sizes, in one run.

    bash common/tools/grade.sh [--exercises DIR | --submissions DIR] [--name NAME] [--only NAME]
                               [--seed S] [--sanitize] [--format human|csv|json] [--build-dir DIR]
                               [--jobs J] [--memory-limit-gb G] [--timeout S]

A student's work is a copy of exercises/; only each <NN_name>/<name>.cuh is taken from it. The
student's name is the submission's folder (for --exercises ~/alice/exercises: "alice"), or --name.

How a student's exercise is judged
  1. Build, isolated. The one file is copied alone into a folder of its own, and compiled with the
     programs of a scratch copy of the handout (no solutions/, no grading.json), so it can neither
     shadow a project header nor include an answer. Before compiling, its includes are listed
     (nvcc -M): a file from outside the handout and the CUDA toolkit scores 0, and so does a library
     the exercise's README does not allow (CUB, Thrust, cuBLAS: headers in that list, symbols or a
     link in the program). The file is a translation unit of its own (<name>_entry.cu, which the
     program calls through <name>_entry.hpp): a definition there of a function of the harness, or
     of a global symbol outside the exercise's namespace, scores 0. A compile error scores 0 with
     its first lines.
  2. Correctness, decided by the grader. Each hidden case runs with a nonce drawn for it in this
     session (the solution's run of it is shared by every student) and a file descriptor of the
     grader's (BOOK_GRADER_NONCE, BOOK_GRADER_FD; common/grader_channel.hpp):
     the program writes the digests of its outputs there (computed in a translation unit the
     student's file is not part of). The solution, built in the repository's own tree, runs the
     same case with the same nonce; a case passes only when every record matches the solution's
     (digests equal, or values within the tolerance of the solution process's CPU reference) and
     the program exits 0. An exit code or printed lines alone never pass. A case the solution
     itself refuses for want of memory on this machine (a GPU of 16 GB and a case past 2^31
     elements) is run by no one, and every report of the exercise says so.
  3. Speed, when every case passed: the times come over the same channel from TIMING_ROUNDS runs
     of the timing case (each repetition on a perturbed input, each repetition's output compared
     with the solution's), against the solution's median: full points within speed_full x the
     solution's time, none from speed_zero x, linear between. One run decides when its ratio is
     clearly inside full or no points (within CLEAR_MARGIN x speed_full, or past speed_zero /
     CLEAR_MARGIN), where a few percent of noise cannot move the points. A time below the
     physical floor (the bytes that must move over the solution process's fastest yardstick, times
     FLOOR_SLACK) is impossible: no speed points, and the grade is flagged. (A program that
     attacks the harness inside its own process, its memory or its descriptors, can still
     misreport its time down to that floor; its outputs must still be right.)
  4. With --sanitize, the sanitize case under compute-sanitizer memcheck: a report costs
     SANITIZER_PENALTY points.

Every run of a student's program: a new session; limits on wall time (the whole process group is
killed at the limit, and every descendant that left the group is killed when the run ends; a
correctness case's limit is the exercise's timeout_s, or LIMIT_OVER_SOLUTION x the solution's run
of it on this machine where that took longer, and the solution's own correctness runs get
SOLUTION_LIMIT_FACTOR x timeout_s: a class slows the large cases for everyone), CPU
time, data size, file size, processes and core dumps; output to files, never to pipes; a clean
environment; a working directory of its own. When the grader runs as root, the program runs under
a uid of its own (no two runs at once share one) and, where mount namespaces are allowed, with the
repository, the build folder and the submissions hidden behind empty mounts; as a normal user, a
user namespace hides them where the kernel allows it. The solutions' programs are copied into a
private folder (mode 0700, files 0500) and their SHA-256 checked after every student's run: a
changed one is restored and the student flagged. grading.json is read once, before any student's
code runs.

Every student, and every exercise of each, is graded at once, each student as soon as their build
is done; their runs share the machine (GpuLock): correctness runs side by side, --parallel at a
time, while the memory they need together fits a share of the host's and a share of the device's
(each case's need is the solution's peaks on it: on the host, and on the device from its channel;
until the solution has run a large case, the exercise's largest solution run so far, scaled by the
elements, stands for them, and with no such run the case runs alone); timing runs one at a time
with the GPU to themselves, after the last build and the correctness runs already asked. The log
says how long each student's exercise took, and how much of it was running and how much waiting
for the GPU, and names every run of LONG_RUN_S or more with its peaks.

Scores: CORRECT_POINTS (70) + SPEED_POINTS (30) per exercise. A grade is "graded", "not graded"
(the solution failed: the reason is given) or "error" (the grader could not run it), never a bare 0.
Exit status: 0 graded, 1 an exercise could not be graded (the report says why), 2 bad usage, 77 no
CUDA device. Run it on a machine of its own or in a container: it runs students' code.
"""
import argparse
import concurrent.futures
import csv
import ctypes
import hashlib
import io
import json
import os
import pwd
import queue
import re
import resource
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

CORRECT_POINTS = 70.0
SPEED_POINTS = 30.0
SPEED_FULL_RATIO = 1.2
SPEED_ZERO_RATIO = 3.0
SANITIZER_PENALTY = 25.0
TIMING_ROUNDS = 3            # timing runs of each side (median of the medians), at most
CLEAR_MARGIN = 0.9           # one round decides when its ratio is this far inside full or no points
TIMING_REPS = "--reps 30 --warmup 3"
FLOOR_SLACK = 0.8            # a time under 0.8 x (bytes / fastest yardstick) is impossible
EXIT_NO_DEVICE = 77
EXIT_BAD_USAGE = 2
EXIT_WRONG = 1
OUTPUT_KEPT = 64 * 1024      # the last bytes of a run's output kept for its report
CHANNEL_KEPT = 16 << 20      # the first bytes of a run's channel kept
TOOL_OUTPUT_KEPT = 8 << 20   # the last bytes of a build's output kept (each target's errors)
KNOWN_LIBRARIES = ("cub", "thrust", "cublas")
LARGE_CASE_ELEMENTS = 2 ** 31  # past it a hidden case runs with the first seed only
SOLUTION_LIMIT_FACTOR = 3    # the solution's correctness runs may take 3 x timeout_s
LIMIT_OVER_SOLUTION = 3      # a student's case may take 3 x the solution's run of it, if longer

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
    libraries: list = field(default_factory=list)   # allowed: a subset of KNOWN_LIBRARIES
    speed_figure: str = ""        # the README's figure a student checks on the program's output


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
                          speed_zero=float(j.get("speed_zero", SPEED_ZERO_RATIO)),
                          libraries=list(j.get("libraries", [])),
                          speed_figure=j.get("speed_figure", "")))
    return specs


def speed_target_text(spec):
    """The README's "speed target" row, which the sync check compares with grading.json."""
    return (f"full speed marks within {spec.speed_full:g}x of the solution's time on "
            f"`{spec.timing}`")


def libraries_text(spec):
    """The README's "libraries" row, which the sync check compares with grading.json."""
    allowed = [l for l in KNOWN_LIBRARIES if l in spec.libraries]
    banned = [l for l in KNOWN_LIBRARIES if l not in spec.libraries]
    names = {"cub": "CUB", "thrust": "Thrust", "cublas": "cuBLAS"}
    text = ("allowed: " + ", ".join(names[l] for l in allowed)) if allowed else "none allowed"
    if banned:
        text += "; " + ", ".join(names[l] for l in banned) + " score 0"
    return text


def case_elements(args):
    """The element count a case's arguments ask for (--n, or --rows x --cols), or 0."""
    def value(flag):
        m = re.search(r"--" + flag + r"[ =](\S+)", args)
        if not m:
            return None
        try:
            return eval_int(m.group(1))
        except ValueError:
            return None
    n = value("n")
    if n is not None:
        return n
    rows, cols = value("rows"), value("cols")
    if rows is None and cols is None:
        return 0
    return (rows if rows is not None else cols) * (cols if cols is not None else rows)


def eval_int(text):
    """The programs' integer expressions: + - * ^ over decimal integers (^ binds tightest)."""
    if not re.fullmatch(r"[0-9+\-*^]+", text):
        raise ValueError(text)

    def product(term):
        value = 1
        for factor in term.split("*"):
            base, *exps = factor.split("^")
            v = int(base)
            for e in exps:
                v = v ** int(e)
            value *= v
        return value
    total, sign = 0, 1
    for token in re.split(r"([+\-])", text):
        if token in "+-" and token:
            sign = 1 if token == "+" else -1
        elif token:
            total += sign * product(token)
    return total


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
    output: str = ""              # stdout + stderr (the last OUTPUT_KEPT bytes)
    timed_out: bool = False
    seconds: float = 0.0
    records: list = field(default_factory=list)   # the channel's records with this run's nonce
    flag: str = None              # a cheat the runner saw (a changed reference program, ...)
    peak_bytes: int = 0           # the program's peak resident memory (0: not known)


def describe_failure(r, timeout_s):
    """Why a run that did not pass failed, from its exit, in a few words and its telling lines."""
    if r.timed_out:
        return f"time-out after {timeout_s:g} s"
    lines = [l.strip() for l in r.output.splitlines() if l.strip()]
    telling = [l for l in lines if re.search(r"not implemented|mismatch|got|want|error|FAILED", l,
                                             re.IGNORECASE)]
    detail = "; ".join((telling or lines)[-3:])[:300]
    if r.rc == 0:
        return None
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


def parse_records(text, nonce):
    """The channel's JSON lines that carry this nonce (anything else is ignored)."""
    records = []
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if isinstance(r, dict) and r.get("nonce") == nonce and isinstance(r.get("kind"), str):
            records.append(r)
    return records


def _number(v):
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise ValueError(v)


def _values_match(mine, ref):
    tolerance = _number(ref.get("tolerance", 0))
    want = ref.get("reference") if tolerance > 0 and ref.get("reference") else ref.get("values")
    got = mine.get("values")
    if not isinstance(got, list) or not isinstance(want, list) or len(got) != len(want):
        return False
    for g, w in zip(got, want):
        try:
            g, w = _number(g), _number(w)
        except ValueError:
            return False
        if g != g or w != w:           # NaN only matches NaN
            if not (g != g and w != w):
                return False
        elif tolerance > 0:
            if not abs(g - w) <= tolerance:
                return False
        elif g != w:
            return False
    return True


def compare_records(mine, ref):
    """None when the student's records hold every result of the solution's, equal (digests,
    exact values) or within tolerance of the solution process's reference; else why not."""
    if not ref:
        return "the solution wrote no records"
    if not mine:
        return "no result on the grader's channel"
    by_key = {}
    for r in mine:
        by_key.setdefault((r["kind"], r.get("what")), []).append(r)
    problems = []
    for r in ref:
        if r["kind"] not in ("output", "values", "reps"):
            continue
        key = (r["kind"], r.get("what"))
        found = by_key.get(key, [])
        if not found:
            problems.append(f"{r.get('what') or r['kind']}: no record")
            continue
        if len({json.dumps(f, sort_keys=True) for f in found}) > 1:
            problems.append(f"{r.get('what') or r['kind']}: conflicting records")
            continue
        got = found[0]
        if r["kind"] == "output" and got.get("digest") != r.get("digest"):
            problems.append(f"{r['what']}: output differs from the solution's")
        elif r["kind"] == "values" and not _values_match(got, r):
            problems.append(f"{r['what']}: {got.get('values')} where the reference is "
                            f"{r.get('reference') or r.get('values')}")
        elif r["kind"] == "reps" and got.get("digests") != r.get("digests"):
            digests, want = got.get("digests") or [], r.get("digests") or []
            bad = [i for i, (a, b) in enumerate(zip(digests, want)) if a != b]
            problems.append("timed repetitions: " + (
                f"{len(bad)} of {len(want)} outputs differ from the solution's (first: "
                f"repetition {bad[0]})" if bad else f"{len(digests)} outputs, want {len(want)}"))
    return "; ".join(problems[:3]) if problems else None


# What a program prints when it refuses a size this machine cannot hold (common/program.cu, exit
# EXIT_BAD_USAGE; common/tools/expect_exit.sh skips a test on the same words).
TOO_SMALL = re.compile(r"of device memory; .* free, so|out of host memory")


def device_peak_bytes(r):
    """The most device memory the run says it held (its channel's "memory" record; 0: none)."""
    for rec in r.records:
        if rec["kind"] == "memory":
            try:
                return max(0, int(rec.get("device_peak_bytes", 0)))
            except (TypeError, ValueError):
                return 0
    return 0


def machine_too_small(r):
    """Did this run (the solution's) refuse its case for want of device or host memory?"""
    return r.rc == EXIT_BAD_USAGE and not r.timed_out and bool(TOO_SMALL.search(r.output))


def solution_limit_s(spec):
    """The wall limit of the solution's correctness runs. They share the machine with a class's
    runs, which can make a large case several times slower than alone, and a solution stopped at
    the limit would leave the exercise ungraded for everyone: it gets SOLUTION_LIMIT_FACTOR x the
    exercise's timeout_s."""
    return SOLUTION_LIMIT_FACTOR * spec.timeout_s


def case_limit_s(spec, ref):
    """A student's wall limit on a correctness case: the exercise's timeout_s, or
    LIMIT_OVER_SOLUTION x the solution's run of the same case where that took longer (the
    solution's time on this machine, under this class's load, says how long an honest run may
    take)."""
    return max(spec.timeout_s, LIMIT_OVER_SOLUTION * ref.seconds)


def judge(r, ref, timeout_s):
    """None when a student's run passed against the solution's run of the same case and nonce."""
    if r.flag:
        return r.flag
    if r.timed_out:
        return f"time-out after {timeout_s:g} s"
    mismatch = compare_records(r.records, ref.records)
    if r.rc != 0:
        return describe_failure(r, timeout_s)
    if mismatch:
        return "wrong result: " + mismatch
    return None


def time_record(r):
    """The run's one "time" record as numbers; None if it has none, or more than one (the program
    writes exactly one per timing run: a second is a forged time)."""
    found = [rec for rec in r.records if rec["kind"] == "time"]
    if len(found) != 1:
        return None
    try:
        return {k: _number(found[0][k]) for k in ("median_ms", "bytes", "copy_gbps",
                                                   "read_gbps")}
    except (KeyError, ValueError):
        return None


def floor_ms(ref_time):
    """The least time the bytes that must move can take at the solution process's fastest
    yardstick, times FLOOR_SLACK; None where the row moves no bytes (twin_primes)."""
    fastest = max(ref_time["copy_gbps"], ref_time["read_gbps"])
    if ref_time["bytes"] <= 0 or fastest <= 0:
        return None
    return FLOOR_SLACK * ref_time["bytes"] / (fastest * 1e9) * 1e3


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
    flags: list = field(default_factory=list)   # cheats seen: each scores the exercise 0
    status: str = "graded"        # "graded", "not graded" or "error"
    reason: str = ""              # why not graded / the error

    @property
    def total(self):
        if self.flags or self.status != "graded":
            return 0.0
        return max(0.0, self.correct + self.speed - self.penalty)


class ReferenceFailed(Exception):
    pass


def grade_exercise(spec, student, runner, sanitize=False, seed=None):
    """Grades one exercise of one student. runner: build(side, spec) -> None or an error text (a
    text starting "FLAGGED" is a cheat); run(side, spec, args, timeout_s, nonce) -> RunResult;
    sanitize(side, spec, args, timeout_s) -> RunResult; nonce(key) -> this session's nonce for
    key. The solution's runs may be cached by the runner."""
    g = Grade(student=student, exercise=spec.name)
    seeds = [seed] if seed is not None else spec.seeds
    # A case past 2^31 elements takes tens of seconds and tens of GB: it runs with one seed.
    cases = [(c, s) for c in spec.cases
             for s in (seeds if case_elements(c) <= LARGE_CASE_ELEMENTS else seeds[:1])]
    g.cases_total = len(cases)
    error = runner.build("student", spec)
    if error:
        (g.flags if error.startswith("FLAGGED") else g.notes).append(error)
        return g
    failures, stopped, skipped, too_large = [], None, 0, []
    for index, (args, s) in enumerate(cases):
        line = f"{args} --seed {s} --reps 1 --warmup 0"
        nonce = runner.nonce(("case", spec.name, line))
        ref = runner.run("solution", spec, line, solution_limit_s(spec), nonce)
        if machine_too_small(ref):
            # The solution itself cannot run the case here (a GPU of 16 GB and a case past 2^31
            # elements): nobody is graded on it, and the report says so.
            too_large.append(f"{args} --seed {s}")
            continue
        if ref.rc != 0 or ref.timed_out or not ref.records:
            why = describe_failure(ref, solution_limit_s(spec)) or "no records"
            raise ReferenceFailed(f"{spec.name}: the solution failed on {line}: {why}")
        limit_s = case_limit_s(spec, ref)
        r = runner.run("student", spec, line, limit_s, nonce)
        if r.flag:
            g.flags.append(r.flag)
            return g
        why = judge(r, ref, limit_s)
        if why is None:
            g.cases_passed += 1
            continue
        failures.append(f"{args} --seed {s}: {why}")
        if r.timed_out or "not implemented" in why:
            # A program that hung once would make every case wait out its limit, and an
            # unfinished skeleton fails them all: stop here.
            stopped = failures[-1]
            skipped = len(cases) - index - 1
            break
    if too_large:
        g.cases_total -= len(too_large)
        g.notes.append(f"not run here, for everyone: {', '.join(too_large)} (the solution's run "
                       "says this machine has too little memory for it)")
        if g.cases_total == 0:
            g.status, g.reason = "not graded", g.notes[-1]
            return g
    g.correct = round(CORRECT_POINTS * g.cases_passed / max(1, g.cases_total), 1)
    shown = failures[:3] + ([stopped] if stopped and stopped not in failures[:3] else [])
    g.notes += shown
    if len(failures) > len(shown):
        g.notes.append(f"... and {len(failures) - len(shown)} more failed cases")
    if skipped:
        g.notes.append(f"{skipped} remaining case(s) not run after that")
    if failures:
        g.notes.append("speed not graded: not every case passed")
    else:
        grade_speed(g, spec, runner, seeds[0])
    if sanitize and not g.flags:
        r = runner.sanitize("student", spec, f"{spec.sanitize} --seed {seeds[0]} --reps 1 "
                            "--warmup 0", spec.timeout_s * 4)
        if r.flag:
            g.flags.append(r.flag)
            return g
        m = re.search(r"ERROR SUMMARY: (\d+) error", r.output)
        errors = int(m.group(1)) if m else 0
        if r.timed_out or errors > 0 or (r.rc != 0 and r.rc != EXIT_WRONG):
            g.penalty = SANITIZER_PENALTY
            why = (f"{errors} error(s)" if errors else describe_failure(r, spec.timeout_s * 4))
            g.notes.append(f"memcheck on {spec.sanitize}: {why}")
    return g


def grade_speed(g, spec, runner, timing_seed):
    line = f"{spec.timing} --seed {timing_seed} {TIMING_REPS}"
    student_ms, solution_ms, floors = [], [], []
    for round_index in range(TIMING_ROUNDS):
        nonce = runner.nonce(("timing", spec.name, line, round_index))
        ref = runner.run("solution", spec, line, spec.timeout_s, nonce)
        ref_time = time_record(ref)
        if ref.rc != 0 or ref_time is None:
            raise ReferenceFailed(f"{spec.name}: the solution's timing run failed: "
                                  f"{describe_failure(ref, spec.timeout_s) or 'no time record'}")
        r = runner.run("student", spec, line, spec.timeout_s, nonce)
        if r.flag:
            g.flags.append(r.flag)
            return
        why = judge(r, ref, spec.timeout_s)
        mine = time_record(r)
        if sum(1 for rec in r.records if rec["kind"] == "time") > 1:
            g.flags.append("FLAGGED: more than one time on the grader's channel (a forged time)")
            return
        if why or mine is None:
            g.notes.append(f"timing run ({spec.timing}): {why or 'no time on the channel'}; "
                           "no speed points")
            return
        student_ms.append(mine["median_ms"])
        solution_ms.append(ref_time["median_ms"])
        floors.append(floor_ms(ref_time))
        # More rounds only where a few percent of noise could move the points: a ratio well
        # inside full points (or well past none) stays there from run to run.
        ratio = student_ms[0] / solution_ms[0] if solution_ms[0] > 0 else 1.0
        if round_index == 0 and (ratio <= spec.speed_full * CLEAR_MARGIN or
                                 ratio >= spec.speed_zero / CLEAR_MARGIN):
            break
    s_ms, r_ms = statistics.median(student_ms), statistics.median(solution_ms)
    floor = min((f for f in floors if f is not None), default=None)
    if floor is not None and min(student_ms) < floor:
        g.flags.append(f"FLAGGED: time {min(student_ms):.4g} ms is below the physical floor "
                       f"{floor:.4g} ms ({FLOOR_SLACK:g} x the bytes that must move over the "
                       "fastest yardstick): impossible, so no speed points")
        return
    g.ratio = s_ms / r_ms if r_ms > 0 else 1.0
    g.speed = round(speed_points(g.ratio, spec.speed_full, spec.speed_zero), 1)
    g.notes.append(f"time {s_ms:.4g} ms vs solution {r_ms:.4g} ms ({g.ratio:.2f}x)")


# ---------------------------------------------------------------- running a program, contained

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18
PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")


@dataclass
class Limits:
    wall_s: float
    cpu_s: int = 0                # 0: wall_s x cores + 10
    data_bytes: int = 0           # RLIMIT_DATA; 0: none
    file_bytes: int = 1 << 30     # RLIMIT_FSIZE
    processes: int = 0            # RLIMIT_NPROC; 0: what the user runs now + 4096


RUN_UID_BASE = 1_900_000_000   # students' programs run as uids from here (no account needed)


class Sandbox:
    """How students' programs run: as root, each run at once under a uid of its own (so that no
    two students' programs can signal or read each other), with the group nogroup; paths hidden
    behind empty mounts in a mount namespace of their own (when the kernel allows it)."""

    def __init__(self, hide, isolate=True, slots=1):
        paths = sorted({os.path.realpath(p) for p in hide if p and os.path.isdir(p)})
        # A path under another one is hidden with it (and could not be mounted on once hidden).
        self.hide = [p for p in paths
                     if not any(p != q and p.startswith(q.rstrip("/") + "/") for q in paths)]
        self.root = os.geteuid() == 0
        self.user = None       # (first uid, gid) when runs change user
        self.free_uids = queue.Queue()
        if isolate and self.root:
            try:
                gid = pwd.getpwnam("nobody").pw_gid
            except KeyError:
                gid = 65534
            self.user = (RUN_UID_BASE, gid)
            for slot in range(max(1, slots)):
                self.free_uids.put(RUN_UID_BASE + slot)
        self.namespaces = isolate and bool(self.hide)
        if self.namespaces and not self._works():
            self.namespaces = False

    def describe(self):
        who = (f"under uids of their own from {RUN_UID_BASE}" if self.user else "as this user")
        where = ("with " + ", ".join(self.hide) + " hidden") if self.namespaces else \
            "with nothing hidden (no mount namespace here)"
        return f"students' programs run {who}, {where}"

    def _works(self):
        try:
            r = subprocess.run(["/bin/true"], preexec_fn=self._enter_namespaces,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
            return r.returncode == 0
        except (OSError, subprocess.SubprocessError):
            return False

    def _enter_namespaces(self):
        uid, gid = os.getuid(), os.getgid()
        if self.root:
            _check(_libc.unshare(CLONE_NEWNS), "unshare")
        else:
            _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
            with open("/proc/self/setgroups", "w") as f:
                f.write("deny")
            with open("/proc/self/uid_map", "w") as f:
                f.write(f"{uid} {uid} 1")
            with open("/proc/self/gid_map", "w") as f:
                f.write(f"{gid} {gid} 1")
        _check(_libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount private")
        for path in self.hide:
            _check(_libc.mount(b"tmpfs", path.encode(), b"tmpfs",
                               MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=4k,mode=000"),
                   f"hide {path}")
        if not self.root:
            # A second user namespace locks those mounts: the program cannot unmount them.
            _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare (lock)")
            with open("/proc/self/uid_map", "w") as f:
                f.write(f"{uid} {uid} 1")

    def take_uid(self):
        """A uid no other run holds now (None when runs keep the grader's user)."""
        return self.free_uids.get() if self.user else None

    def give_uid(self, uid):
        if uid is not None:
            self.free_uids.put(uid)

    def preexec(self, limits, cwd, uid=None):
        cores = os.cpu_count() or 1
        cpu = limits.cpu_s or int(limits.wall_s * cores + 10)
        processes = limits.processes or (_tasks_of(uid if uid is not None else os.getuid())
                                         + 4096)

        def setup():
            if self.namespaces:
                self._enter_namespaces()
            if uid is not None:
                os.setgroups([])
                os.setgid(self.user[1])
                os.setuid(uid)
            _set_limit(resource.RLIMIT_CPU, cpu, cpu + 5)
            _set_limit(resource.RLIMIT_FSIZE, limits.file_bytes)
            _set_limit(resource.RLIMIT_NPROC, processes)
            _set_limit(resource.RLIMIT_CORE, 0)
            if limits.data_bytes:
                _set_limit(resource.RLIMIT_DATA, limits.data_bytes)
            os.chdir(cwd)
        return setup


def _set_limit(which, soft, hard=None):
    """setrlimit, never above the hard limit the grader itself runs under (a normal user cannot
    raise it)."""
    hard = soft if hard is None else hard
    ceiling = resource.getrlimit(which)[1]
    if ceiling != resource.RLIM_INFINITY:
        soft, hard = min(soft, ceiling), min(hard, ceiling)
    resource.setrlimit(which, (soft, hard))


def _tasks_of(uid):
    """Threads and processes the user runs now (RLIMIT_NPROC counts them all)."""
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                pass
    return count


def _become_subreaper():
    """Orphaned descendants (a setsid grandchild) become our children, so we can end them."""
    try:
        _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (AttributeError, OSError):
        pass


_children_lock = threading.Lock()
_children = set()   # the programs run_contained() started and has not reaped yet


def _end_strays():
    """SIGKILLs and reaps every child of ours that run_contained() did not start itself: what a
    student's run left behind (an orphan becomes our child: we are a subreaper). The grader's own
    tools (cmake and nvcc through run_process, nm through run_tool) are among _children while they
    run, so builds go on beside students' runs."""
    me = os.getpid()
    for _ in range(20):
        # Found and killed under the lock that every start of a child of ours holds until it is in
        # _children: a program another thread is starting now is never taken for a stray.
        with _children_lock:
            strays = [pid for pid in _children_of(me) if pid not in _children]
            for pid in strays:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        if not strays:
            return
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        time.sleep(0.05)


def _children_of(parent):
    """The pids whose parent is `parent` now (from /proc)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                found.append(int(pid))
        except (OSError, IndexError, ValueError):
            pass
    return found


class ChannelReader:
    """Drains the channel's pipe on a thread of its own (a program never blocks on a full pipe);
    keeps the first CHANNEL_KEPT bytes."""

    def __init__(self, fd):
        self.fd = fd
        self.data = bytearray()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self):
        try:
            while True:
                block = os.read(self.fd, 1 << 16)
                if not block:
                    break
                if len(self.data) < CHANNEL_KEPT:
                    self.data += block[:CHANNEL_KEPT - len(self.data)]
        finally:
            os.close(self.fd)

    def text(self):
        # Every writer is gone (the group and any stray were killed), so the pipe is at its end;
        # a writer out of reach (none should be) costs at most the wait.
        self.thread.join(timeout=10)
        return bytes(self.data).decode("utf-8", "replace")


def run_contained(cmd, limits, sandbox=None, cwd=None, channel=None, program=None,
                  trusted_env=False, keep=OUTPUT_KEPT):
    """Runs cmd with limits and, with a sandbox, contained (see Sandbox): stdout and stderr go to
    a file, never a pipe; at the end the process group is killed, and after a sandboxed run every
    stray descendant too. channel: a nonce; the run gets a fresh channel descriptor and the nonce
    (BOOK_GRADER_FD, BOOK_GRADER_NONCE) and its records come back. program: a path in cmd that is
    copied into the run's own folder first (a sandboxed program cannot see the build folder).
    trusted_env: the grader's environment (for its tools), else a clean one. keep: the bytes of
    output kept (the last ones). Returns RunResult."""
    # The channel is a pipe whose read end only the grader holds.
    work = tempfile.mkdtemp(prefix="grade-run-")
    uid = sandbox.take_uid() if sandbox else None
    try:
        run_dir = os.path.join(work, "run")
        os.mkdir(run_dir)
        if uid is not None:
            os.chmod(work, 0o711)
            os.chown(run_dir, uid, sandbox.user[1])
        if program:
            copy = os.path.join(run_dir, "program")
            shutil.copyfile(program, copy)
            os.chmod(copy, 0o755)
            cmd = [copy if c == program else c for c in cmd]
        out_path = os.path.join(work, "output")
        if trusted_env:
            env = dict(os.environ)
        else:
            env = {"PATH": "/usr/bin:/bin", "HOME": run_dir, "TMPDIR": run_dir, "LANG": "C"}
            for name in ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "NVIDIA_VISIBLE_DEVICES"):
                if name in os.environ:
                    env[name] = os.environ[name]
        nonce = None
        with open(out_path, "wb") as out:
            pass_fds, reader = (), None
            if channel:
                # A pipe, not a file: what arrived can be neither rewound nor rewritten.
                nonce = channel
                read_end, write_end = os.pipe()
                reader = ChannelReader(read_end)
                env["BOOK_GRADER_FD"] = str(write_end)
                env["BOOK_GRADER_NONCE"] = nonce
                pass_fds = (write_end,)
            preexec = sandbox.preexec(limits, run_dir, uid) if sandbox else None
            start = time.monotonic()
            try:
                with _children_lock:
                    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=out, env=env, cwd=cwd or run_dir,
                                            start_new_session=True, pass_fds=pass_fds,
                                            preexec_fn=preexec)
                    _children.add(proc.pid)
            finally:
                if channel:
                    os.close(write_end)
            usage = _wait_with_usage(proc, limits.wall_s)
            timed_out = usage is None
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the group: whatever it left behind
            except OSError:
                pass
            if usage is None:
                usage = _wait_with_usage(proc, None)
            with _children_lock:
                _children.discard(proc.pid)
            seconds = time.monotonic() - start
            if sandbox:
                _end_strays()
            text = reader.text() if reader else ""
        with open(out_path, "rb") as f:
            f.seek(max(0, os.path.getsize(out_path) - keep))
            output = f.read().decode("utf-8", "replace")
        rc = -signal.SIGKILL if timed_out else proc.returncode
        return RunResult(rc, output, timed_out, seconds,
                         parse_records(text, nonce) if channel else [],
                         peak_bytes=usage.ru_maxrss * 1024)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if sandbox:
            sandbox.give_uid(uid)


def _wait_with_usage(proc, timeout_s):
    """Waits for proc (at most timeout_s seconds; None: as long as it takes) and reaps it with
    wait4, so that its resource usage comes back (ru_maxrss: its peak resident memory, in KiB).
    Returns the usage, or None when the time ran out; sets proc.returncode."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    pause = 0.002
    while True:
        pid, status, usage = os.wait4(proc.pid, 0 if deadline is None else os.WNOHANG)
        if pid == proc.pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage
        if time.monotonic() >= deadline:
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def run_tool(cmd, stdout, timeout_s=300):
    """A short trusted tool (nm) whose output goes to a file; raises CalledProcessError when it
    fails. It is one of _children while it runs, so that _end_strays() after a student's run on
    another thread leaves it alone."""
    with _children_lock:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=stdout,
                                stderr=subprocess.DEVNULL)
        _children.add(proc.pid)
    try:
        try:
            rc = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
    finally:
        with _children_lock:
            _children.discard(proc.pid)
    if rc != 0:
        raise subprocess.CalledProcessError(rc, cmd)


def run_process(cmd, timeout_s, cwd=None):
    """A trusted tool (cmake, nvcc): the grader's environment, its own session, output to a file
    (the last TOOL_OUTPUT_KEPT bytes come back), the group killed at the limit."""
    return run_contained(cmd, Limits(wall_s=timeout_s), cwd=cwd or REPO, trusted_env=True,
                         keep=TOOL_OUTPUT_KEPT)


# ---------------------------------------------------------------- the isolated build

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


def handout_files(source_dir):
    """What a student's handout holds (make_handout.py's list): the scratch tree's files."""
    import make_handout  # noqa: E402  (beside this file, on the path of grade.py and its importers)
    return [f for f in make_handout.list_files(source_dir) if make_handout.shipped(f)]


def make_scratch_tree(source_dir, dest):
    """A copy of the handout (no solutions/, no grading.json) at dest; returns dest."""
    shutil.rmtree(dest, ignore_errors=True)
    for f in handout_files(source_dir):
        target = os.path.join(dest, f)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(source_dir, f), target)
    return dest


def toolkit_root():
    nvcc = find_tool("nvcc")
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else None


LIBRARY_HEADERS = {"cub": re.compile(r"/cub/"), "thrust": re.compile(r"/thrust/"),
                   "cublas": re.compile(r"/cublas[^/]*\.h")}
LIBRARY_SYMBOLS = {"cub": re.compile(r"\bcub::"), "thrust": re.compile(r"\bthrust::"),
                   "cublas": re.compile(r"\bcublas[A-Z_]")}


def dependency_problems(deps, allowed_roots, spec):
    """Cheats in the list of files the student's header pulls in: a file outside the allowed
    roots (the scratch handout, its own folder, the toolkit, the system's headers), or a library
    the exercise does not allow. Returns a list of "FLAGGED: ..." texts."""
    flags = []
    roots = {os.path.realpath(r) for r in allowed_roots} | set(allowed_roots)
    for dep in deps:
        real = os.path.realpath(dep)
        if not any(real == r or real.startswith(r.rstrip("/") + "/") for r in roots):
            flags.append(f"FLAGGED: includes a file from outside the handout: {dep}")
    for lib, pattern in LIBRARY_HEADERS.items():
        if lib not in spec.libraries:
            hits = [d for d in deps if pattern.search(d)]
            if hits:
                flags.append(f"FLAGGED: uses {lib}, which this exercise does not allow "
                             f"(includes {os.path.basename(hits[0])})")
    return flags


def defined_symbols(path):
    """[(type letter, demangled name)] of the symbols an object or archive defines."""
    with tempfile.TemporaryFile() as listing:
        run_tool(["nm", "-C", "--defined-only", path], listing)
        listing.seek(0)
        text = listing.read().decode("utf-8", "replace")
    symbols = []
    for line in text.splitlines():
        m = re.match(r"^[0-9a-fA-F]*\s+([A-Za-z])\s+(.+)$", line)
        if m:
            symbols.append((m.group(1), m.group(2)))
    return symbols


# What a compiler adds to any CUDA translation unit: kernels' host stubs, the personality routine.
GLUE_SYMBOLS = ("__device_stub__", "DW.ref.")


def symbol_problems(entry_object, spec, harness):
    """Cheats in the student's own translation unit (<name>_entry.cu.o): a definition of a
    function of the harness (libcommon, the grader's channel: `harness`, their strong symbols),
    or a global definition outside the exercise's namespace (a CUDA runtime or C library function
    of its own, say cudaEventElapsedTime, would replace the real one in the program)."""
    flags = []
    for kind, name in defined_symbols(entry_object):
        if name in harness:
            flags.append(f"FLAGGED: defines {name}, a function of the grader's harness")
        elif kind in "TDBRG" and not name.startswith(
                (f"{spec.name}::", f"{spec.name}_entry::") + GLUE_SYMBOLS):
            flags.append(f"FLAGGED: defines {name} outside namespace {spec.name}")
        if len(flags) >= 3:
            break
    return flags


def binary_problems(binary, spec, secrets_text=()):
    """Cheats in the built program: a library the exercise does not allow (its symbols, or a link
    or a dlopen name), or text of the instructor's files (grading.json, a solution) inside it."""
    flags = []
    with tempfile.TemporaryFile() as listing:
        try:
            run_tool(["nm", "-C", binary], listing)
        except (OSError, subprocess.SubprocessError) as e:
            return [f"FLAGGED: the program's symbols could not be listed ({e})"]
        listing.seek(0)
        symbols = listing.read().decode("utf-8", "replace")
    with open(binary, "rb") as f:
        data = f.read()
    for lib, pattern in LIBRARY_SYMBOLS.items():
        if lib in spec.libraries:
            continue
        if pattern.search(symbols) or (lib == "cublas" and b"libcublas" in data):
            flags.append(f"FLAGGED: uses {lib}, which this exercise does not allow (found in "
                         "the program)")
    for name, text in secrets_text:
        if text and text.encode() in data:
            flags.append(f"FLAGGED: the program holds text of {name}")
    return flags


def secret_snippets(solutions_dir):
    """(name, distinctive text) of every instructor's file: a line of each grading.json's cases."""
    snippets = []
    for spec in load_specs(solutions_dir):
        with open(os.path.join(solutions_dir, spec.dir, "grading.json")) as f:
            text = f.read()
        m = re.search(r'"cases"\s*:\s*\[[^\]]{20,}', text)
        if m:
            snippets.append((f"solutions/{spec.dir}/grading.json", m.group(0)[:60]))
    return snippets


class StudentBuilder:
    """One CMake build tree of the scratch handout, configured once, in which students' files are
    built one student at a time: each one's <name>.cuh alone in headers/<NN_name>/."""

    def __init__(self, root, scratch_src):
        self.root = root
        self.src = scratch_src
        self.build = os.path.join(root, "build")
        self.headers = os.path.join(root, "headers")
        self.configured = False
        self.harness = None

    def configure(self):
        if self.configured:
            return None
        os.makedirs(self.headers, exist_ok=True)
        r = run_process(["cmake", "-S", self.src, "-B", self.build, "-G", "Ninja",
                         "-DCMAKE_BUILD_TYPE=Release", f"-DEXERCISE_HEADERS_DIR={self.headers}"],
                        900)
        if r.rc != 0:
            return "configure failed:\n    " + first_error_lines(r.output, 12)
        self.configured = True
        return None

    def harness_symbols(self):
        """The strong definitions of the harness every program links (libcommon.a and the
        grader's channel), from this tree's build."""
        if self.harness is None:
            paths = [os.path.join(self.build, "common", "libcommon.a")]
            for top, _, names in os.walk(os.path.join(self.build, "CMakeFiles",
                                                      "exercise_grader_channel.dir")):
                paths += [os.path.join(top, n) for n in names if n.endswith(".o")]
            self.harness = {name for path in paths if os.path.isfile(path)
                            for kind, name in defined_symbols(path) if kind in "TDBRG"}
        return self.harness

    def probe(self, spec):
        """The files the student's header pulls in (nvcc -M on a file that includes it alone)."""
        nvcc = find_tool("nvcc") or "nvcc"
        probe = os.path.join(self.root, f"probe_{spec.name}.cu")
        with open(probe, "w") as f:
            f.write(f"#include <{spec.name}.cuh>\n")
        deps_file = probe + ".d"
        if os.path.exists(deps_file):
            os.remove(deps_file)
        r = run_process([nvcc, "-M", "-MF", deps_file, "-std=c++17", "-x", "cu",
                         "-I", os.path.join(self.headers, spec.dir), "-I", self.src, probe], 300)
        if r.rc != 0 or not os.path.isfile(deps_file):
            return None, "compile error:\n    " + first_error_lines(r.output)
        with open(deps_file) as f:
            text = f.read().replace("\\\n", " ")
        deps = [d for d in text.split(":", 1)[-1].split() if d != probe]
        return deps, None

    def build_student(self, folder, specs, out_dir, secrets_text):
        """Builds every spec's program from folder/<dir>/<name>.cuh; copies each program to
        out_dir/<name>. Returns {name: None (built) or an error or "FLAGGED: ..." text}."""
        outcome = {}
        error = self.configure()
        shutil.rmtree(self.headers, ignore_errors=True)
        os.makedirs(out_dir, exist_ok=True)
        targets = {}
        allowed = [self.src, self.headers, "/usr/include", "/usr/lib/gcc", "/usr/local/include"]
        cuda = toolkit_root()
        if cuda:
            allowed.append(cuda)
            allowed.append(os.path.realpath(cuda))
        for spec in specs:
            if error:
                outcome[spec.name] = error
                continue
            header = os.path.join(folder, spec.dir, spec.name + ".cuh")
            if not os.path.isfile(header):
                outcome[spec.name] = f"missing: {spec.dir}/{spec.name}.cuh"
                continue
            dest = os.path.join(self.headers, spec.dir)
            os.makedirs(dest, exist_ok=True)
            with open(header, "rb") as src, open(os.path.join(dest, spec.name + ".cuh"), "wb") as f:
                f.write(src.read())   # a fresh file: ninja sees a new time stamp
            deps, probe_error = self.probe(spec)
            if probe_error:
                outcome[spec.name] = probe_error
                continue
            flags = dependency_problems(deps, allowed, spec)
            if flags:
                outcome[spec.name] = "; ".join(flags)
                continue
            binary = os.path.join(self.build, "bin", "exercise_" + spec.name)
            if os.path.exists(binary):
                os.remove(binary)   # never grade an earlier build
            targets["exercise_" + spec.name] = spec
        if targets:
            r = run_process(["cmake", "--build", self.build, "--target", *targets, "--", "-k",
                             "0"], 3600)
            for target, spec in targets.items():
                binary = os.path.join(self.build, "bin", target)
                failed = failed_block(r.output, target)
                if failed is not None or not os.path.isfile(binary):
                    outcome[spec.name] = "compile error:\n    " + first_error_lines(
                        failed if failed is not None else r.output)
                    continue
                entry = os.path.join(self.build, "exercises", spec.dir, "CMakeFiles",
                                     target + ".dir", spec.name + "_entry.cu.o")
                try:
                    flags = symbol_problems(entry, spec, self.harness_symbols())
                except (OSError, subprocess.SubprocessError) as e:
                    flags = [f"FLAGGED: the student's object could not be checked ({e})"]
                flags += binary_problems(binary, spec, secrets_text)
                if flags:
                    outcome[spec.name] = "; ".join(flags)
                    continue
                shutil.copy2(binary, os.path.join(out_dir, spec.name))
                os.chmod(os.path.join(out_dir, spec.name), 0o755)
                outcome[spec.name] = None
        return outcome


class References:
    """The solutions' programs, built in the repository's own tree, then copied into a private
    folder (0700, programs 0500) whose SHA-256 sums are checked after every student's run."""

    def __init__(self, build_root, solutions_dir):
        self.build = os.path.join(build_root, "reference")
        self.solutions_dir = solutions_dir
        self.private = tempfile.mkdtemp(prefix="grade-reference-")
        os.chmod(self.private, 0o700)
        self.sums = {}
        self.errors = {}
        self.lock = threading.Lock()   # students' runs check the copies from several threads

    def configure(self):
        r = run_process(["cmake", "-S", REPO, "-B", self.build, "-G", "Ninja",
                         "-DCMAKE_BUILD_TYPE=Release"], 900)
        if r.rc != 0:
            return "configure failed:\n    " + first_error_lines(r.output, 12)
        return None

    def build_tool(self, target):
        """Builds one of the repository's programs (gpu_info); its path, or an error text."""
        error = self.configure()
        if error:
            return None, error
        r = run_process(["cmake", "--build", self.build, "--target", target], 1800)
        if r.rc != 0:
            return None, f"building {target} failed:\n    " + first_error_lines(r.output)
        return os.path.join(self.build, "bin", target), None

    def prepare(self, specs):
        error = self.configure()
        if error:
            return error
        targets = ["solution_" + s.name for s in specs]
        r = run_process(["cmake", "--build", self.build, "--target", *targets, "--", "-k", "0"],
                        3600)
        for spec in specs:
            binary = os.path.join(self.build, "bin", "solution_" + spec.name)
            if failed_block(r.output, "solution_" + spec.name) is not None or \
                    not os.path.isfile(binary):
                self.errors[spec.name] = "the solution does not build:\n    " + \
                    first_error_lines(r.output)
                continue
            self.install(spec.name, binary)
        return None

    def install(self, name, binary):
        path = os.path.join(self.private, name)
        if os.path.exists(path):
            os.chmod(path, 0o700)
        shutil.copyfile(binary, path)
        os.chmod(path, 0o500)
        self.sums[name] = (sha256(path), binary)

    def path(self, name):
        return os.path.join(self.private, name)

    def changed(self):
        """Names of the reference programs that no longer match, the private copies (restored
        from the build) or the build's (deleted, so that the next session builds it again)."""
        with self.lock:
            return self._changed()

    def _changed(self):
        changed = []
        for name, (digest, binary) in list(self.sums.items()):
            path = self.path(name)
            private_same, build_same = same_file(path, digest), same_file(binary, digest)
            if private_same and build_same:
                continue
            changed.append(name)
            if not build_same:
                try:
                    os.remove(binary)
                except OSError:
                    pass
            if not private_same:
                if build_same:
                    self.install(name, binary)
                else:
                    self.errors[name] = "the reference program was changed and its build too"
                    del self.sums[name]
        return changed

    def close(self):
        for root, dirs, files in os.walk(self.private):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o700)
            for f in files:
                os.chmod(os.path.join(root, f), 0o600)
        shutil.rmtree(self.private, ignore_errors=True)


def same_file(path, digest):
    try:
        return os.path.isfile(path) and sha256(path) == digest
    except OSError:
        return False


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def both_memories(x):
    """A memory need or budget as (host bytes, device bytes); a single number stands for both."""
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


class GpuLock:
    """Who has the GPU. Correctness runs share it: at most `slots` at once, admitted in the order
    they asked, while the memory they need together fits the budget on the host and on the device
    (a need and a budget are (host bytes, device bytes), a single number standing for both; need
    None: not known yet, so the run waits until nothing else runs). A timing run has the GPU
    alone, and only once no shared run is running or waiting: in a class, every student's
    correctness cases run first, side by side, and the timing runs after them, one at a time, on a
    quiet machine. (A timing run of one student never waits for another's cases to be *started*,
    only for those already asked.)"""

    def __init__(self, slots=1, budget=0):
        self.cond = threading.Condition()
        self.slots = max(1, slots)
        self.budget = both_memories(budget)   # bytes; 0: no budget on that memory
        self.running = 0
        self.used = (0, 0)
        self.queue = []               # tickets of the shared runs waiting, in order
        self.next_ticket = 0
        self.exclusive_run = False
        self.alone_run = False        # a shared run of unknown need (or past the budget) runs
        self.builds = 0               # students' builds not done: a timing run waits for them too

    def builds_left(self, change):
        with self.cond:
            self.builds += change
            self.cond.notify_all()

    def _alone(self, need):
        return need is None or any(b and n > b for n, b in zip(both_memories(need), self.budget))

    def _fits(self, need):
        if self.running == 0:
            return True
        if self.alone_run or self._alone(need):
            return False
        return self.running < self.slots and all(
            not b or u + n <= b for u, n, b in zip(self.used, both_memories(need), self.budget))

    def hold(self, exclusive, need=0):
        lock = self

        class Holder:
            def __enter__(self):
                start = time.monotonic()
                with lock.cond:
                    if exclusive:
                        lock.cond.wait_for(lambda: not lock.exclusive_run and
                                           lock.running == 0 and not lock.queue and
                                           lock.builds == 0)
                        lock.exclusive_run = True
                    else:
                        ticket = lock.next_ticket
                        lock.next_ticket += 1
                        lock.queue.append(ticket)
                        lock.cond.wait_for(lambda: not lock.exclusive_run and
                                           lock.queue[0] == ticket and lock._fits(need))
                        lock.queue.pop(0)
                        lock.running += 1
                        self.alone = lock._alone(need)
                        lock.alone_run = lock.alone_run or self.alone
                        self.taken = both_memories(need or 0)
                        lock.used = tuple(u + t for u, t in zip(lock.used, self.taken))
                        lock.cond.notify_all()   # the next in the queue may fit as well
                    self.waited = time.monotonic() - start
                return self

            def __exit__(self, *exc):
                with lock.cond:
                    if exclusive:
                        lock.exclusive_run = False
                    else:
                        lock.running -= 1
                        lock.used = tuple(u - t for u, t in zip(lock.used, self.taken))
                        if self.alone:
                            lock.alone_run = False
                    lock.cond.notify_all()
        return Holder()


LARGE_RUN_ELEMENTS = 2 ** 30   # a case this large needs more memory than a guess of 0 ...
SCALED_FROM_ELEMENTS = 2 ** 24 # ... and a solution run of at least this many elements, scaled,
                               # may stand for it until the solution has run it
LONG_RUN_S = 10                # a run this long gets a line in the progress log
MEMORY_SLACK = 1.25            # a student's run may need this much more than the solution's
HOST_MEMORY_SHARE = 0.75       # of the host's memory, what runs side by side may need together
DEVICE_MEMORY_SHARE = 0.9      # of the device's


def scaled_peaks(r, factor):
    """A run's (host, device) peaks times factor and MEMORY_SLACK; the host peak stands for the
    device's where the channel did not report it."""
    device = device_peak_bytes(r) or r.peak_bytes
    return (int(r.peak_bytes * factor * MEMORY_SLACK), int(device * factor * MEMORY_SLACK))


def runs_alone(args):
    """A timing run: the GPU to itself."""
    return "--reps 30" in args


class Session:
    """What every student's Runner shares: the nonces, the solution's runs (each run once), the
    GPU lock."""

    def __init__(self, slots=1, memory_budget=0):
        self.lock = threading.Lock()
        self.nonces = {}
        self.cache = {}
        self.key_locks = {}
        self.gpu = GpuLock(slots, memory_budget)
        self.started = time.monotonic()

    def log(self, line):
        """A line of the progress log, with the seconds since the session began."""
        progress(f"[{time.monotonic() - self.started:.0f} s] {line}")

    def log_long_run(self, who, spec, args, r, waited):
        """A line in the progress log for a run that took LONG_RUN_S or more: where a class's time
        goes."""
        if r.seconds >= LONG_RUN_S:
            self.log(f"{who} / {spec.name}: {args} ran "
                     f"{r.seconds:.0f} s after waiting {waited:.0f} s for the GPU (peak "
                     f"{r.peak_bytes / 1e9:.1f} GB on the host, "
                     f"{device_peak_bytes(r) / 1e9:.1f} GB on the device)")

    def largest_solution_run(self, exercise):
        """The solution's finished run of `exercise` with the most elements (at least
        SCALED_FROM_ELEMENTS) and a known peak, as (RunResult, elements); None if there is none."""
        best = None
        for (name, args, _), r in list(self.cache.items()):
            elements = case_elements(args)
            if (name == exercise and elements >= SCALED_FROM_ELEMENTS and r.peak_bytes and
                    r.rc == 0 and not r.timed_out and (best is None or elements > best[1])):
                best = (r, elements)
        return best

    def nonce(self, key):
        with self.lock:
            if key not in self.nonces:
                self.nonces[key] = secrets.token_hex(8)
            return self.nonces[key]

    def key_lock(self, key):
        with self.lock:
            return self.key_locks.setdefault(key, threading.Lock())


class Runner:
    """Runs the programs: the student's from their build output, the solution's from the private
    copies (once per argument line and nonce for the session)."""

    def __init__(self, references, sandbox, limits_for, sanitizer=None, session=None):
        self.references = references
        self.sandbox = sandbox
        self.limits_for = limits_for
        self.sanitizer = sanitizer
        self.session = session or Session()
        self.student_dir = None
        self.build_outcome = {}
        self.run_s = 0.0      # this student's runs: seconds running, seconds waiting for the GPU
        self.waited_s = 0.0

    def nonce(self, key):
        return self.session.nonce(key)

    def set_student(self, student_dir, build_outcome):
        self.student_dir = student_dir
        self.build_outcome = build_outcome

    def build(self, side, spec):
        if side == "solution":
            return self.references.errors.get(spec.name)
        return self.build_outcome.get(spec.name, "not built")

    def memory_need(self, spec, args, nonce):
        """The (host, device) bytes a run of this case is admitted with: the solution's peaks on
        the same case (with MEMORY_SLACK) once it ran, its host peak and the device peak its
        channel reported (without that record, the host peak stands for both: the book's programs
        hold at least as much on the host, saxpy's aside). Before that, 0 for a small case; for a
        large one, the peaks of the exercise's largest solution run so far (of at least
        SCALED_FROM_ELEMENTS elements) times the ratio of the elements, which overstates the need
        (the programs' memory grows at most in proportion to the elements, and their fixed part
        is scaled too); None (the machine to itself) where no such run is known yet."""
        ref = self.session.cache.get((spec.name, args, nonce))
        if ref is not None and ref.peak_bytes:
            return scaled_peaks(ref, 1.0)
        elements = case_elements(args)
        if elements <= LARGE_RUN_ELEMENTS:
            return 0
        base = self.session.largest_solution_run(spec.name)
        if base is None:
            return None
        run, run_elements = base
        return scaled_peaks(run, max(1.0, elements / run_elements))

    def run(self, side, spec, args, timeout_s, nonce):
        exclusive = runs_alone(args)
        if side == "solution":
            key = (spec.name, args, nonce)
            with self.session.key_lock(key):
                if key not in self.session.cache:
                    if self.references.errors.get(spec.name):
                        raise ReferenceFailed(f"{spec.name}: {self.references.errors[spec.name]}")
                    with self.session.gpu.hold(exclusive,
                                               self.memory_need(spec, args, nonce)) as held:
                        self.session.cache[key] = run_contained(
                            [self.references.path(spec.name)] + args.split(),
                            self.limits_for(timeout_s), None, channel=nonce)
                    self.session.log_long_run("solution", spec, args, self.session.cache[key],
                                              held.waited)
                return self.session.cache[key]
        program = os.path.join(self.student_dir, spec.name)
        with self.session.gpu.hold(exclusive, self.memory_need(spec, args, nonce)) as held:
            r = run_contained([program] + args.split(), self.limits_for(timeout_s), self.sandbox,
                              channel=nonce, program=program)
        self.run_s += r.seconds
        self.waited_s += held.waited
        self.session.log_long_run(os.path.basename(self.student_dir), spec, args, r, held.waited)
        return self._flag_changed_references(r)

    def _flag_changed_references(self, r):
        """r, flagged if the student's run changed a reference program (restored by now)."""
        changed = self.references.changed()
        if changed:
            r.flag = ("FLAGGED: the program changed the grader's reference program(s) "
                      f"{', '.join(changed)} (restored)")
        return r

    def sanitize(self, side, spec, args, timeout_s):
        if not self.sanitizer:
            return RunResult(0, "compute-sanitizer not found: not checked")
        program = os.path.join(self.student_dir, spec.name)
        with self.session.gpu.hold(False):
            r = run_contained([self.sanitizer, "--tool", "memcheck", "--error-exitcode", "99",
                               program] + args.split(), self.limits_for(timeout_s), self.sandbox,
                              program=program)
        return self._flag_changed_references(r)


# ---------------------------------------------------------------- reports

def fmt(x):
    return f"{x:.1f}".rstrip("0").rstrip(".")


def shown_total(g):
    """The total as the reports write it: a number, or the status with its reason."""
    if g.status != "graded":
        return g.status
    return fmt(g.total)


def report_human(grades, out):
    by_student = {}
    for g in grades:
        by_student.setdefault(g.student, []).append(g)
    for student, gs in by_student.items():
        out.write(f"{student}\n")
        out.write(f"  {'exercise':<20} {'cases':>7} {'correct':>8} {'speed':>6} {'penalty':>8} "
                  f"{'total':>6}\n")
        for g in gs:
            if g.status != "graded":
                out.write(f"  {g.exercise:<20} {g.status.upper()}: {g.reason}\n")
                continue
            out.write(f"  {g.exercise:<20} {g.cases_passed:>3}/{g.cases_total:<3} "
                      f"{fmt(g.correct):>8} {fmt(g.speed):>6} "
                      f"{fmt(-g.penalty) if g.penalty else '':>8} {fmt(g.total):>6}"
                      f"{'  FLAGGED' if g.flags else ''}\n")
            for note in g.flags + g.notes:
                out.write(f"      {note}\n")
        graded = [g for g in gs if g.status == "graded"]
        total = sum(g.total for g in graded)
        out.write(f"  {'total':<20} {'':>7} {'':>8} {'':>6} {'':>8} {fmt(total):>6} "
                  f"of {fmt(len(graded) * (CORRECT_POINTS + SPEED_POINTS))}"
                  f"{f' ({len(gs) - len(graded)} not graded)' if len(graded) < len(gs) else ''}\n")


CSV_FIELDS = ["student", "exercise", "status", "cases_passed", "cases_total", "correct", "speed",
              "penalty", "total", "ratio", "flags", "notes"]


def grade_row(g):
    return {"student": g.student, "exercise": g.exercise, "status": g.status,
            "cases_passed": g.cases_passed, "cases_total": g.cases_total, "correct": g.correct,
            "speed": g.speed, "penalty": g.penalty,
            "total": round(g.total, 1) if g.status == "graded" else None,
            "ratio": None if g.ratio is None else round(g.ratio, 3),
            "flags": " | ".join(g.flags),
            "notes": " | ".join(([g.reason] if g.reason else []) + g.notes)}


def report_csv(grades, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for g in grades:
        row = grade_row(g)
        for k in ("correct", "speed", "penalty", "total"):
            row[k] = fmt(row[k]) if row[k] is not None else g.status
        w.writerow(row)


def report_json(grades, out):
    json.dump([grade_row(g) for g in grades], out, indent=1)
    out.write("\n")


def write_gradebook(grades, exercises, path):
    """One row per student: each exercise's total, or "not graded: <why>" / "error: <why>"
    (never a 0 that was not earned), a FLAGGED mark beside a flagged 0, and the sum of the graded
    ones (saying how many were not graded)."""
    students = []
    for g in grades:
        if g.student not in students:
            students.append(g.student)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["student"] + exercises + ["total"])
        for s in students:
            mine = {g.exercise: g for g in grades if g.student == s}
            cells = []
            for e in exercises:
                g = mine.get(e)
                if g is None:
                    cells.append("not graded: not run")
                elif g.status != "graded":
                    cells.append(f"{g.status}: {g.reason}")
                elif g.flags:
                    cells.append(f"0 (FLAGGED: {g.flags[0][len('FLAGGED: '):]})")
                else:
                    cells.append(fmt(g.total))
            graded = [g.total for g in mine.values() if g.status == "graded"]
            missing = len(exercises) - len(graded)
            total = fmt(sum(graded)) if graded else "not graded"
            if graded and missing:
                total += f" ({missing} not graded)"
            w.writerow([s] + cells + [total])


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


def student_name(folder):
    """A submission's name: its folder, or the folder above when that is named exercises/."""
    path = os.path.normpath(os.path.abspath(folder))
    base = os.path.basename(path)
    if base == "exercises":
        base = os.path.basename(os.path.dirname(path)) or base
    return base


def memory_total_bytes():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exercises", default=os.path.join(REPO, "exercises"),
                    help="a student's filled-in copy of exercises/ (default: exercises/)")
    ap.add_argument("--submissions",
                    help="one folder per student, each a copy of exercises/; writes a gradebook")
    ap.add_argument("--name", help="the student's name for --exercises (default: the folder's)")
    ap.add_argument("--gradebook", help="gradebook CSV (default <build-dir>/gradebook.csv)")
    ap.add_argument("--only", action="append", default=[],
                    help="grade this exercise only (name or NN_name; repeatable)")
    ap.add_argument("--seed", type=int, help="one seed instead of the hidden ones")
    ap.add_argument("--sanitize", action="store_true", help="also run compute-sanitizer memcheck")
    ap.add_argument("--format", choices=["human", "csv", "json"], default="human")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "grade"))
    ap.add_argument("--timeout", type=float,
                    help="seconds allowed per run, instead of each exercise's own limit")
    ap.add_argument("--jobs", type=int, default=max(1, min(8, (os.cpu_count() or 2) // 2)),
                    help="students built at the same time (default: half the cores, at most 8)")
    ap.add_argument("--parallel", type=int,
                    default=max(2, min(8, (os.cpu_count() or 2) // 2)),
                    help="correctness runs on the GPU at once, within a memory budget (default: "
                    "half the cores, 2 to 8; timing runs have the GPU alone, after them)")
    ap.add_argument("--memory-limit-gb", type=float, default=None,
                    help="RLIMIT_DATA of every run (default 90%% of the machine's memory; 0: none)")
    ap.add_argument("--no-isolation", action="store_true",
                    help="run students' programs as this user with nothing hidden (for a "
                    "machine that allows neither; the report says so)")
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
    specs = load_specs(a.solutions)   # before any student's code runs
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
    if a.jobs < 1:
        return usage(f"--jobs {a.jobs}: must be at least 1")
    if a.parallel < 1:
        return usage(f"--parallel {a.parallel}: must be at least 1")
    if a.memory_limit_gb is not None and a.memory_limit_gb < 0:
        return usage(f"--memory-limit-gb {a.memory_limit_gb:g}: must be 0 (no limit) or more")
    if a.submissions:
        if not os.path.isdir(a.submissions):
            return usage(f"--submissions {a.submissions}: not a directory")
        if a.name:
            return usage("--name names the one student of --exercises, not --submissions")
        students = [(d, os.path.join(a.submissions, d)) for d in sorted(os.listdir(a.submissions))
                    if os.path.isdir(os.path.join(a.submissions, d))]
        if not students:
            return usage(f"--submissions {a.submissions}: no student folders inside")
    else:
        if not os.path.isdir(a.exercises):
            return usage(f"--exercises {a.exercises}: not a directory")
        students = [(a.name or student_name(a.exercises), a.exercises)]
    memory = a.memory_limit_gb
    data_bytes = int(0.9 * memory_total_bytes()) if memory is None else int(memory * 1e9)
    secrets_text = secret_snippets(a.solutions)
    build_dir = os.path.abspath(a.build_dir)
    # The builds (the solutions' programs among them) are the grader's alone: a student's program
    # running under another uid must not run or read them.
    os.makedirs(build_dir, exist_ok=True)
    os.chmod(build_dir, 0o700)
    _become_subreaper()

    references = References(build_dir, a.solutions)
    try:
        # The device check comes first: without a GPU nothing can be graded.
        gpu_info = a.gpu_info
        if not gpu_info:
            gpu_info, error = references.build_tool("gpu_info")
            if error:
                print(f"grade: {error}", file=sys.stderr)
                return 2
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
        print("grade: building the solutions ...", file=sys.stderr, flush=True)
        error = references.prepare(specs)
        if error:
            print(f"grade: {error}", file=sys.stderr)
            return 2
        grades = grade_students(students, specs, a, build_dir, references, sanitizer,
                                data_bytes, secrets_text,
                                memory_budget_bytes(device_memory_bytes(gpu_info)))
    finally:
        references.close()
    out = io.StringIO()
    {"human": report_human, "csv": report_csv, "json": report_json}[a.format](grades, out)
    sys.stdout.write(out.getvalue())
    log = sys.stderr if a.format != "human" else sys.stdout
    if a.submissions:
        path = a.gradebook or os.path.join(build_dir, "gradebook.csv")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        write_gradebook(grades, [s.name for s in specs], path)
        print(f"grade: gradebook written to {path}", file=log)
    not_graded = [g for g in grades if g.status != "graded"]
    for g in not_graded:
        print(f"grade: {g.status.upper()}: {g.student} / {g.exercise}: {g.reason}",
              file=sys.stderr)
    return 1 if not_graded else 0


_progress_lock = threading.Lock()


def progress(line):
    """One line of the log, whole (students' threads write at once)."""
    with _progress_lock:
        sys.stderr.write(f"grade: {line}\n")
        sys.stderr.flush()


def memory_budget_bytes(device_bytes):
    """What correctness runs may need together (GpuLock), as (host bytes, device bytes): a share
    of the host's memory, and of the device's where gpu_info told it (0: no budget there)."""
    return (int(HOST_MEMORY_SHARE * memory_total_bytes()),
            int(DEVICE_MEMORY_SHARE * device_bytes))


def device_memory_bytes(gpu_info):
    """The device's memory from `gpu_info --metadata` (0 when it does not say)."""
    r = run_process([gpu_info, "--metadata"], 120)
    m = re.search(r"^memory_bytes:\s*(\d+)", r.output, re.MULTILINE) if r.rc == 0 else None
    return int(m.group(1)) if m else 0


def grade_students(students, specs, a, build_dir, references, sanitizer, data_bytes,
                   secrets_text, memory_budget=0):
    hide = [REPO, build_dir, a.solutions, a.submissions or a.exercises, references.private]
    sandbox = Sandbox(hide, isolate=not a.no_isolation, slots=a.parallel)
    progress(sandbox.describe())
    if not sandbox.namespaces and (not sandbox.user or os.stat(a.solutions).st_mode & 0o005):
        progress(f"WARNING: nothing hides {a.solutions} here and students' programs can open it: " +
                 ("chmod -R go-rwx it" if sandbox.user else "grade as root or where user "
                  "namespaces are allowed"))

    def limits_for(timeout_s):
        return Limits(wall_s=timeout_s, data_bytes=data_bytes)

    # Each student's programs are built (a.jobs students at a time, each in a tree of its own),
    # then run at once, while the others still build: their correctness cases share the GPU,
    # a.parallel runs at a time within the memory budget, and the timing runs have it alone after
    # them and after the last build, on a quiet machine (GpuLock).
    progress(f"building {len(students)} student(s) x {len(specs)} exercise(s), and grading each "
             "as soon as it is built ...")
    scratch = make_scratch_tree(REPO, os.path.join(build_dir, "scratch-handout"))
    free = queue.Queue()
    for i in range(min(a.jobs, len(students))):
        free.put(StudentBuilder(os.path.join(build_dir, "workers", str(i)), scratch))
    outcomes = {}
    session = Session(a.parallel, memory_budget)
    session.gpu.builds_left(len(students))

    def build_one(student, folder):
        worker = free.get()
        try:
            out_dir = os.path.join(build_dir, "students", student)
            shutil.rmtree(out_dir, ignore_errors=True)
            outcomes[student] = (out_dir, worker.build_student(folder, specs, out_dir,
                                                               secrets_text))
        finally:
            free.put(worker)
            session.gpu.builds_left(-1)

    def grade_exercise_of(student, spec):
        runner = Runner(references, sandbox, limits_for, sanitizer, session)
        runner.set_student(*outcomes[student])
        session.log(f"{student} / {spec.name} ...")
        begun = time.monotonic()
        error = runner.build("solution", spec)
        if error:
            return Grade(student, spec.name, status="not graded", reason=error)
        try:
            g = grade_exercise(spec, student, runner, a.sanitize, a.seed)
        except ReferenceFailed as e:
            g = Grade(student, spec.name, status="not graded", reason=str(e))
        except OSError as e:
            g = Grade(student, spec.name, status="error", reason=str(e))
        session.log(f"{student} / {spec.name} done in {time.monotonic() - begun:.0f} s (its runs "
                    f"{runner.run_s:.0f} s, waiting for the GPU {runner.waited_s:.0f} s)")
        return g

    def build_and_grade(student, folder):
        build_one(student, folder)
        # The student's exercises at once, too: their runs queue at the GpuLock like the others.
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(specs)) as pool:
            return list(pool.map(lambda spec: grade_exercise_of(student, spec), specs))

    # A thread per student: each waits, mostly (for a build tree, then at the GpuLock).
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(students)) as pool:
        futures = [pool.submit(build_and_grade, student, folder) for student, folder in students]
        grades = [g for f in futures for g in f.result()]
    progress(f"every run done after {time.monotonic() - session.started:.0f} s")
    return grades


if __name__ == "__main__":
    sys.exit(main())
