#!/usr/bin/env python3
"""Host tests of the grader (common/tools/grade.py): judging and scoring on fake runs (the planted
cheats that need no GPU: fake output from a static initializer, a forged or stale channel record,
memoized repetitions, a time below the physical floor, a flagged build or run), reports and the
gradebook, and the command's refusals (no device, unknown exercise, no solutions). No GPU, no
compiler needed; grade_sandbox_test.py runs real processes.

    PYTHONPATH=common/tools python3 common/tools/tests/grade_test.py [GPU_INFO]   (GPU_INFO: a gpu_info program that
                                                           exits 77 here, for the no-device case)
"""
import csv
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

import grade

GPU_INFO = None


def spec(**kw):
    base = dict(dir="01_demo", name="demo", cases=["--n 1", "--n 33", "--n 2^20+3"],
                seeds=[11, 12], timing="--n 2^26", sanitize="--n 500", timeout_s=5)
    base.update(kw)
    return grade.Spec(**base)


def records(args, nonce, ms=1.0, digest=None, copy_gbps=4000.0, nbytes=1e6):
    """What a correct program writes on the channel for one argument line."""
    rs = [{"nonce": nonce, "kind": "output", "what": "out",
           "digest": digest or f"digest of {args.split(' --reps')[0]}"},
          {"nonce": nonce, "kind": "reps", "digests": ["r0"]}]
    if "--reps 30" in args:
        rs.append({"nonce": nonce, "kind": "time", "median_ms": ms, "bytes": nbytes,
                   "copy_gbps": copy_gbps, "read_gbps": copy_gbps})
    return rs


def correct(ms=1.0):
    return lambda args, nonce: grade.RunResult(0, "check ok", records=records(args, nonce, ms))


class FakeRunner:
    """Answers like the real programs would: `student(args, nonce)` and `solution(args, nonce)`
    give a RunResult for one command line; build_error is the student's build outcome."""

    def __init__(self, student, solution=correct(), build_error=None,
                 sanitizer_output="========= ERROR SUMMARY: 0 errors"):
        self.sides = {"student": student, "solution": solution}
        self.build_error = build_error
        self.sanitizer_output = sanitizer_output
        self.calls = []
        self.limits = []      # (side, args, timeout_s) of every run
        self.nonces = {}

    def nonce(self, key):
        return self.nonces.setdefault(key, f"{len(self.nonces):016x}")

    def build(self, side, s):
        return self.build_error if side == "student" else None

    def run(self, side, s, args, timeout_s, nonce):
        self.calls.append((side, args))
        self.limits.append((side, args, timeout_s))
        return self.sides[side](args, nonce)

    def sanitize(self, side, s, args, timeout_s):
        self.calls.append(("sanitize", args))
        return grade.RunResult(0, self.sanitizer_output)


