#!/usr/bin/env python3
"""ncu_table.py {bank|sectors} FILE.csv [--note TEXT]...: the Nsight Compute CSV of gpu_checks.sh as
a small text table for the pages (one row per profiled kernel, the counters the pages cite).

Every step's kernel is called `kernel` in its own namespace, and ncu's "Kernel Name" column drops
the namespace, so a row is named by the program that launched it (ncu's "Process Name" column: each
step's binary is named after the step). transpose_fast's kernels are `kernel_full` (whole tiles)
and `kernel_edge`; their rows are `transpose_fast <kernel>`. Any other kernel (cuBLAS's, in
transpose_fast's run) is named `<step>: <kernel>`. Template arguments are kept, because they say
which variant was profiled; for transpose_fast they are spelled out in a note under the table.
Each --note becomes a '#' line of the header (gpu_checks.sh passes the GPU, size and commit).
"""
import csv
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


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("bank", "sectors"):
        sys.exit(__doc__.splitlines()[0])
    kind, path = sys.argv[1], sys.argv[2]
    notes, rest = [], sys.argv[3:]
    while rest:
        if rest[0] != "--note" or len(rest) < 2:
            sys.exit(__doc__.splitlines()[0])
        notes.append(rest[1])
        rest = rest[2:]
    rows = read(path)
    width = max([len(m["name"]) for m in rows] + [len("step")]) + 1
    for n in notes:
        print(f"# {n}")
    if kind == "bank":
        for n in ["shared-memory loads (ld) and stores (st): bank conflicts, and wavefronts per",
                  "warp instruction (1.00 is conflict-free for 4-byte accesses, 4.00 for the",
                  "16-byte accesses: all of transpose_fast's fast path)"]:
            print(f"# {n}")
    else:
        for n in ["global loads (ld) and stores (st): 32-byte sectors per request (4.00 is fully",
                  "used for 4-byte accesses, 16.00 for 16-byte ones, 32.00 is one sector per",
                  "thread); DRAM bytes (ncu flushes the caches before the kernel, but the L2",
                  "still holds dirty lines when it ends); time: the kernel under the profiler;",
                  "bulk copies (transpose_fast's default stores) bypass the load/store unit, so",
                  "its st sect/req is 0: the DRAM write bytes are its stores"]:
            print(f"# {n}")
    for n in variant_notes(rows):
        print(f"# {n}")
    print()
    if kind == "bank":
        print(f"{'step':<{width}} {'ld conflicts':>13} {'st conflicts':>13} "
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
    else:
        print_sectors_table(rows, "step")

if __name__ == "__main__":
    main()
