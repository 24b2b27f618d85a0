#!/usr/bin/env bash
# gpu_checks.sh: the measurements of Part V that the bench does not take: Nsight Compute's global
# sectors per request, DRAM bytes and kernel time of each GPU step and of Thrust's kernels. Run on
# the GPU machine from the repository root, after a build in build/:
#
#   OUT=/some/dir bash chapters/reversal/tools/gpu_checks.sh
#
# Writes under $OUT (the pages \verbinclude the .txt once it is in
# book/results/<gpu>/reversal/<step>/, with its row in evidence.tsv):
#   ncu_reversal_sectors.txt  one row per profiled kernel (the first, checked launch of its program)
#   ncu_reversal.csv          the raw ncu output behind it
#   ncu_reversal_*.log        ncu's messages
# Where the pages' files are committed, under book/results/<gpu>/ (each with a row in its
# evidence.tsv, book/README.md "Evidence"):
#   ncu_reversal_sectors.txt           -> reversal/reverse_shared/ncu_reversal_sectors.txt
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SIZE=(--n 2^26)  # 268 MB in, 268 MB out: together past a 60 MiB L2 several times

source "$HERE/../../../common/tools/ncu.sh"

# profile STEP KERNEL_REGEX [ARG...]: appends the counters of the first launch (after SKIP
# matching launches, default 0) of the kernels that match KERNEL_REGEX in STEP's program, run at
# SIZE with the ARGs.
profile() {
  local step=$1 kernel=$2
  shift 2
  echo "ncu: $step, kernel $kernel, skip ${SKIP:-0}" >&2
  ncu_counters "$NCU_SECTOR_METRICS" "$kernel" "${SKIP:-0}" 1 "$OUT/ncu_reversal_$step.log" \
    "$BIN/$step" "${SIZE[@]}" --reps 1 --warmup 0 "$@" >>"$OUT/ncu_reversal.csv"
}

rm -f "$OUT"/ncu_reversal*.csv "$OUT"/ncu_reversal_*.log
profile reverse_naive "(^|[ :])reverse_naive::kernel[<(]" --no-peer
profile reverse_naive "kernel_classic" --no-peer --classic
profile reverse_shared "(^|[ :])reverse_shared::kernel[<(]" --no-peer
profile reverse_vectorized "(^|[ :])reverse_vectorized::kernel[<(]" --no-peer
profile reverse_fast "(^|[ :])reverse_fast::kernel[<(]" --no-peer
# Thrust's kernel, launched by the peer run before ours (its names hold cub or thrust).
profile reverse_fast "cub|thrust" --type int32
profile reverse_in_place "(^|[ :])reverse_in_place::kernel[<(]" --no-peer
profile reverse_in_place "cub|thrust" --type int32
# n % 4 = 3: every window shifted. The out-of-place default, and the in-place default (exchange
# through shared memory) beside the warp-shuffle exchange from its --sweep: with --reps 1
# --warmup 0 each variant launches twice (checked, timed), and "unroll 1; warp shuffles" is the
# fifth variant, so its checked launch comes after 8 others. (At commit 5de2520 these two rows
# were asked for by a template-argument regex that matched nothing; this form is not yet run.)
SIZE=(--n 2^26+3)
profile reverse_fast "(^|[ :])reverse_fast::kernel[<(]" --no-peer
profile reverse_in_place "(^|[ :])reverse_in_place::kernel[<(]" --no-peer
SKIP=8 profile reverse_in_place "(^|[ :])reverse_in_place::kernel[<(]" --no-peer --sweep

GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
# BOOK_GIT_COMMIT names the commit where the tree has no .git (a copy on a remote GPU machine).
COMMIT=${BOOK_GIT_COMMIT:-$(git -C "$HERE" rev-parse HEAD 2>/dev/null || echo '?')}
python3 "$HERE/../../../common/tools/ncu_table.py" sectors "$OUT/ncu_reversal.csv" \
  --first-column kernel \
  --note "${GPU_NAME:-GPU ?}, n = 2^26 int32 (the last three rows: 2^26 + 3), the first (checked)" \
  --note "launch of each kernel; template arguments: <type, shift, unroll, hints[, exchange]>;" \
  --note "made by chapters/reversal/tools/gpu_checks.sh at commit ${COMMIT:0:7} from the ncu CSV" \
  >"$OUT/ncu_reversal_sectors.txt"
echo "gpu_checks: wrote $(ls "$OUT" | wc -l) files to $OUT" >&2
