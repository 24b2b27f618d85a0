#!/usr/bin/env python3
"""then_now.py RESULTS_FILE [--plot] > transpose_then_now.html

The "then and now" tables of the transpose part's summary page: the numbers the source documents
published (quoted here, each table naming its source) beside ours from the committed results
file, at the same matrix sizes and at 16384 x 16384, each as a percentage of its device's
theoretical DRAM bandwidth. Written for book/tools/build_book.py to call (or to run by hand into
the generated directory); it prints "(not measured)" where the results file has no row.

With --plot it writes the then-and-now plot instead (transpose_then_now.svg): each kernel of source
002's table as a share of its device's theoretical DRAM bandwidth, the whitepaper's three GPUs at
2048 x 2048 beside our step at 2048 x 2048 and 16384 x 16384, as horizontal grouped bars.
"""
import html
import sys

import gen_results

GIB = 2**30 / 1e9  # the whitepaper's host code divides by 2^30: its "GB/s" are GiB/s

# Theoretical DRAM bandwidth of the sources' GPUs, GB/s (vendor specifications; the GTX 1050 Ti's
# from source 003's own table; the GTX 850M's from source 004's deviceQuery: 1001 MHz x 2 x 128 bit).
PEAK = {"GTX 280": 141.7, "M2090": 177.6, "K20X": 250.0, "GTX 1050 Ti": 112.0, "GTX 850M": 32.0,
        "K80 (one GPU)": 240.0}

# Source 002, 2048 x 2048, GiB/s as printed: (our step, its row name, GTX 280, M2090, K20X).
WHITEPAPER = [
    ("copy", "Simple Copy", 96.9, 125.2, 147.6),
    ("copy_shared", "Shared Memory Copy", 80.9, 110.6, 130.5),
    ("transpose_naive", "Naive Transpose", 2.2, 61.5, 92.0),
    ("transpose_coalesced", "Coalesced Transpose", 16.5, 92.8, 114.0),
    ("transpose_no_bank_conflicts", "Bank Conflict Free Transpose", 16.6, 103.2, 112.6),
    ("transpose_coarse_grained", "Coarse-grained Transpose", 16.7, 107.2, 123.5),
    ("transpose_fine_grained", "Fine-grained Transpose", 80.4, 105.8, 115.0),
    ("transpose_diagonal", "Diagonal", 69.5, 81.4, 106.7),
]
# Source 003, 4096 x 4096 on a GTX 1050 Ti: seconds per kernel (mean of three); GB/s = 2^27 B / t.
BLOG_BYTES = 2 * 4096 * 4096 * 4
BLOG = [
    ("copy", "", "copyRow (upper bound)", 0.001610),
    ("copy_col", "", "copyCol (lower bound)", 0.004202),
    ("transpose_naive", "", "transformNaiveRow", 0.004008),
    ("transpose_naive_col", "", "transformNaiveCol", 0.002123),
    ("transpose_naive_row_unroll4", "", "transformNaiveRowUnroll", 0.001545),
    ("transpose_naive_col_unroll4", "", "transformNaiveColUnroll", 0.001543),
    ("transpose_block_sweep", "block=32x32", "NaiveCol, block (32,32)", 0.002138),
    ("transpose_block_sweep", "block=32x16", "NaiveCol, block (32,16)", 0.001692),
    ("transpose_block_sweep", "block=32x8", "NaiveCol, block (32,8)", 0.001926),
    ("transpose_block_sweep", "block=64x16", "NaiveCol, block (64,16)", 0.002125),
    ("transpose_block_sweep", "block=64x8", "NaiveCol, block (64,8)", 0.001946),
    ("transpose_block_sweep", "block=128x8", "NaiveCol, block (128,8)", 0.002229),
]
# Source 004, 4096 x 4096, GB/s as printed: (our step, variant, its row name, GTX 850M, K80).
REPORT_004 = [
    ("transpose_cpu", "naive", "CPU", 0.85, 0.55),
    ("transpose_naive", "", "Naive GPU", 18.23, 43.23),
    ("transpose_coalesced", "", "Shared memory", 22.67, 60.58),
    ("transpose_no_bank_conflicts", "", "No bank conflict", 27.58, 91.6),
    ("transpose_unrolled", "", "Loop unrolled", 27.91, 119.27),
]
# Source 000, 16384 x 16384, seconds as printed (GPU not named): GB/s = 2^31 B / t.
REPORT_000_BYTES = 2 * 16384 * 16384 * 4
REPORT_000 = [
    ("transpose_naive", "", "naive", 0.063849),
    ("transpose_tile64", "", "optimized (64 x 65 tile)", 0.006769),
]


