#!/usr/bin/env python3
"""then_now.py RESULTS_FILE [--plot] > reduction_then_and_now.html

With --plot it writes the then-and-now plot instead (reduction_then_now.svg): each step with a
G80 row as a share of its device's theoretical DRAM bandwidth, the G80's beside ours at 2^22 and
2^28, as horizontal grouped bars.

The "then and now" tables of the reduction part's summary page. The first sets source 001's G80
numbers for 2^22 ints (quoted, the table naming its source) beside ours from the committed results
file at 2^22 and 2^28 int32: time, GB/s, the percentage of each device's theoretical DRAM
bandwidth, and the step and cumulative speedups. The second sets the last steps beside
cub::DeviceReduce::Sum at every size measured, with the launch floor, and states the small-array
targets of the final step, reduce11, against what was measured (large_n.py sets it beside CUB at
2^28 to 2^32 on every GPU, in two runs). Written for book/tools/build_book.py to call (or to run by
hand into the generated directory); it prints "(not measured)" where the file has no row.
"""
import html
import sys

import gen_results

import large_n

# Source 001 (after Harris): the G80's theoretical bandwidth as the slides compute it,
# 384 bit x 1800 MHz / 8, and its table for 2^22 ints: (kernel, its name, ms, GB/s as printed).
G80_PEAK = 86.4
G80 = {
    "Kernel 1": ("interleaved addressing with divergent branching", 8.054, 2.083),
    "Kernel 2": ("interleaved addressing with bank conflicts", 3.456, 4.854),
    "Kernel 3": ("sequential addressing", 1.722, 9.741),
    "Kernel 4": ("first add during global load", 0.965, 17.377),
    "Kernel 5": ("unroll last warp", 0.536, 31.289),
    "Kernel 6": ("completely unrolled", 0.381, 43.996),
    "Kernel 7": ("multiple elements per thread", 0.268, 62.671),
}
# Our steps in the book's order, each with its slide kernel ("" past the slides).
STEPS = [("reduce0", "Kernel 1"), ("reduce1", "Kernel 2"), ("reduce2", "Kernel 3"),
         ("reduce3", "Kernel 4"), ("reduce4_classic", "Kernel 5"), ("reduce4", "Kernel 5"),
         ("reduce5", "Kernel 6"), ("reduce6", "Kernel 7"), ("reduce7", ""), ("reduce8", ""),
         ("reduce9", ""), ("reduce10", ""), ("reduce11", "")]
SMALL, SLIDES, BIG = 2**16, 2**22, 2**28
SMALL_TARGET = 1.3  # the goal at 2^16 for a single launch: at least this times CUB's speed
BIG_TARGET, READ_TARGET = 1.0, 97.0  # the goals at 2^28: >= CUB, >= 97% of the read-only yardstick
FINAL = "reduce11"  # the part's final step (reduce10's cluster for small n, its own grid past it)
FINAL_VARIANT = "split=claimed"  # the step's own variant (the bench also sweeps others at 2^28)


def ours(results, step, n, type_="int32"):
    if results is None:
        return None
    rows = [r for r in results.step_rows(step)
            if int(r["n"]) == n and r["type"] == type_ and r["bytes"] > 0
            and (step != FINAL or (r["variant"] == FINAL_VARIANT
                                   and large_n.of_this_version(results)))]
    return gen_results.best_row(rows)


def td(text):
    return f"<td>{html.escape(text)}</td>"


table = gen_results.captioned_table


def our_cells(results, step, prev, n, peak):
    r = ours(results, step, n)
    if r is None:
        return td("(not measured)") * 4
    first = ours(results, "reduce0", n)
    before = ours(results, prev, n) if prev else None
    pct = f" ({100.0 * r['gbps'] / peak:.1f}%)" if peak else ""
    return (td(gen_results.fmt_time(r["median_ms"])) + td(gen_results.fmt_gbps(r["gbps"]) + pct)
            + td(gen_results.fmt_speedup(before["median_ms"] / r["median_ms"]) if before else "")
            + td(gen_results.fmt_speedup(first["median_ms"] / r["median_ms"]) if first else ""))


def ladder(results, gpu, peak):
    body = []
    for k, (step, kernel) in enumerate(STEPS):
        prev = STEPS[k - 1][0] if k else None
        if kernel:
            name, ms, gbps = G80[kernel]
            then = (td(f"{kernel}: {name}") + td(f"{ms:.3f} ms")
                    + td(f"{gbps:.3f} ({100.0 * gbps / G80_PEAK:.1f}%)"))
        else:
            then = td("(past the slides)") + td("") + td("")
        body.append(then + f"<td>{step}</td>" + our_cells(results, step, prev, SLIDES, peak)
                    + our_cells(results, step, prev, BIG, peak))
    head = ["source 001 (G80)", "G80 time", "G80 GB/s (% of 86.4)", "our step",
            "2<sup>22</sup> time", "2<sup>22</sup> GB/s (% of peak)", "vs previous",
            "vs reduce0", "2<sup>28</sup> time", "2<sup>28</sup> GB/s (% of peak)", "vs previous",
            "vs reduce0"]
    peak_text = f"{peak:.0f} GB/s" if peak else "(not measured)"
    return table(f"Source 001 (slides, after Harris), G80, 2^22 ints, quoted; ours: {gpu}, int32, "
                 f"theoretical peak {peak_text}; speedups are time ratios, same type and size",
                 head, body)


