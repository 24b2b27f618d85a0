#!/usr/bin/env python3
"""single_block.py RESULTS_FILE > scan_single_block.html

The single-block steps side by side (their sizes are below the part's reference size, so the book's
facts do not cover them): scan_naive at 1024 elements, scan_work_efficient and scan_conflict_free
at 2048, with CUB on the same input in the same process and the part's launch floor (an empty
kernel, timed the same way). Written for book/tools/build_book.py to call.
"""
import html
import sys

import gen_results

STEPS = [("scan_naive", 1024), ("scan_work_efficient", 2048), ("scan_conflict_free", 2048)]


def main():
    results = gen_results.load(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    gpu = results.gpu() if results else "our GPU (not measured)"
    body = []
    for step, n in STEPS:
        for type_ in ("int32", "float"):
            rows = [] if results is None else [r for r in results.step_rows(step)
                                               if int(r["n"]) == n and r["type"] == type_]
            label = f"<td>{step}</td><td>{n}</td><td>{type_}</td>"
            if not rows:
                body.append(label + "<td>(not measured)</td>" * 3)
                continue
            r = rows[0]
            peer_ms = (2.0 * n * 4 / (r["peer_gbps"] * 1e9) * 1e3) if r["peer_gbps"] else 0.0
            body.append(label + f"<td>{gen_results.fmt_time(r['median_ms'])}</td>"
                        f"<td>{gen_results.fmt_time(peer_ms) if peer_ms else '—'}</td>"
                        f"<td>{html.escape(r['variant'] or '')}</td>")
    floor = results.yardstick("launch_floor") if results else None
    note = (f"<p>The part's launch floor (an empty kernel, timed the same way): "
            f"{gen_results.fmt_time(floor['median_ms'])}.</p>\n" if floor else "")
    sys.stdout.write(gen_results.captioned_table(
        f"The single-block scans on the {gpu}: median time of one scan, and CUB's on the same "
        "input in the same process",
        ["step", "n", "type", "time", "cub::DeviceScan::ExclusiveSum", "variant"], body) + note)


if __name__ == "__main__":
    main()
