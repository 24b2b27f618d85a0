#!/usr/bin/env python3
"""rerun_evidence.py RUN2_RESULTS.csv > book/results/<gpu>/reduction/reduce11/reduction_rerun.txt

The evidence that the final step's margin over CUB survives a rerun: from a second bench run of
the reduction part (bench.py --part reduction, written outside book/results), keeps the metadata,
the yardstick rows and the final step's rows, unchanged. The committed reduction.csv is the first
run; large_n.py reads both files and sets them side by side. A results file is never edited by
hand: this script is the only way this file is made.
"""
import sys

FINAL = "reduce11"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    out = []
    header_seen = False
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                if not line.startswith("# run_seconds:"):
                    out.append(line)
                continue
            if not line.strip():
                continue
            if not header_seen:
                header_seen = True
                out.append(line)
                continue
            fields = line.split(",")
            if len(fields) > 1 and (fields[0] == "yardstick" or fields[1] == FINAL):
                out.append(line)
    if not header_seen:
        sys.exit(f"rerun_evidence.py: {sys.argv[1]} has no rows")
    sys.stdout.write("# rerun: the second of two bench runs of the reduction part; the first is "
                     "reduction.csv (made by chapters/reduction/rerun_evidence.py)\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