class Scoring(unittest.TestCase):
    def test_speed_scale(self):
        self.assertEqual(grade.speed_points(0.5), 30)
        self.assertEqual(grade.speed_points(1.2), 30)
        self.assertAlmostEqual(grade.speed_points(2.1), 15)
        self.assertEqual(grade.speed_points(3.0), 0)
        self.assertEqual(grade.speed_points(50), 0)

    def test_full_marks(self):
        r = FakeRunner(correct(1.1))
        g = grade.grade_exercise(spec(), "alice", r)
        self.assertEqual((g.cases_passed, g.cases_total), (6, 6))
        self.assertEqual((g.correct, g.speed, g.total), (70, 30, 100))
        # every case with every hidden seed, one repetition; the solution runs each case first
        self.assertIn(("student", "--n 2^20+3 --seed 12 --reps 1 --warmup 0"), r.calls)
        timing = [c[0] for c in r.calls if "--reps 30" in c[1]]
        self.assertEqual(timing, ["solution", "student"] * grade.TIMING_ROUNDS)

    def test_one_timing_round_when_the_ratio_is_clear_three_near_an_edge(self):
        for ms, rounds, points in ((0.5, 1, 30), (1.07, 1, 30), (1.1, 3, 30), (2.1, 3, 15),
                                   (3.3, 3, 0), (3.4, 1, 0)):
            r = FakeRunner(correct(ms))
            g = grade.grade_exercise(spec(), "alice", r)
            timing = [c[0] for c in r.calls if "--reps 30" in c[1]]
            self.assertEqual(timing, ["solution", "student"] * rounds, ms)
            self.assertAlmostEqual(g.speed, points, msg=ms)

    def test_a_case_the_machine_cannot_hold_is_run_by_no_one(self):
        refusal = ("demo: --n 1048579 needs 25.8 GB of device memory; NVIDIA GeForce RTX 4090 has "
                   "23.5 GB free, so n can be at most 943718")

        def solution(args, nonce):
            if args.startswith("--n 2^20+3"):
                return grade.RunResult(2, refusal)
            return correct()(args, nonce)
        r = FakeRunner(correct(), solution=solution)
        g = grade.grade_exercise(spec(), "alice", r)
        self.assertEqual((g.status, g.cases_passed, g.cases_total, g.total), ("graded", 4, 4, 100))
        self.assertNotIn(("student", "--n 2^20+3 --seed 11 --reps 1 --warmup 0"), r.calls)
        self.assertIn("not run here, for everyone: --n 2^20+3 --seed 11, --n 2^20+3 --seed 12",
                      g.notes[0])
        # Any other failure of the solution still stops the grading of the exercise.
        broken = FakeRunner(correct(), solution=lambda args, nonce: grade.RunResult(2, "bad"))
        with self.assertRaises(grade.ReferenceFailed):
            grade.grade_exercise(spec(), "alice", broken)
        # And when no case is left, the exercise is not graded, with the reason.
        none_left = FakeRunner(correct(), solution=lambda args, nonce: grade.RunResult(
            2, "demo: out of host memory"))
        g = grade.grade_exercise(spec(), "alice", none_left)
        self.assertEqual(g.status, "not graded")
        self.assertIn("too little memory", g.reason)

    def test_seed_option_replaces_the_hidden_seeds(self):
        r = FakeRunner(correct())
        g = grade.grade_exercise(spec(), "alice", r, seed=5)
        self.assertEqual(g.cases_total, 3)
        self.assertTrue(all("--seed 5" in c[1] for c in r.calls))

    def test_wrong_answer_costs_its_case_and_the_speed_marks(self):
        def student(args, nonce):
            if "--n 33 " in args:
                return grade.RunResult(1, "demo: 1 mismatch; first: [32] got 0 want 7",
                                       records=records(args, nonce, digest="other"))
            return correct()(args, nonce)
        g = grade.grade_exercise(spec(), "bob", FakeRunner(student))
        self.assertEqual(g.cases_passed, 4)
        self.assertAlmostEqual(g.correct, round(70 * 4 / 6, 1))
        self.assertEqual(g.speed, 0)
        self.assertTrue(any("wrong answer" in n and "got 0 want 7" in n for n in g.notes))
        self.assertIn("speed not graded: not every case passed", g.notes)

    def test_a_wrong_output_fails_even_when_the_program_says_it_passed(self):
        # The in-process check was fooled (a macro, a patched comparison): exit 0, "check ok",
        # but the digest on the channel is not the solution's.
        def student(args, nonce):
            return grade.RunResult(0, "check ok", records=records(args, nonce, digest="forged"))
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(student))
        self.assertEqual((g.cases_passed, g.total), (0, 0))
        self.assertIn("wrong result: out: output differs from the solution's", g.notes[0])

    def test_fake_output_from_a_static_initializer_scores_zero(self):
        # Prints a success line and a result row, exits 0, computes nothing: nothing on the
        # channel, so no case passes.
        fake = '{"step": "demo", "median_ms": 0.001, "ok": true}\ncheck ok: 1 elements checked'
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(
            lambda args, nonce: grade.RunResult(0, fake)))
        self.assertEqual((g.cases_passed, g.total), (0, 0))
        self.assertIn("no result on the grader's channel", g.notes[0])

    def test_records_with_another_nonce_do_not_count(self):
        def student(args, nonce):
            return grade.RunResult(0, "", records=grade.parse_records(
                "\n".join(json.dumps(r) for r in records(args, "f" * 16)), nonce))
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(student))
        self.assertEqual(g.cases_passed, 0)

    def test_conflicting_records_fail(self):
        def student(args, nonce):
            rs = records(args, nonce)
            return grade.RunResult(0, "", records=rs + [dict(rs[0], digest="another")])
        g = grade.grade_exercise(spec(cases=["--n 3"], seeds=[1]), "mallory",
                                 FakeRunner(student))
        self.assertIn("conflicting records", g.notes[0])

    def test_memoized_repetitions_fail(self):
        # Each timed repetition runs on a perturbed input: a remembered output differs.
        def student(args, nonce):
            rs = records(args, nonce)
            rs[1] = dict(rs[1], digests=["stale"])
            return grade.RunResult(0, "", records=rs)
        g = grade.grade_exercise(spec(cases=["--n 3"], seeds=[1]), "mallory",
                                 FakeRunner(student))
        self.assertEqual(g.total, 0)
        self.assertIn("timed repetitions: 1 of 1 outputs differ", g.notes[0])

    def test_time_below_the_physical_floor_is_flagged(self):
        # 1e6 bytes at 4000 GB/s take 0.25 us; a memoized result "takes" 0.01 us.
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(
            lambda args, nonce: grade.RunResult(0, "", records=records(args, nonce, 1e-5)),
            solution=lambda args, nonce: grade.RunResult(0, "", records=records(args, nonce,
                                                                                 2.5e-4))))
        self.assertEqual((g.correct, g.speed, g.total), (70, 0, 0))
        self.assertIn("below the physical floor", g.flags[0])

    def test_a_second_time_record_is_flagged(self):
        def student(args, nonce):
            rs = records(args, nonce)
            if "--reps 30" in args:
                rs.insert(0, dict(rs[-1], median_ms=0.9))
            return grade.RunResult(0, "", records=rs)
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(student))
        self.assertEqual((g.correct, g.total), (70, 0))
        self.assertIn("a forged time", g.flags[0])

    def test_no_floor_where_no_bytes_move(self):
        g = grade.grade_exercise(spec(), "ok", FakeRunner(
            lambda args, nonce: grade.RunResult(0, "", records=records(args, nonce, 1e-5,
                                                                       nbytes=0)),
            solution=lambda args, nonce: grade.RunResult(0, "", records=records(
                args, nonce, 1e-5, nbytes=0))))
        self.assertEqual(g.total, 100)

    def test_values_within_the_tolerance_of_the_reference_pass(self):
        def values(got, ref=None, tolerance=0.01):
            return [{"nonce": "n", "kind": "values", "what": "mean", "values": got,
                     "tolerance": tolerance, "reference": ref or []}]
        ref = values([5.0], [5.004])
        self.assertIsNone(grade.compare_records(values([5.01]), ref))
        self.assertIn("mean", grade.compare_records(values([5.02]), ref))
        # the student's own "reference" is never used
        self.assertIn("mean", grade.compare_records(values([9.0], [9.0]), ref))
        nan = values(["nan"], ["nan"])
        self.assertIsNone(grade.compare_records(values(["nan"]), nan))
        self.assertIsNotNone(grade.compare_records(values([1.0]), nan))
        exact = values([3, 1.5], tolerance=0)
        self.assertIsNone(grade.compare_records(values([3, 1.5]), exact))
        self.assertIsNotNone(grade.compare_records(values([3, 1.5000001]), exact))

    def test_time_out_and_crashes_are_named(self):
        def student(args, nonce):
            if "--n 1 " in args:
                return grade.RunResult(-signal.SIGKILL, "", timed_out=True)
            if "--n 33 " in args:
                return grade.RunResult(-signal.SIGSEGV, "")
            return grade.RunResult(3, "CUDA error: cudaErrorIllegalAddress at demo.cuh:12")
        g = grade.grade_exercise(spec(cases=["--n 33", "--n 2^20+3", "--n 1"]), "dave",
                                 FakeRunner(student))
        self.assertEqual((g.cases_passed, g.correct, g.speed, g.total), (0, 0, 0, 0))
        text = " ".join(g.notes)
        self.assertIn("crash (SIGSEGV)", text)
        self.assertIn("crash (CUDA error): CUDA error: cudaErrorIllegalAddress", text)
        self.assertIn("--n 1 --seed 11: time-out after 5 s", text)
        # after a time-out the remaining cases are not run: a hung program costs one limit
        self.assertIn("1 remaining case(s) not run after that", text)
        self.assertEqual(g.cases_total, 6)

    def test_limits_follow_the_solution_on_a_loaded_machine(self):
        # The solution took 4 s on "--n 2^20+3" (a class loading the machine), under a second
        # elsewhere: the student's limit there is 3 x 4 s, elsewhere the exercise's 5 s; the
        # solution's own correctness runs may take 3 x 5 s; timing runs (alone) keep 5 s.
        def solution(args, nonce):
            return grade.RunResult(0, "check ok", records=records(args, nonce),
                                   seconds=4.0 if "2^20+3" in args else 0.5)
        r = FakeRunner(correct(), solution=solution)
        g = grade.grade_exercise(spec(), "frank", r)
        self.assertEqual(g.total, 100)
        for side, args, limit in r.limits:
            timing = "--reps 30" in args
            want = (5 if timing else 15) if side == "solution" else (
                12 if "2^20+3" in args and not timing else 5)
            self.assertEqual(limit, want, (side, args))
        self.assertEqual(len([l for l in r.limits if l[0] == "student" and l[2] == 12]), 2)

    def test_a_time_out_names_the_limit_it_ran_under(self):
        def solution(args, nonce):
            return grade.RunResult(0, "check ok", records=records(args, nonce), seconds=10.0)
        g = grade.grade_exercise(spec(cases=["--n 9"], seeds=[1]), "gina", FakeRunner(
            lambda args, nonce: grade.RunResult(-signal.SIGKILL, "", timed_out=True),
            solution=solution))
        self.assertIn("--n 9 --seed 1: time-out after 30 s", " ".join(g.notes))

    def test_a_solution_past_its_own_limit_leaves_the_exercise_ungraded(self):
        r = FakeRunner(correct(), solution=lambda args, nonce: grade.RunResult(
            -signal.SIGKILL, "", timed_out=True))
        with self.assertRaisesRegex(grade.ReferenceFailed, "time-out after 15 s"):
            grade.grade_exercise(spec(), "hana", r)

    def test_a_crash_after_correct_records_still_fails(self):
        g = grade.grade_exercise(spec(cases=["--n 9"], seeds=[1]), "erin", FakeRunner(
            lambda args, nonce: grade.RunResult(3, "demo.cuh:12: cudaErrorIllegalAddress",
                                                records=records(args, nonce))))
        self.assertTrue(g.notes[0].endswith("crash (CUDA error): demo.cuh:12: "
                                            "cudaErrorIllegalAddress"))

    def test_untouched_skeleton_scores_zero(self):
        r = FakeRunner(lambda args, nonce: grade.RunResult(
            1, "demo: not implemented: demo::launch (fill in the TODO regions)"))
        g = grade.grade_exercise(spec(), "frank", r)
        self.assertEqual(g.total, 0)
        self.assertIn("not implemented: demo::launch", g.notes[0])
        # one run says it all: the other cases are not run
        self.assertEqual([c for c in r.calls if c[0] == "student"], [r.calls[1]])
        self.assertIn("5 remaining case(s) not run after that", g.notes)

    def test_compile_error_scores_zero_and_runs_nothing(self):
        r = FakeRunner(correct(), build_error="compile error:\n    demo.cuh(3): "
                       "error: expected a ';'")
        g = grade.grade_exercise(spec(), "gina", r)
        self.assertEqual(g.total, 0)
        self.assertIn("expected a ';'", g.notes[0])
        self.assertEqual(r.calls, [])

    def test_a_flagged_build_scores_zero_with_its_reason(self):
        r = FakeRunner(correct(), build_error="FLAGGED: uses cub, which this exercise does "
                       "not allow (includes cub.cuh)")
        g = grade.grade_exercise(spec(), "mallory", r)
        self.assertEqual(g.total, 0)
        self.assertIn("uses cub", g.flags[0])
        self.assertEqual(r.calls, [])

    def test_a_flagged_run_scores_zero(self):
        def student(args, nonce):
            r = correct()(args, nonce)
            r.flag = "FLAGGED: the program changed the grader's reference program(s) demo"
            return r
        g = grade.grade_exercise(spec(), "mallory", FakeRunner(student))
        self.assertEqual(g.total, 0)
        self.assertIn("reference program", g.flags[0])

    def test_sanitizer_report_costs_the_penalty(self):
        clean = grade.grade_exercise(spec(), "h", FakeRunner(correct()), True)
        self.assertEqual(clean.total, 100)
        dirty = grade.grade_exercise(spec(), "h", FakeRunner(
            correct(),
            sanitizer_output="Invalid __global__ write of size 4\n========= ERROR SUMMARY: "
                             "2 errors"), True)
        self.assertEqual(dirty.penalty, grade.SANITIZER_PENALTY)
        self.assertEqual(dirty.total, 100 - grade.SANITIZER_PENALTY)
        self.assertIn("memcheck on --n 500: 2 error(s)", dirty.notes)

    def test_penalty_never_makes_a_score_negative(self):
        g = grade.Grade("x", "demo", correct=10, speed=0, penalty=25)
        self.assertEqual(g.total, 0)

    def test_failing_solution_is_not_graded(self):
        r = FakeRunner(correct(), solution=lambda args, nonce: grade.RunResult(1, "mismatch"))
        with self.assertRaises(grade.ReferenceFailed):
            grade.grade_exercise(spec(), "alice", r)


