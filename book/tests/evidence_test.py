#!/usr/bin/env python3
"""evidence_test: book/tools/check_evidence.py on a small tree, whole and then broken one way per
case: each break must fail the check with a message that names it, and the whole tree must pass.
Exit 0 when every case behaves as expected (CTest: book.evidence.behaviour, label unit)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools",
                     "check_evidence.py")
GPU = "some-gpu"
INDEX = f"book/results/{GPU}/evidence.tsv"
HEADER = "# the index\nfile\tstep\tcommit\tcommand\tclaim\n"
ROW = "demo/alpha/ncu.txt\tdemo/alpha\t1234abc\tncu --metrics x build/bin/alpha\talpha: it is fast\n"
PAGE = "chapters/demo/01_alpha/alpha.md"
TUNING = "chapters/demo/01_alpha/tuning.hpp"

TREE = {
    f"book/results/{GPU}/demo.csv": "# gpu: Some GPU\npart,step\ndemo,alpha\n",
    INDEX: HEADER + ROW,
    f"book/results/{GPU}/demo/alpha/ncu.txt": "# ncu --metrics x build/bin/alpha\nrows\n",
    PAGE: ("\\page alpha alpha: a step\n\nThe counters (\\evidence{some-gpu/demo/alpha/ncu.txt}):\n\n"
           "\\verbinclude demo/alpha/ncu.txt\n\nAn older run: "
           "`git show 1234abc:book/results/some-gpu/alpha_old_1234abc.txt`; CMakeLists.txt.\n"),
    TUNING: "// provenance: some-gpu/demo/alpha/ncu.txt\nconstexpr int BLOCK = 256;\n",
}


def append(path, text):
    def change(root):
        with open(os.path.join(root, path), "a", encoding="utf-8") as f:
            f.write(text)
    return change


def write(path, text):
    def change(root):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)
    return change


def remove(path):
    return lambda root: os.remove(os.path.join(root, path))


# name: (change, expected exit code, regex the output must match)
CASES = {
    "whole": (None, 0, r"1 indexed files, 0 problem"),
    "unindexed_file": (write(f"book/results/{GPU}/demo/alpha/extra.txt", "x\n"), 1,
                       r"demo/alpha/extra\.txt:1: error: not in some-gpu/evidence\.tsv"),
    "indexed_file_missing": (remove(f"book/results/{GPU}/demo/alpha/ncu.txt"), 1,
                             r"evidence\.tsv:3: error: demo/alpha/ncu\.txt is listed but missing"),
    "file_outside_part_step": (write(f"book/results/{GPU}/loose_1234abc.txt", "x\n"), 1,
                               r"loose_1234abc\.txt:1: error: evidence goes in "
                               r"some-gpu/<part>/<step>/<file>"),
    "no_index": (remove(INDEX), 1, r"evidence\.tsv:1: error: missing: 1 evidence files"),
    "row_without_claim": (write(INDEX, HEADER + ROW.replace("alpha: it is fast", "")), 1,
                          r"evidence\.tsv:3: error: demo/alpha/ncu\.txt has no claim"),
    "row_in_wrong_step": (write(INDEX, HEADER + ROW.replace("\tdemo/alpha\t", "\tdemo/beta\t")), 1,
                          r"error: step 'demo/beta' is not the file's <part>/<step>, demo/alpha"),
    "page_cites_missing_file": (append(PAGE, "See \\evidence{some-gpu/demo/alpha/gone.txt}.\n"),
                                1, r"alpha\.md:\d+: error: \\evidence\{some-gpu/demo/alpha/gone\.txt\}"
                                   r" names no indexed file"),
    "page_shows_missing_file": (append(PAGE, "\\verbinclude demo/alpha/gone.txt\n"), 1,
                                r"alpha\.md:\d+: error: \\verbinclude demo/alpha/gone\.txt names no "
                                r"evidence file"),
    "page_names_file_as_text": (append(PAGE, "As `alpha_ncu_1234abc.txt` shows.\n"), 1,
                                r"alpha\.md:\d+: error: 'alpha_ncu_1234abc\.txt' named as text"),
    "provenance_names_no_file": (append(TUNING, "// provenance: some-gpu/demo/alpha/gone.txt\n"), 1,
                                 r"tuning\.hpp:3: error: provenance key "
                                 r"'some-gpu/demo/alpha/gone\.txt' names no indexed evidence file"),
    "provenance_without_gpu": (append(TUNING, "// provenance: demo/alpha/ncu.txt\n"), 1,
                               r"tuning\.hpp:3: error: provenance key 'demo/alpha/ncu\.txt'"),
    "provenance_results_file_is_fine": (append(TUNING, "// provenance: some-gpu/demo.csv\n"), 0,
                                        r"0 problem"),
    "provenance_missing_results_file": (append(TUNING, "// provenance: some-gpu/other.csv\n"), 1,
                                        r"provenance key 'some-gpu/other\.csv'"),
}


def run_case(name, change, want_rc, pattern, work):
    root = os.path.join(work, name)
    for path, text in TREE.items():
        write(path, text)(root)
    if change:
        change(root)
    r = subprocess.run([sys.executable, CHECK, "--source-dir", root], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    problems = []
    if r.returncode != want_rc:
        problems.append(f"exit {r.returncode}, expected {want_rc}")
    if not re.search(pattern, r.stdout):
        problems.append(f"output does not match /{pattern}/")
    if problems:
        print(f"evidence_test {name}: FAIL: {'; '.join(problems)}\n{r.stdout}")
    else:
        print(f"evidence_test {name}: as expected (exit {r.returncode})")
    return not problems


def main():
    work = tempfile.mkdtemp(prefix="evidence_test_")
    try:
        ok = [run_case(name, *case, work) for name, case in CASES.items()]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
