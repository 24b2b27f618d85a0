#!/usr/bin/env python3
"""ncu_table.py FILE.csv NOTE [--input-bytes B]: the Nsight Compute CSV of chapters/scan/gpu_checks.sh
(several runs appended, each with its header line)
as a small text table for the pages: one row per profiled launch (program, kernel, template
arguments, each counter), and for DRAM counters one total row per program (with --input-bytes, the
total as a multiple of the input's bytes). NOTE becomes the '#' line under the title.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "transpose"))
import ncu_table as transpose_ncu  # noqa: E402  (its short_name: ncu's kernel name, cut)

SHORT = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "conflicts ld",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "conflicts st",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "wavefronts ld",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "wavefronts st",
    "smsp__sass_inst_executed_op_shared_ld.sum": "shared ld instr",
    "smsp__sass_inst_executed_op_shared_st.sum": "shared st instr",
    "dram__bytes_read.sum": "DRAM read B",
    "dram__bytes_write.sum": "DRAM write B",
    "gpu__time_duration.sum": "time ns",
}
PADDING = {"0": "padding=none", "1": "padding=miscopied", "2": "padding=correct"}


def kernel_label(name):
    """'void scan_large::kernel<int>(const int *, ...)' -> 'kernel<int>', with the padding named."""
    name = transpose_ncu.short_name(name)
    name = re.sub(r"\(scan_conflict_free::padding\)(\d)", lambda m: PADDING[m.group(1)], name)
    name = name.replace("scan_conflict_free::padding::", "padding=")
    return re.sub(r"^[a-z_]+::", "", name.strip())


def main():
    args = sys.argv[1:]
    input_bytes = 0
    if "--input-bytes" in args:
        i = args.index("--input-bytes")
        input_bytes = float(args[i + 1])
        del args[i:i + 2]
    path, note = args[0], args[1]
    launches, metrics = {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["ID"] == "ID":  # the header again: gpu_checks.sh appends one run after another
                continue
            key = (row["Process ID"], int(row["ID"]))
            entry = launches.setdefault(key, {"program": row["Process Name"],
                                              "kernel": kernel_label(row["Kernel Name"])})
            metric = row["Metric Name"]
            if metric not in metrics:
                metrics.append(metric)
            entry[metric] = float(row["Metric Value"].replace(",", "") or 0)
    header = ["program", "kernel"] + [SHORT.get(m, m) for m in metrics]
    rows = []
    totals = {}
    for key in sorted(launches):
        e = launches[key]
        rows.append([e["program"], e["kernel"]] + [f"{e.get(m, 0):.0f}" for m in metrics])
        t = totals.setdefault(e["program"], {m: 0.0 for m in metrics})
        for m in metrics:
            t[m] += e.get(m, 0)
    if any(m.startswith("dram__") for m in metrics):
        for program, t in totals.items():
            label = "total"
            if input_bytes:
                moved = t.get("dram__bytes_read.sum", 0) + t.get("dram__bytes_write.sum", 0)
                label = f"total: {moved / input_bytes:.2f} x input bytes"
            rows.append([program, label] + [f"{t[m]:.0f}" for m in metrics])
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths)))
    print(f"# {note}")
    print(line(header))
    for r in rows:
        print(line(r))


if __name__ == "__main__":
    main()
