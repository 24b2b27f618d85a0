#!/usr/bin/env python3
"""check_exercises.py: keeps exercises/ and solutions/ in sync (a unit test; no GPU).

    python3 common/tools/check_exercises.py [--root DIR]

For every exercises/<NN_name>/ and solutions/<NN_name>/ (name = the directory without NN_):
  - both exist, with exercises/<NN_name>/{README.md, <name>.cuh, main.cu, <name>_test.cu,
    <name>_entry.hpp, <name>_entry.cu, CMakeLists.txt} and solutions/<NN_name>/{<name>.cuh, grading.json, NOTES.md, CMakeLists.txt};
  - main.cu does not include <name>.cuh (only <name>_entry.cu does);
  - the skeleton equals the solution outside the regions `// >>> YOUR CODE: <region>` ...
    `// <<< YOUR CODE`, and both have the same regions in the same order;
  - every region of the skeleton holds a TODO, and no region of the solution does;
  - the README's header table has the rows part, read first, idea, libraries, speed target and
    speed figure; its libraries row is grading.json's rule (grade.libraries_text()), its speed
    target the grader's rule (grade.speed_target_text()), and its speed figure grading.json's,
    which is the one the committed H200 measurements give (book/results/nvidia-h200/exercises.csv:
    the solution's %copy over the grader's full-marks ratio, or its time times that ratio where no
    bytes move);
  - grading.json names the exercise and has cases, seeds, a timing case without --sweep and a
    sanitize case; its hidden cases reach at least the largest size of the exercise's public
    tests (<name>_test.cu), and pass 2^31 elements where the README demands 64-bit indices.
Prints one line per problem (file: what) and exits 1 if there is any.
"""
import argparse
import json
import os
import re
import sys

import grade  # noqa: E402  (beside this file; importers' runners set PYTHONPATH)

BEGIN = re.compile(r"^\s*// >>> YOUR CODE: (\S.*?)\s*$")
END = re.compile(r"^\s*// <<< YOUR CODE\s*$")
PARTS = {"intro", "reduction", "transpose", "scan", "sieve", "reversal"}
README_ROWS = ("part", "read first", "idea", "libraries", "speed target", "speed figure")
RESULTS = os.path.join("book", "results", "nvidia-h200", "exercises.csv")
MAX_SIZE = 2 ** 40
DEMANDS_64_BIT = re.compile(r"64-bit|2\^31")


def split_regions(text):
    """(outside lines with a placeholder per region, [(region name, body lines)]) or raises
    ValueError for an unmatched or nested marker."""
    outside, regions, current = [], [], None
    for number, line in enumerate(text.splitlines(), 1):
        if BEGIN.match(line):
            if current is not None:
                raise ValueError(f"line {number}: region inside region {current[0]!r}")
            current = (BEGIN.match(line).group(1), [])
            outside.append(line)
        elif END.match(line):
            if current is None:
                raise ValueError(f"line {number}: '<<< YOUR CODE' without its '>>> YOUR CODE'")
            regions.append(current)
            current = None
            outside.append(line)
        elif current is not None:
            current[1].append(line)
        else:
            outside.append(line)
    if current is not None:
        raise ValueError(f"region {current[0]!r} is not closed")
    return outside, regions


def readme_table(text):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\|\s*([a-z ]+?)\s*\|\s*(.*?)\s*\|\s*$", line)
        if m and m.group(1) in README_ROWS:
            rows[m.group(1)] = m.group(2)
    return rows


def public_largest(test_source):
    """The largest element count a public test file's GPU cases name: shifts like (std::int64_t(1) << 31) +
    77, matrices like `rows = 65537, cols = 32771`, and decimal literals (comments left out); an
    overestimate only asks for a larger hidden case."""
    text = re.sub(r"//[^\n]*", "", test_source)
    # Only the GPU cases run the student's code (host cases test the problem's helpers).
    text = "\n".join(part.split("TEST_CASE(")[0] for part in text.split("GPU_TEST_CASE(")[1:])
    sizes = [0]
    for m in re.finditer(r"\(?(?:std::u?int64_t\()?1(?:u?ll)?\)?\s*<<\s*(\d+)\)?"
                         r"(?:\s*([+-])\s*(\d+))?", text):
        value = 1 << int(m.group(1))
        if m.group(2):
            value += int(m.group(3)) * (1 if m.group(2) == "+" else -1)
        sizes.append(value)
    for m in re.finditer(r"rows\s*=\s*(\d+)\s*,\s*cols\s*=\s*(\d+)", text):
        sizes.append(int(m.group(1)) * int(m.group(2)))
    sizes += [int(m.group(1)) for m in re.finditer(r"(?<![\w.])(\d+)(?:u?ll|u)?\b", text)]
    # Past 2^40 (the largest --n any program takes) a number is no size: isqrt(2^62 - 1), a seed.
    return max(v for v in sizes if v <= MAX_SIZE)


