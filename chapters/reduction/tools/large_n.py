#!/usr/bin/env python3
"""large_n.py RESULTS_FILE > reduction_large_n.html

The final step (reduce11) against cub::DeviceReduce::Sum at the large sizes, on every GPU whose
results directory (a sibling of RESULTS_FILE's) holds the reduction part, in both committed runs:
reduction.csv (the first run) and reduction/reduce11/reduction_rerun.txt (the second, made from another bench run by
rerun_evidence.py). Each row gives both times and their ratio, measured in one process; the
goal, at least CUB's speed in every run, is checked per row. Prints a note where a file is
missing.
"""
import html
import os
import sys

import gen_results

FINAL, DEFAULT_VARIANT = "reduce11", "split=claimed"
SIZES = (2**28, 2**30, 2**32)
TARGET = 1.0  # at least CUB's speed (time ratio), in every run


def td(text):
    return f"<td>{html.escape(text)}</td>"


def of_this_version(results):
    """Runs of reduce11's earlier versions name other code split=claimed (32 KiB tiles, until the
    step took 64 KiB ones and the 32 KiB claims became the variant unroll=4): only a run with an
    unroll=4 row is of this version."""
    return any(r["variant"] == "unroll=4" for r in results.step_rows(FINAL))


def final_row(results, n, type_, variant=DEFAULT_VARIANT):
    """reduce11's row at n for type_ and variant; None if the run has none or is of an earlier
    version of the step."""
    if results is None or not of_this_version(results):
        return None
    return next((r for r in results.step_rows(FINAL) if int(r["n"]) == n and r["type"] == type_
                 and r["variant"] == variant and r["bytes"] > 0), None)


def ratio_of(r):
    """CUB's time over ours: above 1 means faster than CUB (the same bytes, the same process)."""
    return r["pct_peer"] / 100.0 if r and r["peer_gbps"] > 0 else None


def gpu_dirs(results_path):
    """The shown GPU's directory first, then the others that hold the reduction part."""
    shown = os.path.dirname(os.path.abspath(results_path))
    root = os.path.dirname(shown)
    others = sorted(d for d in (os.path.join(root, name) for name in os.listdir(root))
                    if d != shown and os.path.exists(os.path.join(d, "reduction.csv")))
    return [shown] + others


def load_or_none(path):
    return gen_results.load(path) if os.path.exists(path) else None


def gpus_and_runs(results_path):
    """(GPU name, [run 1, run 2]) for every GPU directory, the shown one first; a missing run is
    None."""
    for d in gpu_dirs(results_path):
        runs = [load_or_none(os.path.join(d, "reduction.csv")),
                load_or_none(os.path.join(d, "reduction", "reduce11", "reduction_rerun.txt"))]
        yield next((r.gpu() for r in runs if r is not None), os.path.basename(d)), runs


def gpus_from_argv():
    """gpus_and_runs() for the results file named on the command line, as a list; None, after
    printing a note, when there is none."""
    path = sys.argv[1] if len(sys.argv) > 1 else ""
    if not path:
        sys.stdout.write("<p>(not measured: no reduction results)</p>\n")
        return None
    return list(gpus_and_runs(path))


def main():
    gpus = gpus_from_argv()
    if gpus is None:
        return
    body = []
    for gpu, runs in gpus:
        for n in SIZES:
            for type_ in ("int32", "float"):
                cells, ratios = [], []
                for run in runs:
                    r = final_row(run, n, type_)
                    ratio = ratio_of(r)
                    ratios.append(ratio)
                    if r is None:
                        cells.append(td("(not measured)") * 3)
                        continue
                    cub_ms = r["bytes"] / (r["peer_gbps"] * 1e9) * 1e3
                    cells.append(td(gen_results.fmt_time(r["median_ms"]))
                                 + td(gen_results.fmt_time(cub_ms))
                                 + td(gen_results.fmt_ratio(ratio)))
                if None in ratios:
                    goal = "not measured in both runs"
                else:
                    goal = "met" if min(ratios) >= TARGET else "not met"
                body.append(td(gpu) + f"<td>2<sup>{n.bit_length() - 1}</sup></td>" + td(type_)
                            + "".join(cells) + td(goal))
    head = ["GPU", "size", "type", "run 1: reduce11", "run 1: CUB", "run 1: ratio",
            "run 2: reduce11", "run 2: CUB", "run 2: ratio", f"≥ {TARGET:.2f}× CUB in both runs"]
    sys.stdout.write(gen_results.captioned_table(
        f"{FINAL} ({DEFAULT_VARIANT}) against cub::DeviceReduce::Sum (64-bit item count), each "
        "measured in the same process on the same input; run 1 is the GPU's reduction.csv, run 2 "
        "its reduction/reduce11/reduction_rerun.txt (a second bench run); ratio = CUB's time / reduce11's, rounded "
        "down to 3 decimals", head, body))


if __name__ == "__main__":
    main()
