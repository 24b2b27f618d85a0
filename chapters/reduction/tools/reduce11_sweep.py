#!/usr/bin/env python3
"""reduce11_sweep.py RESULTS_FILE > reduction_reduce11_sweep.html

reduce11's variants at the reference size (2^28), on every GPU whose results directory holds the
reduction part and in each committed run (reduction.csv; the second run, reduction/reduce11/reduction_rerun.txt,
holds only the final step's rows): each variant's time, its share of the read-only yardstick and
its speed against cub::DeviceReduce::Sum measured in the same process, with reduce10 (32-bit
indices, whole tiles) beside them. A run without an unroll=4 row was made by an earlier version
of the step, whose variants had other meanings (large_n.of_this_version): its rows are shown as
not measured.
"""
import sys

import large_n
from large_n import gen_results, td

VARIANTS = ("split=claimed", "unroll=4", "split=tiles", "split=groups", "split=strided")
N = 2**28


def cells(r):
    if r is None:
        return td("(not measured)") * 3
    return (td(gen_results.fmt_time(r["median_ms"])) + td(gen_results.fmt_pct(r["pct_read"]))
            + td(gen_results.fmt_ratio(large_n.ratio_of(r))))


def main():
    gpus = large_n.gpus_from_argv()
    if gpus is None:
        return
    body = []
    for gpu, runs in gpus:
        for type_ in ("int32", "float"):
            first = runs[0]
            reduce10 = None
            if first is not None:
                reduce10 = next((r for r in first.step_rows("reduce10") if int(r["n"]) == N
                                 and r["type"] == type_ and r["bytes"] > 0), None)
            body.append(td(gpu) + td(type_) + td("reduce10") + cells(reduce10)
                        + td("(only reduce11 is kept from run 2)") + td("") + td(""))
            current = [run if large_n.final_row(run, N, type_) is not None else None
                       for run in runs]  # runs of this version of the step only
            for variant in VARIANTS:
                body.append(td(gpu) + td(type_) + td(f"reduce11 {variant}")
                            + "".join(cells(large_n.final_row(run, N, type_, variant))
                                      for run in current))
    head = ["GPU", "type", "step, variant", "run 1: time", "run 1: % of read-only",
            "run 1: vs CUB", "run 2: time", "run 2: % of read-only", "run 2: vs CUB"]
    sys.stdout.write(gen_results.captioned_table(
        "reduce11's variants at 2^28 elements, each against cub::DeviceReduce::Sum measured in the "
        "same process (vs CUB = CUB's time / the variant's, rounded down to 3 decimals); reduce10 "
        "from the same first run", head, body))


if __name__ == "__main__":
    main()
