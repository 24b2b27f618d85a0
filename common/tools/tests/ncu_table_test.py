#!/usr/bin/env python3
"""ncu_table_test: common/tools/ncu_table.py on a small Nsight Compute CSV in each of its modes, as
the parts' gpu_checks.sh call it; wrong usage exits 2. Exit 0 when every case holds (CTest:
book.ncu_table, label unit)."""
import os
import re
import subprocess
import sys
import tempfile

TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ncu_table.py")
HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
          '"Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",'
          '"Metric Value"')


def row(launch, pid, process, kernel, metric, value):
    return (f'"{launch}","{pid}","{process}","h","{kernel}","1","7","(32, 8, 1)","(128, 128, 1)",'
            f'"0","9.0","s","{metric}","","{value}"')


NAIVE = "void transpose_naive::kernel<32>(const float *, float *, int, int)"
FAST = "void transpose_fast::kernel_full<0>(const float *, float *, int, int)"
GEAM = "void transpose_readWrite_alignment_kernel<float, float, 1, 0, 6, 5, 3>(float *)"
PADDED = "void scan_conflict_free::kernel<int, (scan_conflict_free::padding)2>(const int *, int *)"
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
LD_REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
CSV = "\n".join([
    HEADER,
    row(0, 11, "transpose_naive", NAIVE, LD, "1,024"),
    row(0, 11, "transpose_naive", NAIVE, LD_REQ, "256"),
    row(0, 11, "transpose_naive", NAIVE, "dram__bytes_read.sum", "67108864"),
    row(0, 11, "transpose_naive", NAIVE, CONFLICTS, "4096"),
    HEADER,  # a second run appended, with its own header
    row(0, 12, "transpose_fast", FAST, LD, "512"),
    row(0, 12, "transpose_fast", FAST, LD_REQ, "32"),
    row(1, 12, "transpose_fast", GEAM, LD, "512"),
    row(1, 12, "transpose_fast", GEAM, LD_REQ, "128"),
    HEADER,
    row(0, 13, "scan_conflict_free", PADDED, "dram__bytes_read.sum", "8192"),
    row(0, 13, "scan_conflict_free", PADDED, "dram__bytes_write.sum", "8192"),
]) + "\n"

# (arguments after the CSV's path, expected exit code, regexes the output must match)
CASES = [
    (["sectors", "{csv}", "--note", "GPU X"], 0,
     [r"^# GPU X$", r"transpose_naive<32> +4\.00 ", r"transpose_fast kernel_full<0> +16\.00 ",
      r"cublasSgeam +4\.00 ", r"stores: bulk copies", r"bulk copies \(transpose_fast's default"]),
    (["sectors", "{csv}", "--first-column", "kernel"], 0, [r"^kernel +ld sect/req"]),
    (["bank", "{csv}"], 0, [r"^step +ld conflicts", r"transpose_naive<32> +0 +4096 "]),
    (["launches", "{csv}", "a note", "--input-bytes", "8192"], 0,
     [r"^# a note$", r"scan_conflict_free +kernel<int, padding=correct>",
      r"scan_conflict_free +total: 2\.00 x input bytes"]),
    ([], 2, [r"ncu_table\.py bank FILE\.csv"]),
    (["sectors", "{csv}", "--no-such-flag", "x"], 2, [r"ncu_table\.py bank FILE\.csv"]),
    (["launches", "{csv}"], 2, [r"ncu_table\.py launches FILE\.csv NOTE"]),
]


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        csv_path = os.path.join(work, "ncu.csv")
        with open(csv_path, "w", encoding="utf-8") as f:
            f.write(CSV)
        for args, want_rc, patterns in CASES:
            args = [a.replace("{csv}", csv_path) for a in args]
            r = subprocess.run([sys.executable, TABLE] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            problems = [] if r.returncode == want_rc else [f"exit {r.returncode}, not {want_rc}"]
            problems += [f"no /{p}/" for p in patterns if not re.search(p, r.stdout, re.M)]
            name = " ".join(a if a != csv_path else "CSV" for a in args) or "(no arguments)"
            if problems:
                failures += 1
                print(f"ncu_table_test {name}: FAIL: {'; '.join(problems)}\n{r.stdout}")
            else:
                print(f"ncu_table_test {name}: as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
