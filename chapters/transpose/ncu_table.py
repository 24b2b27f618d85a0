#!/usr/bin/env python3
"""ncu_table.py {bank|sectors} FILE.csv: the Nsight Compute CSV of gpu_checks.sh as a small text
table for the pages (one row per kernel, the counters the pages cite)."""
import csv
import sys


def read(path):
    kernels = {}  # kernel name -> {metric: value}
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
            name = cell.get("Kernel Name", "?").split("(")[0].removeprefix("void ")
            if name not in kernels:
                kernels[name] = {}
                order.append(name)
            try:
                kernels[name][cell.get("Metric Name", "")] = float(
                    cell.get("Metric Value", "").replace(",", ""))
            except ValueError:
                pass
    return order, kernels


def ratio(a, b):
    return a / b if b else 0.0


def main():
    kind, path = sys.argv[1], sys.argv[2]
    order, k = read(path)
    if kind == "bank":
        print(f"{'kernel':<44} {'ld conflicts':>13} {'st conflicts':>13} "
              f"{'ld wavefr/instr':>16} {'st wavefr/instr':>16}")
        for name in order:
            m = k[name]
            ld_i = m.get("smsp__sass_inst_executed_op_shared_ld.sum", 0)
            st_i = m.get("smsp__sass_inst_executed_op_shared_st.sum", 0)
            print(f"{name:<44} "
                  f"{m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 0):>13.0f} "
                  f"{m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum', 0):>13.0f} "
                  f"{ratio(m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 0), ld_i):>16.2f} "
                  f"{ratio(m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 0), st_i):>16.2f}")
    else:
        print(f"{'kernel':<44} {'ld sect/req':>11} {'st sect/req':>11} "
              f"{'DRAM read MB':>12} {'DRAM write MB':>13} {'time us':>9}")
        for name in order:
            m = k[name]
            print(f"{name:<44} "
                  f"{ratio(m.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 0), m.get('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 0)):>11.2f} "
                  f"{ratio(m.get('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 0), m.get('l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 0)):>11.2f} "
                  f"{m.get('dram__bytes_read.sum', 0) / 1e6:>12.1f} "
                  f"{m.get('dram__bytes_write.sum', 0) / 1e6:>13.1f} "
                  f"{m.get('gpu__time_duration.sum', 0) / 1e3:>9.1f}")


if __name__ == "__main__":
    main()
