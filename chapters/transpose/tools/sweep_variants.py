#!/usr/bin/env python3
"""sweep_variants.py RESULTS_FILE > transpose_any_shape_variants.html

Every --sweep variant of the final transpose (transpose_any_shape) at each shape its bench runs
with --sweep, as a share of the memcpy yardstick measured in the same process: one row per shape,
one column per variant, the default first. One table for the GPU the book shows, then one for each
other GPU whose results have the step (shape_sweep.py's other_gpus: its bench run of the part, or
a run of the step alone). A variant a run does not have (older runs have fewer) is left empty.
Written for book/tools/build_book.py to call.
"""
import html
import sys

import gen_results
from shape_sweep import STEP, other_gpus


def variants_table(results):
    gpu = results.gpu()
    by_shape = {}  # (rows, cols) -> {variant: row}
    order = []     # variants in the order the runs printed them
    for r in results.step_rows(STEP):
        by_shape.setdefault((int(r["rows"]), int(r["cols"])), {})[r["variant"]] = r
        if r["variant"] not in order:
            order.append(r["variant"])
    swept = sorted((s for s, v in by_shape.items() if len(v) > 1), key=lambda s: (s[0] * s[1], s))
    if not swept:
        return f"<p>The bench run of {html.escape(gpu)} has no --sweep of {STEP}.</p>\n"
    body = []
    for shape in swept:
        cells = "".join(
            f"<td>{gen_results.fmt_pct(by_shape[shape][v]['pct_copy'])}</td>"
            if v in by_shape[shape] else "<td></td>" for v in order)
        body.append(f"<td>{shape[0]} &times; {shape[1]}</td>{cells}")
    return gen_results.captioned_table(
        f"{STEP} on {gpu}: each --sweep variant's share of memcpy device to device (%) at the "
        "shapes the bench sweeps, one process per shape",
        ["rows × cols"] + [html.escape(v or "default") for v in order], body)


def main():
    results = gen_results.load(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    out = []
    shown = ""
    if results is not None and results.step_rows(STEP):
        out.append(variants_table(results))
        shown = results.gpu()
    for other, source in other_gpus(shown):
        out.append(f"<p>The same on the {html.escape(other.gpu())} ({source}):</p>\n"
                   + variants_table(other))
    if not out:
        out.append(f"<p>{STEP} is not measured in the results (not measured).</p>\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
