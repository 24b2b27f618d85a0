#!/usr/bin/env python3
"""Host tests of the grader (common/tools/grade.py): scoring and reports on fake runs, and the
command's refusals (no device, unknown exercise, no solutions). No GPU, no compiler needed.

    python3 common/tools/tests/grade_test.py [GPU_INFO]   (GPU_INFO: a gpu_info program that
                                                           exits 77 here, for the no-device case)
"""
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import grade  # noqa: E402

GPU_INFO = None


def spec(**kw):
    base = dict(dir="01_demo", name="demo", cases=["--n 1", "--n 33", "--n 2^20+3"],
                seeds=[11, 12], timing="--n 2^26", sanitize="--n 500", timeout_s=5)
    base.update(kw)
    return grade.Spec(**base)


def ok_json(ms):
    return grade.RunResult(0, "banner\n" + json.dumps({"step": "demo", "median_ms": ms}) + "\n")


class FakeRunner:
    """Answers like the real programs would: `student(args)` and `solution(args)` give a
    RunResult for one command line; build_error is the student's compile error, if any."""

    def __init__(self, student, solution=lambda a: ok_json(1.0), build_error=None,
                 sanitizer_output="========= ERROR SUMMARY: 0 errors"):
        self.sides = {"student": student, "solution": solution}
        self.build_error = build_error
        self.sanitizer_output = sanitizer_output
        self.calls = []

    def build(self, side, s):
        return self.build_error if side == "student" else None

    def run(self, side, s, args, timeout_s):
        self.calls.append((side, args))
        return self.sides[side](args)

    def sanitize(self, side, s, args, timeout_s):
        self.calls.append(("sanitize", args))
        return grade.RunResult(0, self.sanitizer_output)


def correct_and_timed(ms):
    return lambda args: ok_json(ms) if "--format json" in args else grade.RunResult(0, "check ok")


