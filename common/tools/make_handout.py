#!/usr/bin/env python3
"""make_handout.py: the students' copy of the repository, as a .tar.gz without the answers.

    python3 common/tools/make_handout.py [--source-dir DIR] [--out FILE.tar.gz]
    (or: cmake --build --preset default --target handout -> build/handout/<name>.tar.gz)

The handout holds the repository's files (git's tracked and untracked-but-not-ignored files, or
every file outside build*/ and dot-directories when there is no git) except solutions/, which
holds the answers and the grader's hidden sizes and seeds. Before writing, it checks that no file
it would ship is under solutions/ or named grading.json, that no solution's code (the body of
any `>>> YOUR CODE` region of solutions/*/*.cuh) appears in any shipped file, that every region of
every shipped skeleton (exercises/<NN_name>/<name>.cuh) still holds its TODO, and that no script
(.py, .sh) of common/tools/ or exercises/ holds kernel code (a tool that writes a working answer,
as a fault planter would: those live in solutions/grader-check/); it refuses to write
(exit 1) otherwise. `--verify DIR` runs the same checks on an unpacked handout.
"""
import argparse
import io
import os
import re
import subprocess
import sys
import tarfile

import check_exercises  # noqa: E402  (beside this file; importers' runners set PYTHONPATH)
import grade  # noqa: E402

NAME = "cuda-optimization-book-handout"
MIN_BODY_CHARS = 30   # shorter region bodies are too generic to identify a solution
# Kernel code in a script: built from pieces, so that this file does not match itself.
KERNEL_CODE = re.compile(r"\b(" + "|".join(w + "Idx" for w in ("block", "thread")) +
                         r"|grid" + r"Dim|__sync" + r"threads)\b|<" + r"<<(?! YOUR CODE)[^<>\n]*>" + r">>")
TOOL_DIRS = ("common/tools/", "exercises/")   # the grader's and the students' scripts


def normalize(text):
    return re.sub(r"\s+", " ", text).strip()


def solution_bodies(solutions_dir):
    """{"<NN_name>/<region>": normalized body} of every solution region worth looking for."""
    bodies = {}
    for d in check_exercises.exercise_dirs(solutions_dir):
        for f in sorted(os.listdir(os.path.join(solutions_dir, d))):
            if not f.endswith((".cuh", ".cu", ".hpp", ".h")):
                continue
            with open(os.path.join(solutions_dir, d, f)) as fh:
                _, regions = check_exercises.split_regions(fh.read())
            for region, body in regions:
                code = [l for l in body if not l.strip().startswith("//")]
                text = normalize("\n".join(code))
                if len(text.replace(" ", "")) >= MIN_BODY_CHARS:
                    bodies[f"{d}/{region}"] = text
    return bodies


def list_files(source_dir):
    try:
        out = subprocess.run(["git", "-C", source_dir, "ls-files", "-co", "--exclude-standard",
                              "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(source_dir):
            rel = os.path.relpath(top, source_dir)
            dirs[:] = [d for d in dirs if not d.startswith(".") or d == ".ci"]
            if rel == ".":
                dirs[:] = [d for d in dirs if not d.startswith("build")]
            files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return sorted(f for f in files if os.path.isfile(os.path.join(source_dir, f)))


def shipped(path):
    return not (path == "solutions" or path.startswith("solutions/") or
                os.path.basename(path) == "grading.json")


def leaks(files, read, bodies):
    """Problems: files that must not ship, and shipped files holding a solution's code."""
    problems = [f"{f}: an instructor's file" for f in files if not shipped(f)]
    for f in files:
        try:
            raw = read(f).decode("utf-8")
        except UnicodeDecodeError:
            continue
        text = normalize(raw)
        if f.startswith(TOOL_DIRS) and f.endswith((".py", ".sh")) and KERNEL_CODE.search(raw):
            problems.append(f"{f}: a script holding kernel code ({KERNEL_CODE.search(raw).group(0)})")
        m = re.match(r"^exercises/(\d\d_([a-z0-9_]+))/\2\.cuh$", f)
        if m:
            try:
                _, regions = check_exercises.split_regions(raw)
            except ValueError as e:
                regions, _ = [], problems.append(f"{f}: {e}")
            for region, body in regions:
                if not any("TODO" in line for line in body):
                    problems.append(f"{f}: region {region!r} is filled in (no TODO): an answer")
        for where, body in bodies.items():
            if body in text:
                problems.append(f"{f}: holds the code of solutions/{where}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source-dir", default=grade.REPO)
    ap.add_argument("--out", default=os.path.join(grade.REPO, "build", "handout", NAME + ".tar.gz"))
    ap.add_argument("--verify", metavar="DIR", help="check an unpacked handout instead")
    a = ap.parse_args()
    bodies = solution_bodies(os.path.join(a.source_dir, "solutions"))
    if not bodies:
        print("make_handout: no solution code found to keep out (is solutions/ there?)",
              file=sys.stderr)
        return 2

    if a.verify:
        files = [os.path.relpath(os.path.join(t, n), a.verify)
                 for t, _, names in os.walk(a.verify) for n in names]
        problems = leaks(files, lambda f: open(os.path.join(a.verify, f), "rb").read(), bodies)
    else:
        files = [f for f in list_files(a.source_dir) if shipped(f)]
        problems = leaks(files, lambda f: open(os.path.join(a.source_dir, f), "rb").read(),
                         bodies)
    for p in problems:
        print(f"make_handout: {p}", file=sys.stderr)
    if problems:
        return 1
    if a.verify:
        print(f"make_handout: {a.verify}: {len(files)} files, no solution inside")
        return 0

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    tmp = a.out + ".tmp"
    with tarfile.open(tmp, "w:gz") as tar:
        for f in files:
            tar.add(os.path.join(a.source_dir, f), arcname=f"{NAME}/{f}", recursive=False)
    os.replace(tmp, a.out)
    print(f"make_handout: {a.out}: {len(files)} files ({os.path.getsize(a.out) / 1e6:.1f} MB), "
          f"without solutions/ ({len(bodies)} solution regions checked absent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
