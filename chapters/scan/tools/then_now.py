#!/usr/bin/env python3
"""then_now.py RESULTS_FILE [--plot] > scan_then_now.html

The tables of the scan part's summary page. The first sets source 001's scan table (a sequential
scan on one core of an Intel Core Duo Extreme 2.93 GHz against "the work-efficient, bank-conflict-
free scan" on a GeForce 8800 GTX, 1024 to 16M elements; quoted, the table naming its source)
beside ours at the same sizes: scan_cpu on one core of the GPU machine's host against scan_large
(the slides' algorithm for any n) and scan_pipelined (the part's final step) on the GPU, float, as
the slides' listings are. The second gives every step's share of the memcpy yardstick and of CUB
at 2^28, and the third judges the final step against the issue's targets. Written for
book/tools/build_book.py to call; it prints "(not measured)" where the results file has no row.

With --plot it writes the then-and-now plot instead (scan_then_now.svg): at each of the slides'
sizes, the 8800 GTX's scan and ours (scan_large, scan_pipelined; float) as a share of each
device's theoretical DRAM bandwidth, counting 2 x n x 4 bytes moved for every one of them (the
bench's convention), as horizontal grouped bars.
"""
import html
import sys

import gen_results

# Source 001, "Parallel scan: performance": (# elements as printed, CPU ms, GPU ms, speedup).
# The row printed 8388688 is 2^23 = 8388608 (every other row is a power of two).
SLIDES = [(1024, 0.002231, 0.079492, 0.03), (32768, 0.072663, 0.106159, 0.68),
          (65536, 0.146326, 0.137006, 1.07), (131072, 0.726429, 0.200257, 3.63),
          (262144, 1.454742, 0.326900, 4.45), (524288, 2.911067, 0.624104, 4.66),
          (1048576, 5.900097, 1.118091, 5.28), (2097152, 11.848376, 2.099666, 5.64),
          (4194304, 23.835931, 4.062923, 5.87), (8388688, 47.390906, 7.987311, 5.93),
          (16777216, 94.794598, 15.854781, 5.98)]
# The 8800 GTX is a G80 board: source 001 computes the G80's bandwidth as 384 bit x 1800 MHz / 8.
G80_PEAK = 86.4
BIG, SMALL = 2**28, 2**16
COPY_TARGET, PEER_TARGET, SMALL_PEER_TARGET = 0.92, 1.10, 1.0  # the goals, final step
FINAL = "scan_pipelined"
STEPS = ["scan_cpu", "scan_naive", "scan_work_efficient", "scan_conflict_free", "scan_large",
         "scan_reduce_then_scan", "scan_lookback", "scan_pipelined"]
DEFAULT_VARIANT = {"scan_lookback": "block=128 items=32 window=32",
                   # the default's name since one large tile per block took the middle sizes
                   # (stages=4|3|7), then its name in the results files that predate that
                   "scan_pipelined": ("block=256 items=16|32 stages=4|3|7 window=32",
                                      "block=256 items=16|32 stages=4|7 window=32"),
                   "scan_conflict_free": "padding=correct"}
# The configuration the final step's default takes at 2^28, also measured by itself in the sweep:
# the same kernel, timed again in the same bench run.
FINAL_AT_BIG = "block=256 items=32 stages=7 window=32"


def row(results, step, n, type_, variant=None):
    """The step's row at n and type: its default variant's (a sweep has several), or `variant`'s."""
    if results is None:
        return None
    rows = [r for r in results.step_rows(step) if int(r["n"]) == n and r["type"] == type_]
    want = variant or DEFAULT_VARIANT.get(step)
    for name in (want,) if want is None or isinstance(want, str) else want:
        for r in rows:
            if name is None or r["variant"] == name:
                return r
    return None


def td(text):
    return f"<td>{html.escape(text)}</td>"


def first_win(pairs):
    """The first size at which the GPU time is below the CPU time (pairs: (n, cpu, gpu))."""
    for n, cpu, gpu in pairs:
        if cpu is not None and gpu is not None and gpu < cpu:
            return f"{n:,}"
    return "none of these sizes"