def peer_ms(r):
    """CUB's median time on the same input, from its GB/s (same bytes)."""
    return r["bytes"] / (r["peer_gbps"] * 1e9) * 1e3 if r and r["peer_gbps"] > 0 else None


def against_cub(results, gpu):
    floor = results.yardstick("launch_floor") if results else None
    read = results.yardstick("read_only") if results else None
    body = []
    for n in (SMALL, SLIDES, BIG):
        for type_ in ("int32", "float"):
            rows = {step: ours(results, step, n, type_) for step in ("reduce9", "reduce10", FINAL)}
            final = rows[FINAL]
            label = f"2<sup>{n.bit_length() - 1}</sup>"
            if final is None:  # e.g. a results file made by an earlier version of the final step
                body.append(f"<td>{label}</td>" + td(type_)
                            + "".join(td(gen_results.fmt_time(r["median_ms"]) if r
                                         else "(not measured)") for r in rows.values())
                            + td("(not measured)") * 4)
                continue
            cub = peer_ms(final)  # measured in the final step's own process
            ratio = cub / final["median_ms"] if cub else None
            goal = ""
            if n == SMALL and ratio is not None:
                goal = f"≥ {SMALL_TARGET:.2f}× CUB: " + ("met" if ratio >= SMALL_TARGET else "not met")
            elif n == BIG and ratio is not None:
                ok = ratio >= BIG_TARGET and final["pct_read"] >= READ_TARGET
                goal = (f"≥ {BIG_TARGET:.2f}× CUB and ≥ {READ_TARGET:.0f}% of read-only: "
                        + ("met" if ok else "not met"))
            cells = "".join(td(gen_results.fmt_time(r["median_ms"]) if r else "(not measured)")
                            for r in rows.values())
            body.append(f"<td>{label}</td>" + td(type_) + cells
                        + td(gen_results.fmt_time(cub) if cub else "(not measured)")
                        + td(gen_results.fmt_speedup(ratio) if ratio else "")
                        + td(gen_results.fmt_pct(final["pct_read"]) if n == BIG else "")
                        + td(goal))
    notes = []
    if floor is not None:
        notes.append(f"an empty kernel's launch, timed the same way: "
                     f"{gen_results.fmt_time(floor['median_ms'])}")
    if read is not None:
        notes.append(f"read-only yardstick at 2^28: {gen_results.fmt_gbps(read['gbps'])} GB/s")
    caption = (f"The last steps against cub::DeviceReduce::Sum on {gpu}, CUB measured in {FINAL}'s "
               f"process" + (f" ({'; '.join(notes)})" if notes else ""))
    head = ["size", "type", "reduce9", "reduce10", FINAL, "CUB", f"{FINAL} vs CUB",
            "% of read-only", "goal"]
    return table(caption, head, body)


def pct_of_peak(results, step, n, peak):
    r = ours(results, step, n)
    return 100.0 * r["gbps"] / peak if r and peak else None


def plot(results, gpu, peak, path):
    """The then-and-now plot: every step with a G80 row (steps past the slides have none and are
    left out), as % of each device's theoretical DRAM bandwidth."""
    steps = [(step, kernel) for step, kernel in STEPS if kernel]
    g80 = [100.0 * G80[kernel][2] / G80_PEAK for _, kernel in steps]
    series = [(f"then: G80, source 001 (after Harris), 2^22 ints, % of {G80_PEAK} GB/s",
               gen_results.THEN_COLOURS[0], g80)]
    for k, n in enumerate((SLIDES, BIG)):
        series.append((f"now: {gpu}, 2^{n.bit_length() - 1} int32, % of {peak:.0f} GB/s",
                       gen_results.NOW_COLOURS[k],
                       [pct_of_peak(results, step, n, peak) for step, _ in steps]))
    gen_results.grouped_hbar_plot(
        gen_results.gnuplot_command(), path,
        "Reduction, then and now: each step's share of its GPU's theoretical DRAM bandwidth",
        [f"{step} ({kernel})" for step, kernel in steps], series,
        "% of the device's theoretical DRAM bandwidth", gen_results.fmt_share)


def main():
    results, options = gen_results.generator_args(sys.argv, ("--plot",))
    gpu = results.gpu() if results else "our GPU (not measured)"
    peak = float(results.meta.get("theoretical_gbps", 0) or 0) if results else 0.0
    if "--plot" in options:
        sys.stdout.write(gen_results.svg_text(lambda path: plot(results, gpu, peak, path)))
        return
    sys.stdout.write(ladder(results, gpu, peak) + against_cub(results, gpu))


if __name__ == "__main__":
    main()
