#!/usr/bin/env python3
"""compare_results.py BEFORE.csv AFTER.csv [--tolerance 2] [--source-dir DIR]

Sets two results files of one part side by side, row by row: each row of AFTER that has a row of
BEFORE with the same step, variant, type and size (n, rows, cols), with the ratio of their effective
bandwidth (or, for the sieve, of their rates). Prints one line per matched row and a summary: how
many rows are within the tolerance (default 2%), how many faster and slower beyond it, and which
steps changed their code (not their tests or pages) between the two files' commits, given a git
checkout (--source-dir).
Yardstick rows are compared too: they show how much the machine itself moved between the runs.

Used for the evidence that a change of build or layout left the measured speed as it was (for
example book/results/<gpu>/all/all/reference_run_against_before.txt). Exit 0, or 2 on bad usage.
"""
import argparse
import os
import subprocess
import sys

import gen_results  # beside this file: the results loader, and what counts as a step's code


# Rows that move at least this many bytes take tens of microseconds on a GPU of a few TB/s, far
# above the launch floor; below it a few hundred nanoseconds of launch jitter are several percent.
LARGE_BYTES = 64 << 20


def key(r):
    return (r["step"], r["variant"], r["type"], r["n"], r["rows"], r["cols"])


def changed_steps(source_dir, before, after, part):
    """Step folders of the part whose files differ between the two commits (None without git)."""
    if not source_dir or not before or not after:
        return None
    r = subprocess.run(["git", "-C", source_dir, "diff", "--name-only", before, after, "--",
                        f"chapters/{part}", "common"], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    names = set()
    for path in r.stdout.split():
        parts = path.split("/")
        if not gen_results.is_step_code(path):
            continue  # pages, tests and scripts do not change what a program measures
        if len(parts) > 3 and parts[0] == "chapters":
            names.add(parts[2].split("_", 1)[-1])
        elif parts[0] == "common":
            names.add("common/" + "/".join(parts[1:]))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--tolerance", type=float, default=2.0, help="percent (default 2)")
    ap.add_argument("--source-dir", default=None, help="a git checkout, to name changed steps")
    args = ap.parse_args()
    if args.tolerance <= 0:
        print("compare_results: --tolerance must be more than 0", file=sys.stderr)
        return 2
    for p in (args.before, args.after):
        if not os.path.isfile(p):
            print(f"compare_results: {p}: no such file", file=sys.stderr)
            return 2
    before_file, after_file = gen_results.load(args.before), gen_results.load(args.after)
    meta_b, rows_b = before_file.meta, before_file.rows
    meta_a, rows_a = after_file.meta, after_file.rows
    before = {}
    for r in rows_b:
        before.setdefault(key(r), r)
    part = rows_a[0]["part"] if rows_a else ""
    for r in rows_a:
        if r["part"] != "yardstick":
            part = r["part"]
            break
    changed = changed_steps(args.source_dir, meta_b.get("git_commit"), meta_a.get("git_commit"),
                            part)
    tol = args.tolerance / 100
    counts = {"within": 0, "faster": 0, "slower": 0}
    large = {"within": 0, "faster": 0, "slower": 0}  # rows that move at least LARGE_BYTES
    by_step = {}
    print(f"# before: {args.before} ({meta_b.get('git_commit', '?')[:12]}, {meta_b.get('date', '?')})")
    print(f"# after:  {args.after} ({meta_a.get('git_commit', '?')[:12]}, {meta_a.get('date', '?')})")
    if changed is not None:
        steps = sorted(c for c in changed if not c.startswith("common/"))
        shared = len(changed) - len(steps)
        print(f"# code changed between the commits: {', '.join(steps) or 'no step of this part'}"
              f"{f'; {shared} files under common/' if shared else ''}")
    print(f"{'step':24s} {'variant':28s} {'type':7s} {'size':>22s} {'before':>10s} {'after':>10s} {'ratio':>7s}")
    for r in rows_a:
        b = before.get(key(r))
        if b is None:
            continue
        vb, va = b["gbps"], r["gbps"]
        if vb <= 0 or va <= 0:
            continue
        ratio = va / vb
        verdict = "within" if abs(ratio - 1) <= tol else ("faster" if ratio > 1 else "slower")
        counts[verdict] += 1
        if r["bytes"] >= LARGE_BYTES:
            large[verdict] += 1
        s = by_step.setdefault(r["step"], {"within": 0, "faster": 0, "slower": 0})
        s[verdict] += 1
        size = f"{r['n']:.0f}" if r["rows"] == 0 else f"{r['rows']:.0f}x{r['cols']:.0f}"
        mark = "" if verdict == "within" else f"  {verdict}"
        print(f"{r['step']:24s} {r['variant'][:28]:28s} {r['type']:7s} {size:>22s} {vb:10.1f} "
              f"{va:10.1f} {ratio:7.3f}{mark}")
    total = sum(counts.values())
    print(f"# {total} rows matched: {counts['within']} within {args.tolerance:g}%, "
          f"{counts['faster']} faster, {counts['slower']} slower")
    print(f"# of them {sum(large.values())} rows of at least {LARGE_BYTES >> 20} MiB (GPU time well "
          f"above the launch floor): {large['within']} within, {large['faster']} faster, "
          f"{large['slower']} slower")
    for step, s in by_step.items():
        if s["faster"] or s["slower"]:
            code = ""
            if changed is not None:
                code = " (its code changed)" if any(step.endswith(c) or c == step for c in changed) \
                    else " (its code did not change)"
            print(f"#   {step}: {s['within']} within, {s['faster']} faster, {s['slower']} slower{code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