class Parsing(unittest.TestCase):
    def test_records_need_the_nonce_and_a_kind(self):
        text = "\n".join(['{"nonce": "ab", "kind": "output", "what": "x", "digest": "1"}',
                          '{"nonce": "cd", "kind": "output", "what": "x", "digest": "2"}',
                          '{"nonce": "ab"}', "not json", '["ab"]'])
        self.assertEqual([r["digest"] for r in grade.parse_records(text, "ab")], ["1"])

    def test_case_elements(self):
        self.assertEqual(grade.case_elements("--n 2^31+5 --input last"), 2 ** 31 + 5)
        self.assertEqual(grade.case_elements("--rows 2^16 --cols 2^15+1"), 2 ** 16 * (2 ** 15 + 1))
        self.assertEqual(grade.case_elements("--rows 7"), 49)
        self.assertEqual(grade.case_elements("--k 3"), 0)
        self.assertEqual(grade.eval_int("10^10"), 10 ** 10)
        self.assertEqual(grade.eval_int("2^28-3*2"), 2 ** 28 - 6)

    def test_student_name_is_the_submission_folder(self):
        self.assertEqual(grade.student_name("/home/t/alice/exercises"), "alice")
        self.assertEqual(grade.student_name("/home/t/alice/exercises/"), "alice")
        self.assertEqual(grade.student_name("/course/submissions/bob"), "bob")

    def test_dependency_problems(self):
        s = spec()
        allowed = ["/scratch", "/usr/local/cuda"]
        self.assertEqual(grade.dependency_problems(
            ["/scratch/common/check.cuh", "/usr/local/cuda/include/cuda_runtime.h"], allowed, s),
            [])
        flags = grade.dependency_problems(["/repo/solutions/01_demo/demo.cuh"], allowed, s)
        self.assertIn("includes a file from outside the handout: /repo/solutions", flags[0])
        flags = grade.dependency_problems(["/usr/local/cuda/include/cub/cub.cuh"], allowed, s)
        self.assertIn("uses cub", flags[0])
        flags = grade.dependency_problems(["/usr/local/cuda/include/thrust/sort.h",
                                           "/usr/local/cuda/include/cublas_v2.h"], allowed, s)
        self.assertEqual(len(flags), 2)
        self.assertEqual(grade.dependency_problems(["/usr/local/cuda/include/cub/cub.cuh"],
                                                   allowed, spec(libraries=["cub"])), [])