class Scoring(unittest.TestCase):
    def test_speed_scale(self):
        self.assertEqual(grade.speed_points(0.5), 30)
        self.assertEqual(grade.speed_points(1.2), 30)
        self.assertAlmostEqual(grade.speed_points(2.1), 15)
        self.assertEqual(grade.speed_points(3.0), 0)
        self.assertEqual(grade.speed_points(50), 0)

    def test_full_marks(self):
        r = FakeRunner(correct_and_timed(1.1))
        g = grade.grade_exercise(spec(), "alice", r)
        self.assertEqual((g.cases_passed, g.cases_total), (6, 6))
        self.assertEqual((g.correct, g.speed, g.total), (70, 30, 100))
        # every case with every hidden seed, one repetition; timing alternates the two sides
        self.assertIn(("student", "--n 2^20+3 --seed 12 --reps 1 --warmup 0"), r.calls)
        timing = [c[0] for c in r.calls if "--format json" in c[1]]
        self.assertEqual(timing, ["student", "solution"] * grade.TIMING_ROUNDS)

    def test_seed_option_replaces_the_hidden_seeds(self):
        r = FakeRunner(correct_and_timed(1.0))
        g = grade.grade_exercise(spec(), "alice", r, seed=5)
        self.assertEqual(g.cases_total, 3)
        self.assertTrue(all("--seed 5" in c[1] for c in r.calls))

    def test_wrong_answer_costs_its_case_and_the_speed_marks(self):
        def student(args):
            if "--n 33 " in args:
                return grade.RunResult(1, "demo: 1 mismatch; first: [32] got 0 want 7")
            return correct_and_timed(1.0)(args)
        g = grade.grade_exercise(spec(), "bob", FakeRunner(student))
        self.assertEqual(g.cases_passed, 4)
        self.assertAlmostEqual(g.correct, round(70 * 4 / 6, 1))
        self.assertEqual(g.speed, 0)
        self.assertTrue(any("wrong answer" in n and "got 0 want 7" in n for n in g.notes))
        self.assertIn("speed not graded: not every case passed", g.notes)

    def test_slow_solution_loses_speed_points(self):
        r = FakeRunner(correct_and_timed(2.1), solution=lambda a: ok_json(1.0))
        g = grade.grade_exercise(spec(), "carol", r)
        self.assertEqual(g.correct, 70)
        self.assertAlmostEqual(g.ratio, 2.1)
        self.assertAlmostEqual(g.speed, 15)

    def test_time_out_and_crashes_are_named(self):
        def student(args):
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

    def test_cuda_error_is_a_crash(self):
        g = grade.grade_exercise(spec(cases=["--n 9"], seeds=[1]), "erin", FakeRunner(
            lambda a: grade.RunResult(3, "demo.cuh:12: cudaErrorIllegalAddress")))
        self.assertTrue(g.notes[0].endswith("crash (CUDA error): demo.cuh:12: "
                                            "cudaErrorIllegalAddress"))

    def test_untouched_skeleton_scores_zero(self):
        r = FakeRunner(lambda a: grade.RunResult(
            1, "demo: not implemented: demo::launch (fill in the TODO regions)"))
        g = grade.grade_exercise(spec(), "frank", r)
        self.assertEqual(g.total, 0)
        self.assertIn("not implemented: demo::launch", g.notes[0])
        # one run says it all: the other cases are not run
        self.assertEqual(len(r.calls), 1)
        self.assertIn("5 remaining case(s) not run after that", g.notes)

    def test_compile_error_scores_zero_and_runs_nothing(self):
        r = FakeRunner(correct_and_timed(1.0), build_error="compile error:\n    demo.cuh(3): "
                       "error: expected a ';'")
        g = grade.grade_exercise(spec(), "gina", r)
        self.assertEqual(g.total, 0)
        self.assertIn("expected a ';'", g.notes[0])
        self.assertEqual(r.calls, [])

    def test_sanitizer_report_costs_the_penalty(self):
        clean = grade.grade_exercise(spec(), "h", FakeRunner(correct_and_timed(1.0)), True)
        self.assertEqual(clean.total, 100)
        dirty = grade.grade_exercise(spec(), "h", FakeRunner(
            correct_and_timed(1.0),
            sanitizer_output="Invalid __global__ write of size 4\n========= ERROR SUMMARY: "
                             "2 errors"), True)
        self.assertEqual(dirty.penalty, grade.SANITIZER_PENALTY)
        self.assertEqual(dirty.total, 100 - grade.SANITIZER_PENALTY)
        self.assertIn("memcheck on --n 500: 2 error(s)", dirty.notes)

    def test_penalty_never_makes_a_score_negative(self):
        g = grade.Grade("x", "demo", correct=10, speed=0, penalty=25)
        self.assertEqual(g.total, 0)

    def test_failing_solution_is_not_graded(self):
        r = FakeRunner(correct_and_timed(1.0), solution=lambda a: grade.RunResult(1, "mismatch"))
        with self.assertRaises(grade.ReferenceFailed):
            grade.grade_exercise(spec(), "alice", r)

    def test_median_ms_reads_the_first_json_row(self):
        self.assertEqual(grade.median_ms(grade.RunResult(0, 'x\n{"median_ms": 2.5}\n'
                                                            '{"median_ms": 9}')), 2.5)
        self.assertIsNone(grade.median_ms(grade.RunResult(0, "no rows")))


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
        self.assertTrue(lines[1].startswith("alice,saxpy,6,6,70,30,0,100"))
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

    def test_gradebook(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "gradebook.csv")
            grade.write_gradebook(self.grades(), ["saxpy", "argmax"], path)
            with open(path) as f:
                self.assertEqual(f.read().splitlines(),
                                 ["student,saxpy,argmax,total", "alice,100,0,100",
                                  "bob,35,0,35"])


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


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        GPU_INFO = sys.argv.pop(1)
    unittest.main()
