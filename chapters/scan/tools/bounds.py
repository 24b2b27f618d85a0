#!/usr/bin/env python3
"""bounds.py RESULTS_FILE > scan_bounds.html

The byte count of each multi-pass scan and the share of its own bound it reaches, at 2^28. The
book's GB/s count the 2 n elements a scan must move; a step that moves k n elements (scan_large 4,
scan_reduce_then_scan 3, scan_lookback and scan_pipelined 2, plus a few per tile) can at best
reach the copy yardstick's GB/s x 2 / k on that scale. Written for book/tools/build_book.py to call.
"""
import html
import sys

import gen_results

from then_now import row  # (a step's default row: the defaults are named there)

# (step, elements moved per element scanned, what moves them)
STEPS = [("scan_large", 4, "tile scans read n and write n; the add pass reads n and writes n"),
         ("scan_reduce_then_scan", 3, "the reduce pass reads n; the scan pass reads n, writes n"),
         ("scan_lookback", 2, "one pass: reads n, writes n"),
         ("scan_pipelined", 2, "one pass: reads n, writes n")]
BIG = 2**28


def main():
    results = gen_results.load(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    gpu = results.gpu() if results else "our GPU (not measured)"
    body = []
    for step, k, what in STEPS:
        for type_ in ("int32", "float"):
            r = row(results, step, BIG, type_)
            label = f"<td>{step}</td><td>{type_}</td><td>{k} n ({html.escape(what)})</td>"
            if r is None:
                body.append(label + "<td>(not measured)</td>" * 4)
                continue
            bound = r["copy_gbps"] * 2.0 / k
            body.append(label + f"<td>{gen_results.fmt_gbps(r['gbps'])}</td>"
                        f"<td>{gen_results.fmt_gbps(bound)}</td>"
                        f"<td>{gen_results.fmt_pct(100.0 * r['gbps'] / bound)}</td>"
                        f"<td>{gen_results.fmt_gbps(r['gbps'] * k / 2.0)}</td>")
    sys.stdout.write(gen_results.captioned_table(
        f"Bytes moved and each step's own bound at 2^28 on the {gpu}: the bound is the memcpy "
        "D2D yardstick's GB/s x 2 / k for a step that moves k n elements",
        ["step", "type", "elements moved", "GB/s (2 n scale)", "its bound (2 n scale)",
         "share of its bound", "GB/s of all it moves"], body))


if __name__ == "__main__":
    main()