class Reports(unittest.TestCase):
    def grades(self):
        a = grade.Grade("alice", "saxpy", correct=70, speed=30, cases_passed=6, cases_total=6,
                        ratio=1.01, notes=["time 1 ms vs solution 0.99 ms (1.01x)"])
        b = grade.Grade("bob", "saxpy", correct=35, cases_passed=3, cases_total=6,
                        notes=["--n 33 --seed 1: wrong answer"])
        return [a, b]

    def test_csv_and_json_have_one_row_per_grade(self):
        out = io.StringIO()
        grade.report_csv(self.grades(), out)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0].split(","), grade.CSV_FIELDS)
        self.assertTrue(lines[1].startswith("alice,saxpy,graded,6,6,70,30,0,100"))
        out = io.StringIO()
        grade.report_json(self.grades(), out)
        rows = json.loads(out.getvalue())
        self.assertEqual([r["total"] for r in rows], [100, 35])

    def test_human_report_names_each_problem_and_the_total(self):
        out = io.StringIO()
        grade.report_human(self.grades(), out)
        text = out.getvalue()
        self.assertIn("--n 33 --seed 1: wrong answer", text)
        self.assertRegex(text, r"total\s+100 of 100")

    def test_gradebook_writes_not_graded_and_errors_with_their_reason(self):
        grades = self.grades() + [
            grade.Grade("alice", "argmax", status="not graded",
                        reason="argmax: the solution failed on --n 5"),
            grade.Grade("bob", "argmax", status="error", reason="disk full"),
            grade.Grade("carol", "saxpy", correct=70, speed=30,
                        flags=["FLAGGED: uses cub, which this exercise does not allow"]),
            grade.Grade("dave", "saxpy", status="not graded", reason="no device"),
            grade.Grade("dave", "argmax", status="not graded", reason="no device")]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "gradebook.csv")
            grade.write_gradebook(grades, ["saxpy", "argmax"], path)
            with open(path) as f:
                self.assertEqual(list(csv.reader(f)), [
                    ["student", "saxpy", "argmax", "total"],
                    ["alice", "100", "not graded: argmax: the solution failed on --n 5",
                     "100 (1 not graded)"],
                    ["bob", "35", "error: disk full", "35 (1 not graded)"],
                    ["carol", "0 (FLAGGED: uses cub, which this exercise does not allow)",
                     "not graded: not run", "0 (1 not graded)"],
                    ["dave", "not graded: no device", "not graded: no device", "not graded"]])
        out = io.StringIO()
        grade.report_human(grades, out)
        self.assertIn("NOT GRADED: argmax: the solution failed", out.getvalue())
        rows = {(r["student"], r["exercise"]): r for r in json.loads(
            (lambda o: (grade.report_json(grades, o), o.getvalue())[1])(io.StringIO()))}
        self.assertIsNone(rows[("alice", "argmax")]["total"])
        self.assertEqual(rows[("carol", "saxpy")]["total"], 0)