def power_text(value):
    """268435456 -> 2^28, 10000000000 -> 10^10, else the number."""
    for base in (2, 10):
        e = 1
        while base ** e < value:
            e += 1
        if base ** e == value:
            return f"{base}^{e}"
    return str(value)


def measured_figures(root):
    """{step: the speed figure of the README} from the committed H200 measurements."""
    path = os.path.join(root, RESULTS)
    if not os.path.isfile(path):
        return {}
    import csv
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    figures = {}
    for r in rows:
        if r["part"] != "exercises" or r["step"] in figures:
            continue
        if r["step"] == "saxpy" and r["variant"] != "block=64":
            continue  # the program's default block
        size = (f"--rows {power_text(int(r['rows']))} --cols {power_text(int(r['cols']))}"
                if int(r["rows"]) > 0 else f"--n {power_text(int(r['n']))}")
        figures[r["step"]] = (size, float(r["pct_copy"]), float(r["median_ms"]),
                              float(r["bytes"]))
    return figures


def speed_figure(step, figures, speed_full):
    """The figure a student checks on the program's own output, beside the grader's rule."""
    if step not in figures:
        return (f"a figure from the H200 bench to come ({RESULTS} has no {step} row); until "
                "then the grader's rule")
    size, pct_copy, median_ms, nbytes = figures[step]
    if nbytes <= 0:
        return f"at most {median_ms * speed_full:.3g} ms (median ms) at `{size}` on an H200"
    return (f"at least {int(pct_copy / speed_full)}% of the copy yardstick (%copy) at `{size}` "
            "on an H200")


def exercise_dirs(folder):
    if not os.path.isdir(folder):
        return []
    return sorted(d for d in os.listdir(folder)
                  if re.match(r"^\d\d_[a-z0-9_]+$", d) and os.path.isdir(os.path.join(folder, d)))


