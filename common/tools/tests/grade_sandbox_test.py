#!/usr/bin/env python3
"""Host tests of how the grader runs a student's program (common/tools/grade.py's run_contained,
Sandbox, References, Runner), with real processes and planted cheats that need no GPU: a
grandchild that holds stdout and escapes the process group, a hang, a write to the reference
program, a read of grading.json, fake output from a static initializer, a run that signals another
run, a run of the reference program, and the limits and the clean environment every run gets; and
how runs share the GPU (GpuLock: timing runs alone and after the correctness runs, correctness runs
side by side within a memory budget measured from the solution's runs). No GPU, no compiler needed.

    PYTHONPATH=common/tools python3 common/tools/tests/grade_sandbox_test.py
"""
import concurrent.futures
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import unittest

import grade

GRADING_JSON = os.path.join(grade.REPO, "solutions", "01_saxpy", "grading.json")


def script(folder, name, body):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


def spec():
    return grade.Spec(dir="01_demo", name="demo", cases=["--n 3"], seeds=[7], timing="--n 9",
                      sanitize="--n 3", timeout_s=10)


class FixedReference(grade.Runner):
    """The real Runner for the student's side; the solution's side answers with canned records
    (the solution wrote one output digest "right")."""

    def run(self, side, s, args, timeout_s, nonce):
        if side == "solution":
            return grade.RunResult(0, "", records=[
                {"nonce": nonce, "kind": "output", "what": "out", "digest": "right"}])
        return super().run(side, s, args, timeout_s, nonce)


