#!/usr/bin/env python3
"""shape_sweep.py RESULTS_FILE > transpose_shape_sweep.html

The shape sweep of the final transpose (transpose_any_shape) against cublasSgeam and the memcpy
yardstick, every shape it was measured at, grouped by shape class, with the targets of the issue
that asked for it: at least cublasSgeam's bandwidth for every shape (same run), at least 90% of
memcpy device to device for every shape of at least 4096^2 floats whose sides are both at least 64,
and at least 95% of it at 16384 x 16384. transpose_fast's rows at the same shapes stand beside it.
Then the same table for each other GPU that has the step in its bench run of the part
(book/results/<gpu>/transpose.csv), or else a run of the step alone (the bench's `--only
transpose_any_shape` file, committed as
book/results/<gpu>/transpose/transpose_any_shape/sweep.txt).
Written for book/tools/build_book.py to call; "(not measured)" where the results file has none.
"""
import html
import os
import sys

import gen_results

STEP = "transpose_any_shape"
BEFORE = "transpose_fast"
# The shape classes, in the order the table shows them.
CLASSES = ["squares and sides that are multiples of 64", "multiples of 4, not of 64",
           "sides not multiples of 4", "more than 2^31 elements", "tall and skinny, both ways",
           "one row or one column"]


def shape_class(rows, cols):
    if rows == 1 or cols == 1:
        return CLASSES[5]
    if max(rows, cols) >= 1000 * min(rows, cols):
        return CLASSES[4]
    if rows * cols > 2**31:
        return CLASSES[3]
    if rows % 4 or cols % 4:
        return CLASSES[2]
    if rows % 64 or cols % 64:
        return CLASSES[1]
    return CLASSES[0]


def memcpy_target(rows, cols):
    """The memcpy share a shape must reach (%), or None where the issue sets none."""
    if rows == 16384 and cols == 16384:
        return 95.0
    if rows * cols >= 4096 * 4096 and min(rows, cols) >= 64:
        return 90.0
    return None


def verdict(ok):
    return f"<td>{'met' if ok else 'missed'}</td>"


def other_gpus(shown):
    """(results, source) for every GPU under book/results/ but the one named `shown` whose results
    have the step: its bench run of the part (book/results/<gpu>/transpose.csv) where that has it,
    else a run of the step alone (transpose/transpose_any_shape/sweep.txt, the bench's file of `--only
    transpose_any_shape`). `source` names the file, as HTML. Also used by sweep_variants.py."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "book",
                        "results")
    for gpu_dir in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        for name, what in (("transpose.csv", "its bench run of the part"),
                           ("transpose/transpose_any_shape/sweep.txt", "a run of this step alone")):
            path = os.path.join(root, gpu_dir, name)
            if os.path.exists(path):
                other = gen_results.load(path)
                if other.step_rows(STEP):
                    if other.gpu() != shown:
                        yield other, f"{what}: <code>{html.escape(gpu_dir)}/{name}</code>"
                    break


def main():
    results = gen_results.load(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    out = [sweep_table(results)]
    # Every other GPU's sweep, each as a table of its own.
    shown = results.gpu() if results and results.step_rows(STEP) else ""
    for other, source in other_gpus(shown):
        out.append(f"<p>The same sweep on the {html.escape(other.gpu())} ({source}):</p>\n"
                   + sweep_table(other))
    sys.stdout.write("".join(out))


def sweep_table(results):
    gpu = results.gpu() if results else "our GPU (not measured)"
    rows_of = {}
    before = {}
    if results is not None:
        for r in results.step_rows(STEP):
            if r["variant"] == "":
                rows_of[(int(r["rows"]), int(r["cols"]))] = r
        for r in results.step_rows(BEFORE):
            if r["variant"] == "":
                before[(int(r["rows"]), int(r["cols"]))] = r
    body = []
    counts = {"peer": [0, 0], "copy": [0, 0]}
    for cls in CLASSES:
        shapes = sorted((s for s in rows_of if shape_class(*s) == cls),
                        key=lambda s: (s[0] * s[1], s))
        if not shapes:
            body.append(f"<td>{html.escape(cls)}</td><td>(not measured)</td>" + "<td></td>" * 7)
            continue
        for rows, cols in shapes:
            r = rows_of[(rows, cols)]
            b = before.get((rows, cols))
            peer_ok = r["pct_peer"] >= 100.0
            counts["peer"][0 if peer_ok else 1] += 1
            target = memcpy_target(rows, cols)
            if target is None:
                copy_cell = "<td>(none)</td>"
            else:
                copy_ok = r["pct_copy"] >= target
                counts["copy"][0 if copy_ok else 1] += 1
                copy_cell = (f"<td>{'met' if copy_ok else 'missed'} "
                             f"(&ge; {target:.0f}%)</td>")
            body.append(f"<td>{html.escape(cls)}</td><td>{rows} &times; {cols}</td>"
                        f"<td>{gen_results.fmt_gbps(r['gbps'])}</td>"
                        f"<td>{gen_results.fmt_gbps(r['peer_gbps'])}</td>"
                        f"<td>{gen_results.fmt_pct(r['pct_peer'])}</td>"
                        f"<td>{gen_results.fmt_pct(r['pct_copy'])}</td>"
                        + (f"<td>{gen_results.fmt_pct(b['pct_peer'])}</td>" if b else "<td></td>")
                        + verdict(peer_ok) + copy_cell)
    if not rows_of:
        summary = f"<p>{STEP} is not measured in the results of {html.escape(gpu)}.</p>\n"
    else:
        commit = gen_results.short_commit(results.meta.get("git_commit", ""))
        summary = (f"<p>On the {html.escape(gpu)} (commit {html.escape(commit)}): at least "
                   f"cublasSgeam's bandwidth at "
                   f"{counts['peer'][0]} of {sum(counts['peer'])} shapes; the memcpy target met "
                   f"at {counts['copy'][0]} of {sum(counts['copy'])} shapes that have one.</p>\n")
    return (summary + gen_results.captioned_table(
        f"{STEP} on {gpu} at every measured shape, default variant, each row one run with "
        "cublasSgeam and the memcpy yardstick measured in the same process; transpose_fast's "
        "share of cublasSgeam where the bench also ran it at that shape",
        ["shape class", "rows × cols", "GB/s", "cublasSgeam GB/s", "% of cublasSgeam",
         "% of memcpy D2D", "transpose_fast, % of cublasSgeam", "target &ge; 100% of cublasSgeam",
         "target on memcpy D2D"], body))


if __name__ == "__main__":
    main()
