#!/usr/bin/env python3
"""Tests of the sync check (common/tools/check_exercises.py): the real tree passes, and a copy of
exercise 01 broken in each way the check exists for fails with the right message."""
import os
import shutil
import sys
import tempfile
import unittest

import check_exercises
import grade

D = "01_saxpy"


class SyncCheck(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        for side in ("exercises", "solutions"):
            shutil.copytree(os.path.join(grade.REPO, side, D), os.path.join(self.root, side, D))
        results = os.path.join(self.root, check_exercises.RESULTS)
        os.makedirs(os.path.dirname(results))
        shutil.copy(os.path.join(grade.REPO, check_exercises.RESULTS), results)

    def tearDown(self):
        self.tmp.cleanup()

    def edit(self, path, old, new):
        path = os.path.join(self.root, path)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def problems(self):
        return "\n".join(check_exercises.check(self.root))

    def test_the_repository_is_in_sync(self):
        self.assertEqual(check_exercises.check(grade.REPO), [])

    def test_the_copy_is_in_sync(self):
        self.assertEqual(self.problems(), "")

    def test_solution_edited_outside_a_region(self):
        self.edit(f"solutions/{D}/saxpy.cuh", "constexpr int BLOCK_THREADS = 64;",
                  "constexpr int BLOCK_THREADS = 256;")
        self.assertIn("differs from the skeleton outside the regions", self.problems())

    def test_region_without_todo(self):
        self.edit(f"exercises/{D}/saxpy.cuh", "  // TODO: each thread", "  // each thread")
        self.assertIn("region 'kernel' holds no TODO", self.problems())

    def test_solution_still_unfinished(self):
        self.edit(f"solutions/{D}/saxpy.cuh", "  if (n == 0) return;",
                  "  common::todo(\"x\");\n  if (n == 0) return;")
        self.assertIn("region 'launch' still holds a TODO", self.problems())

    def test_region_names_differ(self):
        self.edit(f"solutions/{D}/saxpy.cuh", ">>> YOUR CODE: launch", ">>> YOUR CODE: host")
        self.assertIn("differ from the skeleton's", self.problems())

    def test_unclosed_region(self):
        self.edit(f"exercises/{D}/saxpy.cuh", "  // <<< YOUR CODE\n}\n\n// The largest",
                  "}\n\n// The largest")
        self.assertIn("region inside region", self.problems())

    def test_readme_speed_target_must_be_the_graders(self):
        self.edit(f"exercises/{D}/README.md", "within 1.2x", "within 1.5x")
        self.assertIn("is not the grader's", self.problems())

    def test_readme_libraries_must_be_grading_jsons(self):
        self.edit(f"exercises/{D}/README.md", "| libraries | none allowed",
                  "| libraries | CUB allowed")
        self.assertIn("are not grading.json's", self.problems())

    def test_speed_figure_must_be_the_measured_one(self):
        self.edit(f"solutions/{D}/grading.json", "at least 25%", "at least 20%")
        self.assertIn("is not the measured one", self.problems())
        self.edit(f"exercises/{D}/README.md", "at least 25%", "at least 20%")
        self.assertIn("is not the measured one", self.problems())

    def test_a_readme_demanding_64_bit_needs_a_case_past_2_31(self):
        self.edit(f"solutions/{D}/grading.json", '"--n 2^31+3"', '"--n 2^30+3"')
        self.assertIn("no hidden case passes 2^31 elements", self.problems())

    def test_hidden_cases_must_reach_the_public_tests(self):
        self.edit(f"exercises/{D}/saxpy_test.cu", "GPU_TEST_CASE(",
                  "GPU_TEST_CASE(\"n = 2^32 + 5\") { run((std::int64_t(1) << 32) + 5); }\n"
                  "GPU_TEST_CASE(")
        self.assertIn("fewer than the public tests' 4294967301", self.problems())

    def test_public_largest(self):
        self.assertEqual(check_exercises.public_largest(
            "TEST_CASE(\"host\") { f(1 << 40); }\n"
            "GPU_TEST_CASE(\"a\") { const std::int64_t rows = 65537, cols = 32771; }\n"
            "GPU_TEST_CASE(\"b\") { g((std::int64_t(1) << 31) + 77); }  // 99999999999\n"),
            65537 * 32771)

    def test_missing_solution_and_files(self):
        shutil.rmtree(os.path.join(self.root, "solutions", D, ))
        self.assertIn(f"no solutions/{D}", self.problems())

    def test_missing_notes(self):
        os.remove(os.path.join(self.root, "solutions", D, "NOTES.md"))
        self.assertIn(f"solutions/{D}/NOTES.md: missing", self.problems())


if __name__ == "__main__":
    unittest.main()
