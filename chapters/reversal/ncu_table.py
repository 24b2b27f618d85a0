#!/usr/bin/env python3
"""ncu_table.py FILE.csv [--note TEXT]...: the Nsight Compute CSV of the reversal's gpu_checks.sh as
a small text table for the pages: one row per profiled kernel (named after its program, with the
template arguments that say which variant ran), global sectors per request of loads and stores,
DRAM bytes and the kernel's time under the profiler. Parsing is the transpose part's
(chapters/transpose/ncu_table.py), and so is the table. Each --note becomes a '#' line of the header.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "transpose"))
import ncu_table as transpose_ncu  # noqa: E402

HEADER = ["global loads (ld) and stores (st): 32-byte sectors per request (4.00: a warp's 4-byte",
          "accesses use every byte of 4 sectors; 16.00: its 16-byte accesses use every byte of 16);",
          "DRAM bytes (ncu flushes the caches before the kernel; dirty lines may stay in the L2",
          "when it ends); time: the kernel under the profiler"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.splitlines()[0])
    path, notes, rest = sys.argv[1], [], sys.argv[2:]
    while rest:
        if rest[0] != "--note" or len(rest) < 2:
            sys.exit(__doc__.splitlines()[0])
        notes.append(rest[1])
        rest = rest[2:]
    rows = transpose_ncu.read(path)
    for line in notes + HEADER:
        print(f"# {line}")
    for m in rows:
        if not transpose_ncu.is_step_kernel(m["kernel"]):
            print(f"# {m['name']}: the kernel it launched, {m['kernel']}")
    print()
    transpose_ncu.print_sectors_table(rows, "kernel")


if __name__ == "__main__":
    main()