def ours(results, step, variant, rows, cols):
    if results is None:
        return None
    for r in results.step_rows(step):
        if int(r["rows"]) == rows and int(r["cols"]) == cols and r["variant"] == variant:
            return r
    return None


def cell(gbps, peak):
    if gbps is None:
        return "<td>(not measured)</td>"
    pct = f" ({100.0 * gbps / peak:.1f}%)" if peak else ""
    return f"<td>{gen_results.fmt_gbps(gbps)}{html.escape(pct)}</td>"


def our_cells(results, step, variant, sizes, peak):
    out = []
    for rows, cols in sizes:
        r = ours(results, step, variant, rows, cols)
        out.append(cell(r["gbps"] if r else None, peak))
    return "".join(out)


table = gen_results.captioned_table


def plot(results, gpu, peak, path):
    """The then-and-now plot of source 002's table (its GiB/s converted to GB/s first)."""
    series = []
    for k, device in enumerate(("GTX 280", "M2090", "K20X")):
        series.append((f"then: {device}, source 002, 2048 x 2048, % of {PEAK[device]} GB/s",
                       gen_results.THEN_COLOURS[k],
                       [100.0 * row[2 + k] * GIB / PEAK[device] for row in WHITEPAPER]))
    for k, (rows, cols) in enumerate(((2048, 2048), (16384, 16384))):
        values = []
        for step, *_ in WHITEPAPER:
            r = ours(results, step, "", rows, cols)
            values.append(100.0 * r["gbps"] / peak if r and peak else None)
        series.append((f"now: {gpu}, {rows} x {cols}, % of {peak:.0f} GB/s",
                       gen_results.NOW_COLOURS[k], values))
    gen_results.grouped_hbar_plot(
        gen_results.gnuplot_command(), path,
        "Transpose, then and now: each kernel's share of its GPU's theoretical DRAM bandwidth",
        [step for step, *_ in WHITEPAPER], series,
        "% of the device's theoretical DRAM bandwidth", gen_results.fmt_share)


