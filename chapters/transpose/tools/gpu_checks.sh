#!/usr/bin/env bash
# gpu_checks.sh: the measurements of Part II that the bench does not take: Nsight Compute counters
# (shared-memory bank conflicts, global sectors per request, DRAM bytes) and the classic
# back-to-back timing. Run on the GPU machine from the repository root, after a build in build/:
#
#   OUT=/some/dir bash chapters/transpose/tools/gpu_checks.sh
#
# Writes under $OUT (the pages \verbinclude the .txt tables once they are in
# book/results/<gpu>/<part>/<step>/, with their rows in evidence.tsv):
#   ncu_transpose_bank_conflicts.txt  shared-memory conflicts and wavefronts per step
#   ncu_transpose_fast_stores.txt     transpose_fast's fast path with each of its three stores
#   ncu_transpose_sectors.txt         global sectors per request (loads, stores), DRAM bytes
#                                     (one row per step, named after its program by ncu_table.py;
#                                     transpose_fast's row names its kernel and template argument,
#                                     i.e. the variant profiled: the default of the commit checked out)
#   transpose_back_to_back.txt        flushed vs 100 launches in a row, 2048^2 and 16384^2
#   transpose_fast_sweep.txt          transpose_fast --sweep at the two shapes of the criterion
#   transpose_cpu_host.txt            the host CPU that transpose_cpu ran on
#   transpose_alignment_probe.txt     a tiled transpose's stores and loads alone, rows on and off
#                                     32-byte sectors, in both block orders (transpose_any_shape's page)
#   *.csv                             the raw ncu output behind the tables
# Where the pages' files are committed, under book/results/<gpu>/ (each with a row in its
# evidence.tsv, book/README.md "Evidence"):
#   ncu_transpose_bank_conflicts.txt   -> transpose/all/ncu_transpose_bank_conflicts.txt
#   ncu_transpose_fast_stores.txt      -> transpose/transpose_fast/ncu_transpose_fast_stores.txt
#   ncu_transpose_sectors.txt          -> transpose/all/ncu_transpose_sectors.txt
#   transpose_alignment_probe.txt      -> transpose/transpose_any_shape/transpose_alignment_probe.txt
#   transpose_back_to_back.txt         -> transpose/all/transpose_back_to_back.txt
#   transpose_cpu_host.txt             -> transpose/transpose_cpu/host.txt
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SIZE=(--rows 4096 --cols 4096)  # 67 MB in, 67 MB out: together past a 60 MiB L2

source "$HERE/../../../common/tools/ncu.sh"
BANK_METRICS=$NCU_BANK_METRICS
SECTOR_METRICS=$NCU_SECTOR_METRICS

# profile STEP METRICS CSV [KERNEL [ARG...]]: appends to CSV the counters of the first launch (the
# checked run) at SIZE of the kernel that matches the regex KERNEL in STEP's program, run with the
# ARGs. Without KERNEL: STEP::kernel, run with --no-peer.
profile() {
  local step=$1 metrics=$2 csv=$3 kernel="(^|[ :])$1::kernel" args=(--no-peer)
  if [ $# -ge 4 ]; then
    kernel=$4
    args=("${@:5}")
  fi
  echo "ncu: $step, kernel $kernel" >&2
  ncu_counters "$metrics" "$kernel" "" 1 "$OUT/ncu_${step}.log" \
    "$BIN/$step" "${SIZE[@]}" "${args[@]}" --reps 1 --warmup 0 >>"$csv"
}

rm -f "$OUT"/ncu_*.csv "$OUT"/ncu_*.log
for step in copy_shared transpose_coalesced transpose_no_bank_conflicts transpose_tile64 \
            transpose_fast; do
  profile "$step" "$BANK_METRICS" "$OUT/ncu_transpose_bank_conflicts.csv"
done
for step in copy copy_shared copy_col transpose_naive transpose_naive_col \
            transpose_naive_row_unroll4 transpose_naive_col_unroll4 transpose_coalesced \
            transpose_no_bank_conflicts transpose_coarse_grained transpose_fine_grained \
            transpose_diagonal transpose_tile64 transpose_fast; do
  profile "$step" "$SECTOR_METRICS" "$OUT/ncu_transpose_sectors.csv"
done
# The peer's kernel too, as transpose_fast's run calls cublasSgeam (its kernel names contain geam
# or, for a transpose, transpose_readWrite; ours contain neither).
profile transpose_fast "$SECTOR_METRICS" "$OUT/ncu_transpose_sectors.csv" "geam|readWrite"

# transpose_fast's three store variants side by side (its --sweep), bank counters of the fast path:
# do the bulk copies, which read the output tile from shared memory, show up in them?
for stores in 0 1 2; do  # kernel_full<STORES>: bulk, streaming, plain
  profile transpose_fast "$BANK_METRICS" "$OUT/ncu_transpose_fast_stores.csv" \
    "transpose_fast::kernel_full<[^>]*$stores>" --sweep --no-peer
done

# The tables: one row per profiled launch, named after the program that made it (every step's
# kernel is `kernel` in its own namespace, which ncu's kernel-name column leaves out).
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
# BOOK_GIT_COMMIT names the commit where the tree has no .git (a copy on a remote GPU machine).
COMMIT=${BOOK_GIT_COMMIT:-$(git -C "$HERE" rev-parse HEAD 2>/dev/null || echo '?')}
COMMIT=${COMMIT:0:7}
NCU_TABLE="$HERE/../../../common/tools/ncu_table.py"
NOTES=(--note "${GPU_NAME:-GPU ?}, ${SIZE[1]} x ${SIZE[3]} floats, the first (checked) launch"
       --note "of each step; made by chapters/transpose/tools/gpu_checks.sh at commit $COMMIT"
       --note "from the ncu CSV beside it")
python3 "$NCU_TABLE" bank "$OUT/ncu_transpose_bank_conflicts.csv" "${NOTES[@]}" \
  >"$OUT/ncu_transpose_bank_conflicts.txt"
python3 "$NCU_TABLE" sectors "$OUT/ncu_transpose_sectors.csv" "${NOTES[@]}" \
  >"$OUT/ncu_transpose_sectors.txt"
python3 "$NCU_TABLE" bank "$OUT/ncu_transpose_fast_stores.csv" "${NOTES[@]}" \
  >"$OUT/ncu_transpose_fast_stores.txt"

# The classic timing (source 002): launches in a row, nothing flushed, beside the book's timing.
{
  for size in 2048 16384; do
    for step in copy transpose_naive transpose_coalesced transpose_no_bank_conflicts \
                transpose_diagonal; do
      "$BIN/$step" --rows "$size" --cols "$size" --no-peer --back-to-back 2>&1 |
        grep -v '^check ok'
    done
  done
} >"$OUT/transpose_back_to_back.txt"

{
  "$BIN/transpose_fast" --rows 16384 --cols 16384 --sweep 2>&1
  "$BIN/transpose_fast" --rows 8192 --cols 32768 --sweep 2>&1
} >"$OUT/transpose_fast_sweep.txt"

{ lscpu | grep -E 'Model name|Socket|Core|Thread|L1d|L2|L3|MHz'; } \
  >"$OUT/transpose_cpu_host.txt" 2>&1

{
  echo "# transpose_alignment_probe (chapters/transpose/18_transpose_any_shape/tools/alignment_probe.cu);" \
    "commit $COMMIT"
  "$BIN/transpose_alignment_probe"
} >"$OUT/transpose_alignment_probe.txt" 2>&1
echo "gpu_checks: wrote $(ls "$OUT" | wc -l) files to $OUT" >&2
