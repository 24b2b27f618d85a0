#!/usr/bin/env bash
# gpu_checks.sh: the measurements of Part III that the bench does not take. Run on the GPU machine
# from the repository root, after a build in build/:
#
#   OUT=/some/dir bash chapters/scan/tools/gpu_checks.sh
#
# Writes under $OUT (the pages \verbinclude the .txt files once they are in
# book/results/<gpu>/<part>/<step>/, with their rows in evidence.tsv):
#   ncu_scan_bank_conflicts.csv   Nsight Compute: shared-memory bank conflicts and wavefronts of
#                                 the single-block tree scans, n = 2048 int32 (scan_work_efficient,
#                                 scan_conflict_free with no padding, the miscopied macro's, and the
#                                 correct one); common/tools/ncu_table.py makes
#                                 ncu_scan_bank_conflicts.txt
#   ncu_scan_dram.csv             DRAM bytes read and written by every kernel of one scan of 2^26
#                                 int32 (scan_large, scan_reduce_then_scan, scan_lookback);
#                                 common/tools/ncu_table.py makes ncu_scan_dram.txt
#   scan_naive_classic.txt        the slides' += listing's output on the slides' 8 elements
#   scan_lookback_inclusive.txt   scan_lookback --inclusive at 2^16 and 2^28, with CUB's InclusiveSum
#   scan_cpu_host.txt             the host CPU that scan_cpu ran on
#   scan_pipelined_probe.txt      scan_pipelined_probe at 2^28: where scan_pipelined's time goes
# Where the pages' files are committed, under book/results/<gpu>/ (each with a row in its
# evidence.tsv, book/README.md "Evidence"):
#   ncu_scan_bank_conflicts.txt        -> scan/scan_conflict_free/ncu_scan_bank_conflicts.txt
#   ncu_scan_dram.txt                  -> scan/scan_large/ncu_scan_dram.txt
#   scan_cpu_host.txt                  -> scan/scan_cpu/host.txt
#   scan_lookback_inclusive.txt        -> scan/scan_lookback/inclusive.txt
#   scan_naive_classic.txt             -> scan/scan_naive/classic.txt
#   scan_pipelined_probe.txt           -> scan/scan_pipelined/probe.txt
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
COMMIT=${BOOK_GIT_COMMIT:-$(git -C "$HERE" rev-parse HEAD 2>/dev/null || echo '?')}

source "$HERE/../../../common/tools/ncu.sh"
BANK_METRICS=$NCU_BANK_METRICS,gpu__time_duration.sum
DRAM_METRICS=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum

# profile CSV LAUNCHES KERNEL_REGEX STEP ARGS...: appends to CSV the counters of the first LAUNCHES
# launches (the checked run) of the kernels matching KERNEL_REGEX in STEP's program.
profile() {
  local csv=$1 metrics=$2 launches=$3 kernel=$4 step=$5
  shift 5
  echo "ncu: $step $*" >&2
  ncu_counters "$metrics" "$kernel" "" "$launches" "$OUT/ncu_scan.log" \
    "$BIN/$step" "$@" --no-peer --reps 1 --warmup 0 >>"$csv"
}

rm -f "$OUT"/ncu_scan_*.csv "$OUT/ncu_scan.log"
profile "$OUT/ncu_scan_bank_conflicts.csv" "$BANK_METRICS" 1 "::kernel<" scan_work_efficient \
  --n 2048 --type int32
for padding in none miscopied correct; do
  profile "$OUT/ncu_scan_bank_conflicts.csv" "$BANK_METRICS" 1 "::kernel<" scan_conflict_free \
    --n 2048 --type int32 --variant "padding=$padding"
done
# One scan each: scan_large's 2^26 elements take 3 tile launches (2^15 tiles, 16 sums, 1) and 2
# adds; scan_reduce_then_scan's 3 launches; scan_lookback's 1 (the memset is not a kernel).
profile "$OUT/ncu_scan_dram.csv" "$DRAM_METRICS" 5 "::(kernel|add_tile_prefixes)<" scan_large \
  --n 2^26 --type int32
profile "$OUT/ncu_scan_dram.csv" "$DRAM_METRICS" 3 "::(kernel|reduce_tiles|scan_tile_sums)<" \
  scan_reduce_then_scan --n 2^26 --type int32
profile "$OUT/ncu_scan_dram.csv" "$DRAM_METRICS" 1 "::kernel<" scan_lookback --n 2^26 --type int32

NOTE="${GPU_NAME:-GPU ?}; made by chapters/scan/tools/gpu_checks.sh at commit ${COMMIT:0:7}"
NCU_TABLE="$HERE/../../../common/tools/ncu_table.py"
python3 "$NCU_TABLE" launches "$OUT/ncu_scan_bank_conflicts.csv" "$NOTE, n = 2048 int32" \
  >"$OUT/ncu_scan_bank_conflicts.txt"
python3 "$NCU_TABLE" launches "$OUT/ncu_scan_dram.csv" "$NOTE, n = 2^26 int32" \
  --input-bytes 268435456 \
  >"$OUT/ncu_scan_dram.txt"

{
  echo "# the slides' listing (kernel_classic) and the corrected kernel on 3 1 7 0 4 1 6 3;"
  echo "# ${GPU_NAME:-GPU ?}, commit ${COMMIT:0:7}"
  "$BIN/scan_naive_test" -tc='classic*' -s 2>&1 | grep -E 'MESSAGE|listing gives|mismatch|test cases'
} >"$OUT/scan_naive_classic.txt"

{
  echo "# scan_lookback --inclusive (the default shape; the bench measures the exclusive scan);"
  echo "# ${GPU_NAME:-GPU ?}, commit ${COMMIT:0:7}"
  for n in 2^16 2^28; do
    "$BIN/scan_lookback" --n "$n" --inclusive 2>&1 | grep -v '^check ok'
  done
} >"$OUT/scan_lookback_inclusive.txt"

{
  echo "# scan_pipelined_probe (chapters/scan/08_scan_pipelined/tools/probe.cu); commit ${COMMIT:0:7}"
  "$BIN/scan_pipelined_probe" --n 2^28
} >"$OUT/scan_pipelined_probe.txt" 2>&1

{ lscpu | grep -E 'Model name|Socket|Core|Thread|L1d|L2|L3|MHz'; } >"$OUT/scan_cpu_host.txt" 2>&1
echo "gpu_checks: wrote $(ls "$OUT" | wc -l) files to $OUT" >&2