def slides_n(printed):
    return 2**23 if printed == 8388688 else printed


def plot(results, gpu, path):
    """The then-and-now plot: at each size of the slides' table, the share of its device's
    theoretical DRAM bandwidth that each scan's 2 x n x 4 bytes over its time make."""
    peak = float(results.meta.get("theoretical_gbps", 0) or 0) if results else 0.0
    sizes = [slides_n(printed) for printed, _, _, _ in SLIDES]
    then = [100.0 * 2 * n * 4 / (gpu_ms * 1e6) / G80_PEAK
            for n, (_, _, gpu_ms, _) in zip(sizes, SLIDES)]
    series = [(f"then: GeForce 8800 GTX, source 001, its work-efficient scan, % of {G80_PEAK} "
               "GB/s", gen_results.THEN_COLOURS[0], then)]
    for k, step in enumerate(("scan_large", FINAL)):
        values = []
        for n in sizes:
            r = row(results, step, n, "float")
            values.append(100.0 * r["gbps"] / peak if r and peak else None)
        series.append((f"now: {gpu}, {step}, % of {peak:.0f} GB/s", gen_results.NOW_COLOURS[k],
                       values))
    gen_results.grouped_hbar_plot(
        gen_results.gnuplot_command(), path,
        "Scan, then and now: float scan, share of each GPU's theoretical DRAM bandwidth",
        [f"n = {n:,}" for n in sizes], series,
        "% of the device's theoretical DRAM bandwidth (2 x n x 4 bytes / median time)",
        gen_results.fmt_share)