class Command(unittest.TestCase):
    def run_grade(self, *args):
        return subprocess.run([sys.executable, grade.__file__, *args], capture_output=True,
                              text=True)

    def test_bad_timeout_is_a_usage_error(self):
        r = self.run_grade("--timeout", "0", "--gpu-info", "/bin/false")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--timeout 0: must be more than 0 seconds", r.stderr)

    def test_unknown_exercise_is_a_usage_error(self):
        r = self.run_grade("--only", "no_such_exercise", "--gpu-info", "/bin/false")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown exercise no_such_exercise; exercises: saxpy", r.stderr)

    def test_missing_solutions_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_grade("--solutions", os.path.join(d, "none"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("grading needs the instructor's side", r.stderr)

    def test_no_device_exits_77(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "gpu_info")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho 'no CUDA device (none)'\nexit 77\n")
            os.chmod(fake, 0o755)
            for gpu_info in [fake] + ([GPU_INFO] if GPU_INFO else []):
                r = self.run_grade("--gpu-info", gpu_info, "--only", "saxpy")
                if gpu_info == GPU_INFO and r.returncode != 77:
                    continue  # the real gpu_info found a device: nothing to check here
                self.assertEqual(r.returncode, 77, r.stderr)
                self.assertIn("no CUDA device here, so nothing can be graded", r.stderr)

    def test_real_specs_load(self):
        specs = grade.load_specs(os.path.join(grade.REPO, "solutions"))
        self.assertTrue(specs)
        for s in specs:
            self.assertTrue(s.cases and s.seeds and s.timing and s.sanitize, s.name)
            self.assertNotIn("--sweep", s.timing)
            self.assertTrue(set(s.libraries) <= set(grade.KNOWN_LIBRARIES), s.name)

    def test_bad_counts_are_usage_errors(self):
        for args, message in ((["--jobs", "0"], "--jobs 0: must be at least 1"),
                              (["--parallel", "0"], "--parallel 0: must be at least 1"),
                              (["--memory-limit-gb", "-1"], "--memory-limit-gb -1: must be 0")):
            r = self.run_grade(*args, "--gpu-info", "/bin/false")
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(message, r.stderr)

    def test_name_with_submissions_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_grade("--submissions", d, "--name", "x", "--gpu-info", "/bin/false")
            self.assertEqual(r.returncode, 2)
            self.assertIn("--name names the one student", r.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        GPU_INFO = sys.argv.pop(1)
    unittest.main()