class Contained(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        grade._become_subreaper()
        cls.tmp = tempfile.mkdtemp(prefix="grade-sandbox-test-")
        os.chmod(cls.tmp, 0o755)
        cls.sandbox = grade.Sandbox([grade.REPO, cls.tmp])
        cls.limits = grade.Limits(wall_s=5, data_bytes=8 << 30, file_bytes=1 << 20)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_program(self, body, limits=None, nonce=None):
        program = script(self.tmp, "program", body)
        return grade.run_contained([program, "--n", "3"], limits or self.limits, self.sandbox,
                                   channel=nonce, program=program)

    def test_a_grandchild_holding_stdout_neither_hangs_the_grader_nor_survives(self):
        start = time.monotonic()
        r = self.run_program("setsid sh -c 'echo grandchild $$; exec sleep 300' &\n"
                             "sleep 0.5\necho parent done\nexit 0\n")
        self.assertLess(time.monotonic() - start, 4)
        self.assertIn("parent done", r.output)
        pid = int(r.output.split("grandchild ")[1].split()[0])
        self.assertFalse(os.path.exists(f"/proc/{pid}"), "the setsid grandchild still runs")

    def test_a_hang_is_stopped_at_the_limit(self):
        start = time.monotonic()
        r = self.run_program("sleep 300\n", grade.Limits(wall_s=1.5))
        self.assertTrue(r.timed_out)
        self.assertEqual(r.rc, -signal.SIGKILL)
        self.assertLess(time.monotonic() - start, 6)

    def test_every_run_gets_limits_and_a_clean_environment(self):
        r = self.run_program("cat /proc/self/limits\nenv\n")
        limits = {line[:26].strip(): line[26:].split() for line in r.output.splitlines()
                  if line.startswith("Max ")}
        self.assertEqual(limits["Max file size"][0], str(1 << 20))
        self.assertEqual(limits["Max data size"][0], str(8 << 30))
        self.assertNotEqual(limits["Max processes"][0], "unlimited")
        self.assertNotEqual(limits["Max cpu time"][0], "unlimited")
        self.assertEqual(limits["Max core file size"][0], "0")
        env = dict(line.split("=", 1) for line in r.output.splitlines()
                   if "=" in line and not line.startswith("Max "))
        self.assertEqual(env.get("PATH"), "/usr/bin:/bin")
        self.assertTrue(env.get("HOME", "").startswith(tempfile.gettempdir()))
        for leaked in set(os.environ) - {"PATH", "HOME", "LANG", "TMPDIR", "PWD", "SHLVL", "_",
                                         "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH",
                                         "NVIDIA_VISIBLE_DEVICES"}:
            self.assertNotIn(leaked, env, f"the grader's {leaked} reached the program")

    def test_a_run_reports_its_peak_memory(self):
        r = self.run_program("exec python3 -c 'b = b\"x\" * (300 << 20); print(len(b))'\n")
        self.assertEqual(r.rc, 0, r.output)
        self.assertGreaterEqual(r.peak_bytes, 300 << 20)
        self.assertLess(r.peak_bytes, 2 << 30)
        stopped = self.run_program("sleep 30\n", grade.Limits(wall_s=0.5))
        self.assertTrue(stopped.timed_out)
        self.assertGreater(stopped.peak_bytes, 0)

    def test_ending_a_runs_strays_spares_the_graders_own_tools(self):
        # A build's tool (nm, cmake) runs on another thread while a student's run ends and its
        # strays are killed: the tool is not a stray.
        errors = []
        with tempfile.TemporaryFile() as listing:
            def tool():
                try:
                    grade.run_tool(["sh", "-c", "sleep 1; echo tool done"], listing)
                except Exception as e:   # noqa: BLE001 (reported below)
                    errors.append(e)
            thread = threading.Thread(target=tool)
            thread.start()
            time.sleep(0.2)
            self.run_program("setsid sh -c 'exec sleep 300' &\nsleep 0.2\necho parent done\n")
            thread.join(10)
            listing.seek(0)
            self.assertEqual(errors, [])
            self.assertEqual(listing.read(), b"tool done\n")

    def test_the_file_size_limit_stops_a_flood(self):
        r = self.run_program("head -c 5000000 /dev/zero > flood\necho size $(wc -c < flood)\n")
        self.assertIn("File size limit exceeded", r.output)
        self.assertIn(f"size {1 << 20}", r.output)

    def test_two_runs_at_once_cannot_signal_each_other(self):
        sandbox = grade.Sandbox([grade.REPO], slots=2)
        if not sandbox.user:
            self.assertIn("as this user", sandbox.describe())
            return
        exchange = tempfile.mkdtemp(prefix="grade-sandbox-exchange-")
        os.chmod(exchange, 0o777)
        try:
            first = script(self.tmp, "first", f"echo $$ > {exchange}/pid\nsleep 3\necho survived\n")
            second = script(self.tmp, "second", f"sleep 1\nkill -9 $(cat {exchange}/pid) && "
                            "echo KILLED\n")
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                runs = [pool.submit(grade.run_contained, [p], grade.Limits(wall_s=10), sandbox,
                                    program=p) for p in (first, second)]
                a, b = (r.result() for r in runs)
            self.assertIn("survived", a.output)
            self.assertNotIn("KILLED", b.output)
        finally:
            shutil.rmtree(exchange, ignore_errors=True)

    def test_the_channel_brings_back_records_with_the_nonce_only(self):
        r = self.run_program(
            'echo "{\\"nonce\\":\\"$BOOK_GRADER_NONCE\\",\\"kind\\":\\"output\\",'
            '\\"what\\":\\"out\\",\\"digest\\":\\"right\\"}" >&$BOOK_GRADER_FD\n'
            'echo \'{"nonce":"0000000000000000","kind":"output","what":"out","digest":"x"}\' '
            '>&$BOOK_GRADER_FD\n', nonce="00000000000000ab")
        self.assertEqual(r.records, [{"nonce": "00000000000000ab", "kind": "output",
                                      "what": "out", "digest": "right"}])

    def test_grading_json_is_out_of_reach(self):
        self.assertTrue(os.path.isfile(GRADING_JSON))
        r = self.run_program(f"cat {GRADING_JSON} && echo LEAKED\n")
        if self.sandbox.namespaces or self.sandbox.user:
            self.assertNotIn("LEAKED", r.output, self.sandbox.describe())
        else:
            # Neither root nor a mount namespace: the grader says so in its report.
            self.assertIn("nothing hidden", self.sandbox.describe())

    def runner(self, student_dir):
        refs = grade.References(os.path.join(self.tmp, "build"), None)
        reference = os.path.join(self.tmp, "solution_demo")
        with open(reference, "w") as f:
            f.write("#!/bin/sh\necho the reference\n")
        refs.install("demo", reference)
        runner = FixedReference(refs, self.sandbox, lambda t: grade.Limits(wall_s=t))
        runner.set_student(student_dir, {"demo": None})
        return runner, refs

    def test_a_write_to_the_reference_program_is_refused_or_flagged(self):
        student_dir = os.path.join(self.tmp, "student-writes")
        os.makedirs(student_dir)
        runner, refs = self.runner(student_dir)
        try:
            target = refs.path("demo")
            script(student_dir, "demo", f"chmod u+w {target} 2>/dev/null\n"
                   f"echo 'echo poisoned' > {target} && echo WROTE\n")
            g = grade.grade_exercise(spec(), "mallory", runner)
            with open(target) as f:
                self.assertEqual(f.read(), "#!/bin/sh\necho the reference\n")
            self.assertEqual(g.total, 0)
            if g.flags:
                self.assertIn("changed the grader's reference program", g.flags[0])
            else:  # refused: the program never reached the file
                self.assertRegex(g.notes[0], "Permission denied|No such file")
        finally:
            refs.close()

    def test_the_reference_program_cannot_be_run_by_the_student(self):
        # Running the solution with the same arguments and channel would hand over its records.
        student_dir = os.path.join(self.tmp, "student-runs-reference")
        os.makedirs(student_dir)
        runner, refs = self.runner(student_dir)
        try:
            runner.sandbox = grade.Sandbox([grade.REPO, self.tmp, refs.private])
            script(student_dir, "demo", f"exec {refs.path('demo')} \"$@\"\n")
            r = runner.run("student", spec(), "--n 3", 10, "00000000000000ef")
            if runner.sandbox.namespaces or runner.sandbox.user:
                self.assertNotIn("the reference", r.output, runner.sandbox.describe())
            else:
                self.assertIn("nothing hidden", runner.sandbox.describe())
        finally:
            refs.close()

    def test_fake_output_from_a_static_initializer_scores_zero(self):
        student_dir = os.path.join(self.tmp, "student-fakes")
        os.makedirs(student_dir)
        runner, refs = self.runner(student_dir)
        try:
            script(student_dir, "demo", "echo 'check block=64: ok: 3 elements checked'\n"
                   "echo '{\"step\":\"demo\",\"median_ms\":0.001,\"ok\":true}'\nexit 0\n")
            g = grade.grade_exercise(spec(), "mallory", runner)
            self.assertEqual((g.cases_passed, g.total), (0, 0))
            self.assertIn("no result on the grader's channel", g.notes[0])
            # and the same program with the right record passes: the test can tell them apart
            script(student_dir, "demo",
                   'echo "{\\"nonce\\":\\"$BOOK_GRADER_NONCE\\",\\"kind\\":\\"output\\",'
                   '\\"what\\":\\"out\\",\\"digest\\":\\"right\\"}" >&$BOOK_GRADER_FD\n')
            nonce = "00000000000000cd"
            r = runner.run("student", spec(), "--n 3", 10, nonce)
            self.assertIsNone(grade.judge(r, runner.run("solution", spec(), "--n 3", 10, nonce),
                                          10))
        finally:
            refs.close()


def wait_until(condition, seconds=10):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


class Held:
    """A run that holds the GpuLock on a thread of its own until release()."""

    def __init__(self, lock, name, order, exclusive=False, need=0):
        self.entered, self.leave = threading.Event(), threading.Event()

        def body():
            with lock.hold(exclusive, need):
                order.append(name)
                self.entered.set()
                self.leave.wait(10)
        self.thread = threading.Thread(target=body, daemon=True)
        self.thread.start()

    def release(self):
        self.leave.set()
        self.thread.join(10)


class Sharing(unittest.TestCase):
    def test_a_timing_run_waits_for_every_correctness_run_already_asked(self):
        lock, order = grade.GpuLock(slots=1), []
        case = Held(lock, "case 1", order)
        case.entered.wait(10)
        timing = Held(lock, "timing", order, exclusive=True)
        time.sleep(0.1)   # the timing run waits behind the case that runs
        later = Held(lock, "case 2", order)
        wait_until(lambda: len(lock.queue) == 1)
        case.release()
        later.entered.wait(10)
        self.assertEqual(order, ["case 1", "case 2"])   # the case asked later went first
        later.release()
        timing.entered.wait(10)
        timing.release()
        self.assertEqual(order, ["case 1", "case 2", "timing"])

    def test_a_timing_run_waits_for_the_last_build(self):
        lock, order = grade.GpuLock(slots=2), []
        lock.builds_left(2)
        timing = Held(lock, "timing", order, exclusive=True)
        case = Held(lock, "case", order)
        case.entered.wait(10)       # a correctness run goes beside the builds
        case.release()
        lock.builds_left(-1)
        time.sleep(0.1)
        self.assertEqual(order, ["case"])
        lock.builds_left(-1)
        self.assertTrue(timing.entered.wait(10))
        timing.release()

    def test_correctness_runs_share_within_the_budget_in_the_order_they_asked(self):
        lock, order = grade.GpuLock(slots=4, budget=100), []
        first = Held(lock, "60 first", order, need=60)
        first.entered.wait(10)
        second = Held(lock, "60 second", order, need=60)
        wait_until(lambda: len(lock.queue) == 1)
        small = Held(lock, "10", order, need=10)
        wait_until(lambda: len(lock.queue) == 2)
        time.sleep(0.1)
        self.assertEqual(order, ["60 first"])   # 10 would fit, but waits its turn
        first.release()
        second.entered.wait(10)
        small.entered.wait(10)    # beside the second: 60 + 10 fit in 100
        self.assertEqual(order, ["60 first", "60 second", "10"])
        self.assertEqual((lock.running, lock.used), (2, (70, 70)))
        second.release()
        small.release()
        self.assertEqual((lock.running, lock.used), (0, (0, 0)))

    def test_host_and_device_memory_are_budgeted_apart(self):
        # A budget of 100 on each: a run heavy on the device goes beside one heavy on the host,
        # but not beside another heavy on the device.
        lock, order = grade.GpuLock(slots=4, budget=(100, 100)), []
        device_heavy = Held(lock, "device 70", order, need=(5, 70))
        device_heavy.entered.wait(10)
        host_heavy = Held(lock, "host 70", order, need=(70, 5))
        host_heavy.entered.wait(10)
        another = Held(lock, "device 40", order, need=(5, 40))
        wait_until(lambda: len(lock.queue) == 1)
        time.sleep(0.1)
        self.assertEqual(order, ["device 70", "host 70"])
        self.assertEqual(lock.used, (75, 75))
        device_heavy.release()
        another.entered.wait(10)
        self.assertEqual(lock.used, (75, 45))
        host_heavy.release()
        another.release()
        self.assertEqual(lock.used, (0, 0))
        # A need past one memory's whole budget runs alone; no budget on a memory bounds nothing.
        self.assertTrue(grade.GpuLock(budget=(100, 100))._alone((5, 101)))
        self.assertFalse(grade.GpuLock(budget=(0, 100))._alone((10 ** 12, 5)))
        # The budgets: a share of each memory; none on the device where its size is not known.
        host, device = grade.memory_budget_bytes(10 ** 11)
        self.assertEqual(device, int(grade.DEVICE_MEMORY_SHARE * 10 ** 11))
        self.assertEqual(host, int(grade.HOST_MEMORY_SHARE * grade.memory_total_bytes()))
        self.assertEqual(grade.memory_budget_bytes(0)[1], 0)

    def test_a_run_of_unknown_need_has_the_machine_to_itself(self):
        lock, order = grade.GpuLock(slots=4, budget=100), []
        small = Held(lock, "small", order, need=1)
        small.entered.wait(10)
        unknown = Held(lock, "unknown", order, need=None)
        time.sleep(0.1)
        self.assertEqual(order, ["small"])
        small.release()
        unknown.entered.wait(10)
        after = Held(lock, "after", order, need=1)
        time.sleep(0.1)
        self.assertEqual(order, ["small", "unknown"])   # nothing beside it
        unknown.release()
        after.entered.wait(10)
        after.release()
        # A need past the whole budget still runs, alone.
        alone = Held(lock, "too large", order, need=1000)
        self.assertTrue(alone.entered.wait(10))
        alone.release()

    def test_slots_bound_the_runs_at_once(self):
        lock, order = grade.GpuLock(slots=2), []
        runs = [Held(lock, f"run {i}", order) for i in range(3)]
        wait_until(lambda: len(order) == 2 and len(lock.queue) == 1)
        runs[[f"run {i}" for i in range(3)].index(order[0])].release()
        wait_until(lambda: len(order) == 3)
        for r in runs:
            r.release()

    def test_a_case_is_admitted_with_the_memory_the_solution_used(self):
        session = grade.Session(slots=4, memory_budget=100)
        runner = grade.Runner(None, None, None, session=session)
        self.assertEqual(runner.memory_need(spec(), "--n 3", "ab"), 0)
        self.assertIsNone(runner.memory_need(spec(), "--n 2^31+3", "ab"))
        slack = grade.MEMORY_SLACK
        # Without the channel's memory record, the host peak stands for the device too.
        session.cache[("demo", "--n 2^31+3", "ab")] = grade.RunResult(0, peak_bytes=1000)
        self.assertEqual(runner.memory_need(spec(), "--n 2^31+3", "ab"),
                         (int(1000 * slack), int(1000 * slack)))
        # With it, each memory by its own peak (saxpy keeps far less on the host than on the
        # device).
        device = {"nonce": "ab", "kind": "memory", "device_peak_bytes": 1500}
        session.cache[("demo", "--n 2^31+3", "ab")] = grade.RunResult(0, peak_bytes=1000,
                                                                      records=[device])
        self.assertEqual(runner.memory_need(spec(), "--n 2^31+3", "ab"),
                         (int(1000 * slack), int(1500 * slack)))
        # A record that is not a number counts as none.
        device["device_peak_bytes"] = "lots"
        self.assertEqual(runner.memory_need(spec(), "--n 2^31+3", "ab"),
                         (int(1000 * slack), int(1000 * slack)))
        self.assertTrue(grade.runs_alone("--n 2^26 --seed 1 --reps 30 --warmup 3"))

    def test_a_large_case_not_yet_run_is_admitted_with_a_smaller_run_scaled(self):
        session = grade.Session(slots=4, memory_budget=100)
        runner = grade.Runner(None, None, None, session=session)
        slack, large = grade.MEMORY_SLACK, "--n 2^31+3 --seed 1 --reps 1 --warmup 0"
        device = {"nonce": "c", "kind": "memory", "device_peak_bytes": 3000}
        # Not counted: runs below SCALED_FROM_ELEMENTS, failed or timed-out runs, runs without a
        # peak, another exercise's runs.
        session.cache[("demo", "--n 2^24-1 --seed 1", "a")] = grade.RunResult(0, peak_bytes=10)
        session.cache[("demo", "--n 2^29 --seed 1", "b")] = grade.RunResult(1, peak_bytes=10)
        session.cache[("demo", "--n 2^29 --seed 2", "b")] = grade.RunResult(
            -9, peak_bytes=10, timed_out=True)
        session.cache[("demo", "--n 2^29 --seed 3", "b")] = grade.RunResult(0)
        session.cache[("other", "--n 2^29 --seed 1", "b")] = grade.RunResult(0, peak_bytes=10)
        self.assertIsNone(runner.memory_need(spec(), large, "x"))
        # The largest run that counts, scaled by the elements: 2^24 and 2^28+3 elements ran.
        session.cache[("demo", "--n 2^24 --seed 1", "a")] = grade.RunResult(0, peak_bytes=500)
        session.cache[("demo", "--n 2^28+3 --seed 1", "c")] = grade.RunResult(
            0, peak_bytes=1000, records=[device])
        ratio = (2 ** 31 + 3) / (2 ** 28 + 3)
        self.assertEqual(runner.memory_need(spec(), large, "x"),
                         (int(1000 * ratio * slack), int(3000 * ratio * slack)))
        # A larger run than the case stands for it unscaled; the case's own run, once there, wins.
        session.cache[("demo", "--n 2^32 --seed 1", "d")] = grade.RunResult(0, peak_bytes=4000)
        self.assertEqual(runner.memory_need(spec(), large, "x"),
                         (int(4000 * slack), int(4000 * slack)))
        session.cache[("demo", large, "x")] = grade.RunResult(0, peak_bytes=700)
        self.assertEqual(runner.memory_need(spec(), large, "x"), (int(700 * slack),) * 2)
        # Small cases are admitted at once, as before.
        self.assertEqual(runner.memory_need(spec(), "--n 2^30 --seed 1", "y"), 0)
        self.assertFalse(grade.runs_alone("--n 2^31+3 --seed 1 --reps 1 --warmup 0"))


if __name__ == "__main__":
    unittest.main()
