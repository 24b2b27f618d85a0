#!/usr/bin/env python3
"""ncu_table.py: an Nsight Compute CSV (`ncu --csv`, made by a part's tools/gpu_checks.sh) as a
small text table for the pages. One module for every part:

  ncu_table.py bank FILE.csv [--note TEXT]...
      shared-memory bank conflicts and wavefronts per instruction, one row per profiled kernel
  ncu_table.py sectors FILE.csv [--note TEXT]... [--first-column NAME]
      global sectors per request of loads and stores, DRAM bytes, time, one row per kernel
  ncu_table.py launches FILE.csv NOTE [--input-bytes B]
      one row per profiled launch (program, kernel, every counter); for DRAM counters a total row
      per program (with --input-bytes, the bytes moved as a multiple of the input's)

Every step's kernel is called `kernel` in its own namespace, and ncu's "Kernel Name" column drops
the namespace, so a row is named by the program that launched it (ncu's "Process Name" column: each
step's binary is named after the step). transpose_fast's kernels are `kernel_full` (whole tiles)
and `kernel_edge`; their rows are `transpose_fast <kernel>`. Any other kernel (a library's, such as
cuBLAS's in transpose_fast's run) is named `<step>: <kernel>`. Template arguments are kept, because
they say which variant was profiled; for transpose_fast they are spelled out in a note under the
table. Each --note becomes a '#' line of the header (gpu_checks.sh passes the GPU, size and commit).
Several runs may be appended to one CSV, each with its header line. Exit 2 on bad usage.
"""
import csv
import re
import sys

# transpose_fast's kernel_full<STORES>: how the output leaves the block.
FAST_STORES = {"0": "bulk copies (the default)", "1": "streaming stores from registers",
               "2": "plain stores from registers"}


def short_name(kernel):
    """'void kernel<64, 1, 1, 0>(const float *, ...)' -> 'kernel<64, 1, 1, 0>'."""
    name = kernel.removeprefix("void ")
    depth = 0
    for i, ch in enumerate(name):  # cut at the first '(' outside template brackets
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return name[:i].strip()
    return name.strip()


def template_args(name):
    if "<" not in name:
        return []
    return [a.strip() for a in name[name.index("<") + 1:name.rindex(">")].split(",")]


def is_step_kernel(name):
    """A step's own kernel: `kernel` (ncu drops the namespace) or `<step>::kernel`, or one of
    transpose_fast's `kernel_full` and `kernel_edge`."""
    base = name.split("<")[0].split("::")[-1]
    return base in ("kernel", "kernel_full", "kernel_edge")


def row_name(process, kernel):
    name = short_name(kernel)
    base = name.split("<")[0]
    if is_step_kernel(name):
        if base.split("::")[-1] != "kernel":
            return f"{process} {name.split('::')[-1].replace(' ', '')}"
        args = name[len(base):]
        return f"{process}{args.replace(' ', '')}" if args else process
    if "geam" in base or "transpose_readWrite" in base:  # the peer's kernel (see gpu_checks.sh)
        return "cublasSgeam"
    return f"{process}: {base}"


def read(path):
    rows = {}  # (process id, launch id) -> {"name": ..., metric: value}
    order = []
    header = None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "ID":  # each profiled run repeats the header
                header = row
                continue
            if header is None or len(row) != len(header):
                continue
            cell = dict(zip(header, row))
            key = (cell.get("Process ID", "?"), cell.get("ID", "?"))
            if key not in rows:
                rows[key] = {"name": row_name(cell.get("Process Name", "?"),
                                              cell.get("Kernel Name", "?")),
                             "kernel": short_name(cell.get("Kernel Name", "?")),
                             "block": cell.get("Block Size", ""), "grid": cell.get("Grid Size", "")}
                order.append(key)
            try:
                rows[key][cell.get("Metric Name", "")] = float(
                    cell.get("Metric Value", "").replace(",", ""))
            except ValueError:
                pass
    return [rows[k] for k in order]


def ratio(a, b):
    return a / b if b else 0.0


SECTORS_LEGEND = [
    "global loads (ld) and stores (st): 32-byte sectors per request (4.00: a warp's 4-byte",
    "accesses use every byte of 4 sectors; 16.00: its 16-byte accesses use every byte of 16;",
    "32.00: one sector per thread); DRAM bytes (ncu flushes the caches before the kernel; dirty",
    "lines may stay in the L2 when it ends); time: the kernel under the profiler"]
BULK_STORES_LEGEND = [
    "bulk copies (transpose_fast's default stores) bypass the load/store unit, so its st",
    "sect/req is 0: the DRAM write bytes are its stores"]
