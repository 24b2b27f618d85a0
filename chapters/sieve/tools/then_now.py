#!/usr/bin/env python3
"""then_now.py RESULTS_FILE [--plot] > sieve_then_now.html

The tables of the sieve part's summary page, from the committed results file: every step's time at
each size it was measured at; the final step beside primesieve (all host threads, timed in the same
process; one thread, from sieve_cpu in the same bench run) and beside the times CUDASieve published
for a GTX 1080 (quoted from its README); and the part's two performance targets, met or missed.
Written for book/tools/build_book.py to call; it prints "(not measured)" where the file has no row
of a step at all, and in the first table a dash where it has the step's rows but not at that n (the
bench does not run every step at every n).

With --plot it writes the then-and-now plot instead (sieve_then_now.svg): at each n CUDASieve
published a time for, the numbers sieved per second (n / time), CUDASieve's on the GTX 1080 beside
the final step's on our GPU, as horizontal grouped bars. Not a share of DRAM bandwidth: the "then"
is a time, and a sieve's work is numbers struck, not bytes moved.
"""
import html
import sys

import gen_results

STEPS = ["sieve_cpu", "sieve_naive", "sieve_grid", "sieve_shared", "sieve_bits", "sieve_segments",
         "sieve_wheel", "sieve_bytes", "sieve_buckets", "sieve_segmented"]
SIZES = [(2**20 - 1, "2<sup>20</sup> - 1"), (10**8, "10<sup>8</sup>"), (10**9, "10<sup>9</sup>"),
         (2**32, "2<sup>32</sup>"), (10**10, "10<sup>10</sup>"), (10**12, "10<sup>12</sup>")]
# CUDASieve's README (github.com/curtisseizert/CUDASieve), "With GTX 1080", "Time to sieve this
# range" in ms, ranges from 0; 2^32 is not in its table.
CUDASIEVE_GTX1080_MS = {10**9: 6.03, 10**10: 68.7, 10**12: 13.0e3}
FINAL = "sieve_segmented"
NOT_MEASURED = "(not measured)"
NOT_RUN_AT_N = "—"


def rows_at(results, step, n, variant=None):
    if results is None:
        return []
    return [r for r in results.step_rows(step) if int(r["n"]) == n and r["check"] == "ok"
            and (variant is None or r["variant"] == variant)]


def fastest(rows):
    return min(rows, key=lambda r: r["median_ms"]) if rows else None


def peer_ms(r):
    return r["bytes"] / r["peer_gbps"] * 1e-6 if r and r["peer_gbps"] > 0 else None


def time_cell(ms, title="", missing=NOT_MEASURED):
    if ms is None:
        return f"<td>{missing}</td>"
    t = f' title="{html.escape(title)}"' if title else ""
    return f"<td><span{t}>{html.escape(gen_results.fmt_time(ms))}</span></td>"


def ratio_cell(slow_ms, fast_ms):
    if slow_ms is None or fast_ms is None or fast_ms <= 0:
        return "<td>—</td>"
    return f"<td>{html.escape(gen_results.fmt_speedup(slow_ms / fast_ms))}</td>"


def plot(results, gpu, path):
    """The then-and-now plot: 10^9 numbers per second at each n of CUDASieve's table."""
    sizes = [(n, label) for n, label in SIZES if n in CUDASIEVE_GTX1080_MS]
    then = [n / (CUDASIEVE_GTX1080_MS[n] * 1e6) for n, _ in sizes]
    now = []
    for n, _ in sizes:
        r = fastest(rows_at(results, FINAL, n))
        now.append(n / (r["median_ms"] * 1e6) if r else None)
    gen_results.grouped_hbar_plot(
        gen_results.gnuplot_command(), path,
        "Sieve, then and now: pi(n), numbers sieved per second",
        [f"n = {label.replace('<sup>', '^').replace('</sup>', '')}" for _, label in sizes],
        [("then: CUDASieve on a GTX 1080 (its README's times)", gen_results.THEN_COLOURS[0],
          then),
         (f"now: {FINAL} on the {gpu} (its fastest variant at each n)",
          gen_results.NOW_COLOURS[0], now)],
        "10^9 numbers per second (n / median time)")