def check(root):
    problems = []
    ex_root, sol_root = os.path.join(root, "exercises"), os.path.join(root, "solutions")
    ex_dirs, sol_dirs = exercise_dirs(ex_root), exercise_dirs(sol_root)
    figures = measured_figures(root)
    for d in sorted(set(sol_dirs) - set(ex_dirs)):
        problems.append(f"solutions/{d}: no exercises/{d}")
    if not ex_dirs:
        problems.append("exercises/: no <NN_name> directories")
    for d in ex_dirs:
        name = d[3:]
        ex, sol = f"exercises/{d}", f"solutions/{d}"
        if d not in sol_dirs:
            problems.append(f"{ex}: no {sol} (every exercise needs its solution)")
            continue
        missing = [f"{ex}/{f}" for f in ("README.md", f"{name}.cuh", "main.cu", f"{name}_test.cu",
                                          f"{name}_entry.hpp", f"{name}_entry.cu",
                                          "CMakeLists.txt")
                   if not os.path.isfile(os.path.join(root, ex, f))]
        missing += [f"{sol}/{f}" for f in (f"{name}.cuh", "grading.json", "NOTES.md",
                                           "CMakeLists.txt")
                    if not os.path.isfile(os.path.join(root, sol, f))]
        problems += [f"{m}: missing" for m in missing]
        if missing:
            continue
        with open(os.path.join(root, ex, "main.cu")) as f:
            if re.search(r"#include\s*[<\"]" + re.escape(name) + r"\.cuh", f.read()):
                problems.append(f"{ex}/main.cu: includes {name}.cuh (only {name}_entry.cu may: "
                                "the student's macros must not reach the program)")
        with open(os.path.join(root, ex, f"{name}.cuh")) as f:
            skeleton = f.read()
        with open(os.path.join(root, sol, f"{name}.cuh")) as f:
            solution = f.read()
        try:
            sk_out, sk_regions = split_regions(skeleton)
            so_out, so_regions = split_regions(solution)
        except ValueError as e:
            problems.append(f"{ex}/{name}.cuh or {sol}/{name}.cuh: {e}")
            continue
        if not sk_regions:
            problems.append(f"{ex}/{name}.cuh: no '>>> YOUR CODE' region")
        if [r[0] for r in sk_regions] != [r[0] for r in so_regions]:
            problems.append(f"{sol}/{name}.cuh: regions {[r[0] for r in so_regions]} differ from "
                            f"the skeleton's {[r[0] for r in sk_regions]}")
        if sk_out != so_out:
            for i, (a, b) in enumerate(zip(sk_out + [""] * len(so_out), so_out + [""] * len(sk_out))):
                if a != b:
                    problems.append(f"{sol}/{name}.cuh: differs from the skeleton outside the "
                                    f"regions: {b.strip()!r} where the skeleton has {a.strip()!r}")
                    break
        for region, body in sk_regions:
            if not any("TODO" in line for line in body):
                problems.append(f"{ex}/{name}.cuh: region {region!r} holds no TODO")
        for region, body in so_regions:
            if any("TODO" in line or "common::todo" in line for line in body):
                problems.append(f"{sol}/{name}.cuh: region {region!r} still holds a TODO")
        try:
            with open(os.path.join(root, sol, "grading.json")) as f:
                spec_json = json.load(f)
            specs = {s.dir: s for s in grade.load_specs(os.path.join(root, "solutions"))}
            spec = specs[d]
        except (ValueError, KeyError) as e:
            problems.append(f"{sol}/grading.json: unreadable ({e})")
            continue
        if spec_json.get("name") != name:
            problems.append(f"{sol}/grading.json: name {spec_json.get('name')!r}, not {name!r}")
        if not spec.cases or not spec.seeds or not spec.sanitize:
            problems.append(f"{sol}/grading.json: needs cases, seeds and a sanitize case")
        if "--sweep" in spec.timing or not spec.timing:
            problems.append(f"{sol}/grading.json: the timing case must be one run (no --sweep)")
        with open(os.path.join(root, ex, "README.md")) as f:
            readme = f.read()
        rows = readme_table(readme)
        hidden = max(grade.case_elements(c) for c in spec.cases)
        with open(os.path.join(root, ex, f"{name}_test.cu")) as f:
            public = public_largest(f.read())
        if hidden < public:
            problems.append(f"{sol}/grading.json: the largest hidden case has {hidden} elements, "
                            f"fewer than the public tests' {public}")
        if DEMANDS_64_BIT.search(readme) and hidden <= 2 ** 31:
            problems.append(f"{sol}/grading.json: the README demands 64-bit indices, but no "
                            "hidden case passes 2^31 elements")
        unknown = set(spec.libraries) - set(grade.KNOWN_LIBRARIES)
        if unknown:
            problems.append(f"{sol}/grading.json: unknown libraries {sorted(unknown)}")
        want_figure = speed_figure(name, figures, spec.speed_full)
        if spec.speed_figure != want_figure:
            problems.append(f"{sol}/grading.json: speed_figure {spec.speed_figure!r} is not the "
                            f"measured one: {want_figure!r}")
        for row in README_ROWS:
            if row not in rows:
                problems.append(f"{ex}/README.md: the header table has no '{row}' row")
        parts = [p.strip() for p in rows.get("part", "").split(",")]
        if rows.get("part") and not all(p in PARTS or p == "any" for p in parts):
            problems.append(f"{ex}/README.md: part {rows['part']!r}: not one of "
                            f"{', '.join(sorted(PARTS))} or any")
        want = grade.speed_target_text(spec)
        if "speed target" in rows and rows["speed target"] != want:
            problems.append(f"{ex}/README.md: speed target {rows['speed target']!r} is not the "
                            f"grader's: {want!r}")
        if "speed figure" in rows and rows["speed figure"] != spec.speed_figure:
            problems.append(f"{ex}/README.md: speed figure {rows['speed figure']!r} is not "
                            f"grading.json's: {spec.speed_figure!r}")
        want = grade.libraries_text(spec)
        if "libraries" in rows and rows["libraries"] != want:
            problems.append(f"{ex}/README.md: libraries {rows['libraries']!r} are not "
                            f"grading.json's: {want!r}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=grade.REPO)
    a = ap.parse_args()
    problems = check(a.root)
    for p in problems:
        print(p)
    count = len(exercise_dirs(os.path.join(a.root, "exercises")))
    print(f"check_exercises: {count} exercise(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