BANK_LEGEND = [
    "shared-memory loads (ld) and stores (st): bank conflicts, and wavefronts per warp",
    "instruction (1.00 is conflict-free for 4-byte accesses, 4.00 for 16-byte accesses)"]

# The launches table: short column names for the counters, and scan_conflict_free's padding
# template argument (an enum ncu prints as a cast number) by name.
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


def print_sectors_table(rows, first_column):
    """One line per row: global sectors per request of loads and stores, DRAM bytes, time."""
    width = max([len(m["name"]) for m in rows] + [len(first_column)]) + 1
    print(f"{first_column:<{width}} {'ld sect/req':>11} {'st sect/req':>11} "
          f"{'DRAM read MB':>12} {'DRAM write MB':>13} {'time us':>9}")
    for m in rows:
        cells = []
        for op in ("ld", "st"):
            sectors = m.get(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum", 0)
            requests = m.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", 0)
            cells.append(f"{ratio(sectors, requests):>11.2f}")
        cells.append(f"{m.get('dram__bytes_read.sum', 0) / 1e6:>12.1f}")
        cells.append(f"{m.get('dram__bytes_write.sum', 0) / 1e6:>13.1f}")
        cells.append(f"{m.get('gpu__time_duration.sum', 0) / 1e3:>9.1f}")
        print(f"{m['name']:<{width}} " + " ".join(cells))


def variant_notes(rows):
    notes = []
    for m in rows:
        if m["name"].startswith("transpose_fast kernel_full<"):
            args = template_args(m["kernel"])
            stores = FAST_STORES.get(args[0] if args else "", "?")
            notes.append(f"{m['name']}: the fast path of the variant profiled, stores: {stores}")
        elif not is_step_kernel(m["kernel"]):  # cuBLAS's or another library's kernel
            notes.append(f"{m['name']}: the kernel it launched, {m['kernel']}")
    return notes


def print_bank_table(rows, first_column):
    """One line per row: shared-memory conflicts of loads and stores, wavefronts per instruction."""
    width = max([len(m["name"]) for m in rows] + [len(first_column)]) + 1
    print(f"{first_column:<{width}} {'ld conflicts':>13} {'st conflicts':>13} "
          f"{'ld wavefr/instr':>16} {'st wavefr/instr':>16}")
    for m in rows:
        cells = []
        for op in ("ld", "st"):
            conflicts = m.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum", 0)
            cells.append(f"{conflicts:>13.0f}")
        for op in ("ld", "st"):
            wavefronts = m.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum", 0)
            instructions = m.get(f"smsp__sass_inst_executed_op_shared_{op}.sum", 0)
            cells.append(f"{ratio(wavefronts, instructions):>16.2f}")
        print(f"{m['name']:<{width}} " + " ".join(cells))


def kernel_label(name):
    """'void scan_large::kernel<int>(const int *, ...)' -> 'kernel<int>', with the padding named."""
    name = short_name(name)
    name = re.sub(r"\(scan_conflict_free::padding\)(\d)", lambda m: PADDING[m.group(1)], name)
    name = name.replace("scan_conflict_free::padding::", "padding=")
    return re.sub(r"^[a-z_]+::", "", name.strip())


def print_launches_table(path, note, input_bytes):
    launches, metrics = {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["ID"] == "ID":  # the header again: one run appended after another
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

    def line(r):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths)))
    print(f"# {note}")
    print(line(header))
    for r in rows:
        print(line(r))


def usage():
    print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 2 or argv[0] not in ("bank", "sectors", "launches"):
        usage()
    kind, path, rest = argv[0], argv[1], argv[2:]
    if kind == "launches":
        if not rest:
            usage()
        note, rest, input_bytes = rest[0], rest[1:], 0.0
        if rest[:1] == ["--input-bytes"] and len(rest) == 2:
            input_bytes = float(rest[1])
        elif rest:
            usage()
        print_launches_table(path, note, input_bytes)
        return
    notes, first_column = [], "step"
    while rest:
        if rest[0] == "--note" and len(rest) >= 2:
            notes.append(rest[1])
        elif rest[0] == "--first-column" and len(rest) >= 2 and kind == "sectors":
            first_column = rest[1]
        else:
            usage()
        rest = rest[2:]
    rows = read(path)
    legend = BANK_LEGEND if kind == "bank" else list(SECTORS_LEGEND)
    if kind == "sectors" and any(m["name"].startswith("transpose_fast kernel_full<")
                                 for m in rows):
        legend += BULK_STORES_LEGEND
    for n in notes + legend + variant_notes(rows):
        print(f"# {n}")
    print()
    if kind == "bank":
        print_bank_table(rows, first_column)
    else:
        print_sectors_table(rows, first_column)


if __name__ == "__main__":
    main(sys.argv[1:])