def main():
    results, options = gen_results.generator_args(sys.argv, ("--plot",))
    gpu = results.gpu() if results else "our GPU (not measured)"
    peak = float(results.meta.get("theoretical_gbps", 0) or 0) if results else 0.0
    if "--plot" in options:
        sys.stdout.write(gen_results.svg_text(lambda path: plot(results, gpu, peak, path)))
        return
    big = (16384, 16384)
    out = [f"<p>GB/s, with the percentage of each device's theoretical DRAM bandwidth in "
           f"parentheses. Ours: {html.escape(gpu)}, L2 flushed before every repetition.</p>\n"]

    body = []
    for step, name, g280, m2090, k20x in WHITEPAPER:
        body.append(f"<td>{html.escape(name)}</td><td>{step}</td>"
                    + cell(g280 * GIB, PEAK["GTX 280"]) + cell(m2090 * GIB, PEAK["M2090"])
                    + cell(k20x * GIB, PEAK["K20X"])
                    + our_cells(results, step, "", [(2048, 2048), big], peak))
    out.append(table("Source 002 (whitepaper), 2048 x 2048, converted from its GiB/s",
                     ["source 002 kernel", "our step", "GTX 280", "M2090", "K20X",
                      "ours, 2048²", "ours, 16384²"], body))

    body = []
    for step, variant, name, seconds in BLOG:
        body.append(f"<td>{html.escape(name)}</td><td>{step} {html.escape(variant)}</td>"
                    + cell(BLOG_BYTES / seconds / 1e9, PEAK["GTX 1050 Ti"])
                    + our_cells(results, step, variant, [(4096, 4096), big], peak))
    out.append(table("Source 003 (blog), 4096 x 4096, from its times",
                     ["source 003 kernel", "our step", "GTX 1050 Ti", "ours, 4096²",
                      "ours, 16384²"], body))

    body = []
    for step, variant, name, g850, k80 in REPORT_004:
        gpu_row = step != "transpose_cpu"  # a CPU's speed as % of a GPU's DRAM means nothing
        body.append(f"<td>{html.escape(name)}</td><td>{step} {html.escape(variant)}</td>"
                    + cell(g850, PEAK["GTX 850M"] if gpu_row else 0)
                    + cell(k80, PEAK["K80 (one GPU)"] if gpu_row else 0)
                    + our_cells(results, step, variant, [(4096, 4096), big], peak if gpu_row else 0))
    out.append(table("Source 004 (report), 4096 x 4096; the CPU row is the host's, not the GPU's",
                     ["source 004 version", "our step", "GTX 850M", "K80 (one GPU)",
                      "ours, 4096²", "ours, 16384²"], body))

    body = []
    for step, variant, name, seconds in REPORT_000:
        body.append(f"<td>{html.escape(name)}</td><td>{step}</td>"
                    + cell(REPORT_000_BYTES / seconds / 1e9, 0)
                    + our_cells(results, step, variant, [big], peak))
    out.append(table("Source 000 (report), 16384 x 16384, from its times (its GPU is not named)",
                     ["source 000 version", "our step", "source 000's GPU",
                      "ours, 16384²"], body))

    # The targets for the final step, at both large shapes: at least cublasSgeam's
    # bandwidth, and at least 95% of the memcpy device-to-device yardstick's (same run, same size).
    body = []
    for rows, cols in ((16384, 16384), (8192, 32768)):
        fast = ours(results, "transpose_fast", "", rows, cols)
        for step in ("transpose_fast", "transpose_tile64", "transpose_no_bank_conflicts",
                     "copy_shared", "copy", "cublasSgeam"):
            label = f"<td>{step}</td><td>{rows} x {cols}</td>"
            r = ours(results, step, "", rows, cols) if step != "cublasSgeam" else fast
            if r is None:
                body.append(label + "<td>(not measured)</td>" * 5)
                continue
            if step == "cublasSgeam":  # the peer, timed in transpose_fast's run
                label = f"<td>cublasSgeam (the peer)</td><td>{rows} x {cols}</td>"
                gbps = r["peer_gbps"]
                pct_copy = 100.0 * gbps / r["copy_gbps"] if r["copy_gbps"] else 0.0
                pct_peer = 100.0
            else:
                gbps, pct_copy, pct_peer = r["gbps"], r["pct_copy"], r["pct_peer"]
            if step == "transpose_fast":
                verdict = (f"<td>{'met' if pct_peer >= 100.0 else 'missed'}</td>"
                           f"<td>{'met' if pct_copy >= 95.0 else 'missed'}</td>")
            else:
                verdict = "<td></td><td></td>"
            body.append(label + cell(gbps, peak) + f"<td>{gen_results.fmt_pct(pct_copy)}</td>"
                        + f"<td>{gen_results.fmt_pct(pct_peer)}</td>" + verdict)
    out.append(table(f"The criterion on {gpu}: the final transpose against the memcpy yardstick "
                     "and cublasSgeam, same run, with the steps nearest to it and the part's two "
                     "copies; targets for transpose_fast: >= 100% of cublasSgeam, >= 95% of "
                     "memcpy D2D",
                     ["step", "shape", "GB/s (% of theoretical)", "% of memcpy D2D",
                      "% of cublasSgeam", "target >= 100% of cublasSgeam",
                      "target >= 95% of memcpy D2D"], body))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