def main():
    results, options = gen_results.generator_args(sys.argv, ("--plot",))
    gpu = results.gpu() if results else "our GPU (not measured)"
    if "--plot" in options:
        sys.stdout.write(gen_results.svg_text(lambda path: plot(results, gpu, path)))
        return
    out = [f"<p>Median times on the {html.escape(gpu)}; each cell is the step's fastest variant "
           "at that n (hover for the variant). All of one bench run.</p>\n"]

    body = []
    for step in STEPS:
        cells = [f"<td>{step}</td>"]
        measured = results is not None and any(r["check"] == "ok"
                                                for r in results.step_rows(step))
        for n, _ in SIZES:
            r = fastest(rows_at(results, step, n))
            cells.append(time_cell(r["median_ms"] if r else None,
                                   (r["variant"] or step) if r else "",
                                   NOT_RUN_AT_N if measured else NOT_MEASURED))
        body.append("".join(cells))
    out.append(gen_results.captioned_table(
        "Every step at each n it was measured at: the time to sieve [0, n] (a dash: the bench "
        "does not run that step at that n)",
        ["step"] + [label for _, label in SIZES], body))

    body = []
    cpu_measured = results is not None and any(r["check"] == "ok"
                                               for r in results.step_rows("sieve_cpu"))
    for n, label in SIZES[2:]:
        r = fastest(rows_at(results, FINAL, n))
        ours = r["median_ms"] if r else None
        all_threads = peer_ms(r)
        one = fastest(rows_at(results, "sieve_cpu", n, "primesieve_1_thread"))
        one_ms = one["median_ms"] if one else None
        then = CUDASIEVE_GTX1080_MS.get(n)
        body.append(f"<td>{label}</td>"
                    + time_cell(ours, (r["variant"] or FINAL) if r else "")
                    + time_cell(all_threads, html.escape(r["peer"]) if r else "")
                    + ratio_cell(all_threads, ours)
                    + time_cell(one_ms, "", NOT_RUN_AT_N if cpu_measured else NOT_MEASURED)
                    + ratio_cell(one_ms, ours)
                    + (time_cell(then) if then else "<td>not published</td>")
                    + ratio_cell(then, ours))
    out.append(gen_results.captioned_table(
        "pi(n): the final step beside primesieve (same machine) and beside CUDASieve's published "
        "GTX 1080 times (then); a dash: the bench does not run primesieve on one thread at that n",
        ["n", f"{FINAL} (now)", "primesieve, all host threads", "speedup over it",
         "primesieve, 1 thread", "speedup over it", "CUDASieve, GTX 1080 (then)",
         "speedup over it"], body))

    body = []
    r10 = fastest(rows_at(results, FINAL, 10**10))
    r9 = fastest(rows_at(results, FINAL, 10**9))
    if r10 and peer_ms(r10):
        ratio = peer_ms(r10) / r10["median_ms"]
        body.append("<td>pi(10<sup>10</sup>) at least 10× faster than primesieve on all host "
                    f"threads</td><td>{html.escape(gen_results.fmt_speedup(ratio))}</td>"
                    f"<td>{'met' if ratio >= 10 else 'missed'}</td>")
    else:
        body.append("<td>pi(10<sup>10</sup>) at least 10× faster than primesieve on all host "
                    f"threads</td><td>{NOT_MEASURED}</td><td>—</td>")
    if r9:
        ok = r9["median_ms"] <= 1.0
        body.append("<td>pi(10<sup>9</sup>) in at most 1 ms</td>"
                    f"<td>{html.escape(gen_results.fmt_time(r9['median_ms']))}</td>"
                    f"<td>{'met' if ok else 'missed'}</td>")
    else:
        body.append(f"<td>pi(10<sup>9</sup>) in at most 1 ms</td><td>{NOT_MEASURED}</td><td>—</td>")
    out.append(gen_results.captioned_table("The part's targets, on this run",
                                           ["target", "measured", "verdict"], body))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
