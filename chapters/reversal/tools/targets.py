#!/usr/bin/env python3
"""targets.py RESULTS_FILE > reversal_targets.html

The table of the reversal part's performance targets, generated from the committed
results file: the final out-of-place step (reverse_fast) and the in-place step (reverse_in_place),
int32, their default variants, each as a multiple of the cudaMemcpy device-to-device yardstick and
of its Thrust peer measured in the same run, beside the target and whether it is met. Written for
book/tools/build_book.py to call; it prints "(not measured)" where the file has no row.
"""
import sys

import gen_results

N28 = 2**28
# (step, its default variant, n, what it is compared with, target multiple)
TARGETS = [
    ("reverse_fast", "unroll 1", N28, "memcpy", 0.97),
    ("reverse_fast", "unroll 1", N28 + 3, "memcpy", 0.95),
    ("reverse_fast", "unroll 1", N28, "peer", 1.20),
    ("reverse_fast", "unroll 1", N28 + 3, "peer", 1.20),
    ("reverse_in_place", "unroll 1", N28, "memcpy", 0.95),
    ("reverse_in_place", "unroll 1", N28, "peer", 1.00),
    ("reverse_in_place", "unroll 1", N28 + 3, "memcpy", 0.95),
    ("reverse_in_place", "unroll 1", N28 + 3, "peer", 1.00),
]
PEERS = {"reverse_fast": "thrust::reverse_copy", "reverse_in_place": "thrust::reverse"}


def size_text(n):
    return "2<sup>28</sup>" if n == N28 else f"2<sup>28</sup> + {n - N28}"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ""
    results = gen_results.load(path) if path else None
    body = []
    for step, variant, n, versus, target in TARGETS:
        row = None
        if results is not None:
            row = next((r for r in results.step_rows(step) if r["variant"] == variant
                        and r["type"] == "int32" and int(r["n"]) == n), None)
        other = "<code>cudaMemcpy</code> D2D" if versus == "memcpy" else \
            f"<code>{PEERS[step]}</code>"
        cells = [f"<code>{step}</code> ({variant}, int32)", size_text(n), other]
        if row is None:
            cells += [gen_results.NOT_MEASURED] * 3 + [f"≥ {target:.2f}×", "—"]
        else:
            theirs = row["copy_gbps"] if versus == "memcpy" else row["peer_gbps"]
            ratio = row["gbps"] / theirs if theirs else 0.0
            cells += [f"{gen_results.fmt_gbps(row['gbps'])} GB/s",
                      f"{gen_results.fmt_gbps(theirs)} GB/s" if theirs else gen_results.NOT_MEASURED,
                      gen_results.fmt_speedup(ratio) if theirs else "—",
                      f"≥ {target:.2f}×",
                      ("met" if ratio >= target else "<b>missed</b>") if theirs else "—"]
        body.append("".join(f"<td>{c}</td>" for c in cells))
    head = ["step", "n", "against", "step GB/s", "against GB/s", "ratio", "target", ""]
    caption = ("The part's targets, one run on the GPU of the results file: each "
               "ratio divides the step's bandwidth by the yardstick or the peer of the same row")
    print(gen_results.captioned_table(caption, head, body), end="")


if __name__ == "__main__":
    main()