def main():
    results, options = gen_results.generator_args(sys.argv, ("--plot",))
    gpu = results.gpu() if results else "our GPU (not measured)"
    if "--plot" in options:
        sys.stdout.write(gen_results.svg_text(lambda path: plot(results, gpu, path)))
        return
    host = results.meta.get("host_cpu", "its host") if results else "its host"
    table = gen_results.captioned_table
    out = []

    body, ours_large, ours_final = [], [], []
    for printed, cpu_ms, gpu_ms, speedup in SLIDES:
        n = slides_n(printed)
        cpu = row(results, "scan_cpu", n, "float")
        large = row(results, "scan_large", n, "float")
        final = row(results, FINAL, n, "float")
        cells = [td(f"{printed:,}"), td(gen_results.fmt_time(cpu_ms)),
                 td(gen_results.fmt_time(gpu_ms)), td(gen_results.fmt_speedup(speedup))]
        for r in (cpu, large, final):
            cells.append(td(gen_results.fmt_time(r["median_ms"]) if r else "(not measured)"))
        for r in (large, final):
            ok = r is not None and cpu is not None
            cells.append(td(gen_results.fmt_speedup(cpu["median_ms"] / r["median_ms"])
                            if ok else "(not measured)"))
        ours_large.append((n, cpu["median_ms"] if cpu else None,
                           large["median_ms"] if large else None))
        ours_final.append((n, cpu["median_ms"] if cpu else None,
                           final["median_ms"] if final else None))
        body.append("".join(cells))
    then_pairs = [(p, c, g) for p, c, g, _ in SLIDES]
    out.append(table(
        f"Source 001 (slides): exclusive float scan, one Core Duo core vs a GeForce 8800 GTX, "
        f"beside ours: scan_cpu on one core of {host} vs the {gpu}, median time",
        ["n", "then: CPU", "then: GPU", "then: speedup", "now: scan_cpu", "now: scan_large",
         f"now: {FINAL}", "now: speedup of scan_large", f"now: speedup of {FINAL}"],
        body))
    out.append(
        "<p>Where the GPU starts to win (the first size of the table at which it is faster than "
        f"the one CPU core): then from {html.escape(first_win(then_pairs))} elements; now "
        f"scan_large from {html.escape(first_win(ours_large))} and {FINAL} from "
        f"{html.escape(first_win(ours_final))} elements. The slides' row printed 8,388,688 is "
        "2<sup>23</sup>, measured as such here. Our GPU times include the L2 flush's aftermath "
        "(every repetition reads its input from DRAM) and every launch of the scan.</p>\n")

    body = []
    for step in STEPS:
        cells = [td(step)]
        for type_ in ("int32", "float"):
            r = row(results, step, BIG, type_)
            if r is None:
                note = ("refused: one block" if step in ("scan_naive", "scan_work_efficient",
                                                         "scan_conflict_free") else "(not measured)")
                cells += [td(note), td(""), td("")]
                continue
            gpu_row = r["copy_gbps"] > 0  # scan_cpu's rows have no yardstick: a CPU's speed
            cells += [td(gen_results.fmt_gbps(r["gbps"])),
                      td(gen_results.fmt_pct(r["pct_copy"]) if gpu_row else "(CPU)"),
                      td(gen_results.fmt_pct(r["pct_peer"]) if r["peer_gbps"] else "")]
        body.append("".join(cells))
    cub = row(results, FINAL, BIG, "int32")
    cub_f = row(results, FINAL, BIG, "float")
    cells = [td("cub::DeviceScan::ExclusiveSum (the peer)")]
    for r in (cub, cub_f):
        cells += ([td(gen_results.fmt_gbps(r["peer_gbps"])),
                   td(gen_results.fmt_pct(100.0 * r["peer_gbps"] / r["copy_gbps"])), td("100.0%")]
                  if r else [td("(not measured)"), td(""), td("")])
    body.append("".join(cells))
    out.append(table(
        f"Every step at 2^28 elements on the {gpu}: effective GB/s (2 x n x 4 bytes / time), "
        "share of the memcpy D2D yardstick and of CUB, same run",
        ["step", "int32 GB/s", "int32 % of memcpy", "int32 % of CUB", "float GB/s",
         "float % of memcpy", "float % of CUB"], body))

    body = []
    final_name = cub["variant"] if cub else DEFAULT_VARIANT[FINAL][0]  # as the results name it
    sweep_label = f"2<sup>28</sup>, the sweep's run of {FINAL_AT_BIG}"
    for n, label, variant in ((BIG, "2<sup>28</sup>", None), (BIG, sweep_label, FINAL_AT_BIG),
                              (SMALL, "2<sup>16</sup>", None)):
        for type_ in ("int32", "float"):
            r = row(results, FINAL, n, type_, variant)
            if r is None:
                body.append(f"<td>{label}</td>{td(type_)}" + td("(not measured)") * 5)
                continue
            x_copy = r["gbps"] / r["copy_gbps"] if r["copy_gbps"] else 0.0
            x_peer = r["gbps"] / r["peer_gbps"] if r["peer_gbps"] else 0.0
            if variant:  # not the default's row: shown for the spread, not judged
                reached = "at or past" if x_copy >= COPY_TARGET else "short of"
                verdict = f"(the same kernel: {reached} {COPY_TARGET:.2f}x memcpy here)"
            elif n == BIG:
                verdict = (f"{'met' if x_copy >= COPY_TARGET else 'missed'} (>= "
                           f"{COPY_TARGET:.2f}x memcpy); "
                           f"{'met' if x_peer >= PEER_TARGET else 'missed'} (>= "
                           f"{PEER_TARGET:.2f}x CUB)")
            else:
                verdict = (f"{'met' if x_peer >= SMALL_PEER_TARGET else 'missed'} "
                           f"(>= {SMALL_PEER_TARGET:.2f}x CUB)")
            body.append(f"<td>{label}</td>" + td(type_) + td(gen_results.fmt_gbps(r["gbps"]))
                        + td(gen_results.fmt_ratio(x_copy)) + td(gen_results.fmt_ratio(x_peer))
                        + td(gen_results.fmt_time(r["median_ms"])) + td(verdict))
    out.append(table(
        f"The final step, {FINAL} ({final_name}), against the issue's targets on the "
        f"{gpu}, same run (ratios rounded down to 3 decimals, the percentages of the table above "
        f"rounded to 1: a target is judged on the unrounded ratio; the targets are judged on the "
        f"default's rows, and the sweep's rows of the configuration it takes at 2^28, the same "
        f"kernel timed again in the same run, show the spread from one timing to the next)",
        ["n", "type", "GB/s", "x memcpy D2D", "x CUB", "time", "targets"], body))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
