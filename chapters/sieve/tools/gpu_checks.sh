#!/usr/bin/env bash
# GPU evidence for Part IV's pages, written under $OUT (default: build/gpu_checks):
#   sieve_shared_racecheck.txt  racecheck on sieve_shared's plain-store strikes (the listing's
#                               "who writes the same word at once") and on the atomic fix.
#   sieve_segmented_ncu.txt     Nsight Compute counters of sieve_segmented's two segment kernels
#                               (bit_atomics, byte_stores) at 10^9 and 10^10: time, instructions,
#                               threads active per instruction, shared-memory atomics and stores
#                               with their wavefronts; and the shared atomics in the SASS.
#   sieve_segmented_probe.txt   sieve_segmented_probe: a count's time beside finding its sieving
#                               primes on the host, short ranges and far from 0; the launch floor.
# Run from the repository root after building: bash chapters/sieve/tools/gpu_checks.sh [build dir]
# Where the pages' files are committed, under book/results/<gpu>/ (each with a row in its
# evidence.tsv, book/README.md "Evidence"):
#   sieve_segmented_ncu.txt            -> sieve/sieve_segmented/ncu.txt
#   sieve_segmented_probe.txt          -> sieve/sieve_segmented/probe.txt
#   sieve_shared_racecheck.txt         -> sieve/sieve_shared/racecheck.txt
set -u
build=${1:-${BUILD:-build}}
out=${OUT:-build/gpu_checks}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  echo "# compute-sanitizer racecheck, sieve_shared at n = 20000 (3 tiles), $(date -u +%F)"
  for variant in plain_stores atomic; do
    echo
    echo "## --variant $variant"
    "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 4 \
      "$build/bin/sieve_shared" --variant "$variant" --n 20000 --reps 1 --warmup 0 2>&1 |
      grep -E "RACECHECK SUMMARY|hazard|Error|check " | head -12
  done
} >"$out/sieve_shared_racecheck.txt"
cat "$out/sieve_shared_racecheck.txt"

OUT=$out BUILD=$build  # what ncu.sh expects
# shellcheck source=../../../common/tools/ncu.sh
source "$here/../../../common/tools/ncu.sh"
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,\
smsp__issue_active.avg.pct_of_peak_sustained_active,\
smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
csv=$out/sieve_segmented_ncu.csv
: >"$csv"
for n in 1e9 1e10; do
  for variant in bit_atomics byte_stores; do
    echo "\"run\",\"$variant\",\"$n\"" >>"$csv"
    ncu_counters "$metrics" '(bit|byte)_segment_kernel' "" 1 "$out/ncu_messages.log" \
      "$build/bin/sieve_segmented" --n "$n" --variant "$variant" --reps 1 --warmup 0 >>"$csv"
  done
done
{
  echo "# Nsight Compute, sieve_segmented's segment kernel (first launch of the run; one launch"
  echo "# sieves the whole range at these sizes), $(date -u +%F). ncu locks the clocks to base:"
  echo "# its times are longer than the bench's."
  python3 - "$csv" <<'PY'
import csv, sys
rows, run = {}, None
for rec in csv.reader(open(sys.argv[1])):
    if rec[0] == "run":
        run = (rec[2], rec[1]); rows[run] = {}
    elif len(rec) > 14 and rec[0] != "ID" and run:
        rows[run][rec[-3]] = float(rec[-1].replace(",", ""))
def get(m, k):
    return m.get(k, float("nan"))
print(f"{'n':>5} {'variant':<12} {'time ms':>8} {'warp instr':>11} {'threads/instr':>13} "
      f"{'issue %':>7} {'shared atom':>11} {'atom wavefr':>11} {'shared st':>10} {'st wavefr':>10}")
for (n, v), m in rows.items():
    inst = get(m, "smsp__inst_executed.sum")
    print(f"{n:>5} {v:<12} {get(m, 'gpu__time_duration.sum') * 1e-6:8.2f} {inst:11.3g} "
          f"{get(m, 'smsp__thread_inst_executed.sum') / inst:13.1f} "
          f"{get(m, 'smsp__issue_active.avg.pct_of_peak_sustained_active'):7.1f} "
          f"{get(m, 'smsp__sass_inst_executed_op_shared_atom.sum'):11.3g} "
          f"{get(m, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'):11.3g} "
          f"{get(m, 'smsp__sass_inst_executed_op_shared_st.sum'):10.3g} "
          f"{get(m, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'):10.3g}")
PY
  echo
  echo "# shared-memory atomics in the program's SASS (cuobjdump -sass), by opcode"
  cuobjdump -sass "$build/bin/sieve_segmented" | grep -oE "ATOMS(\.[A-Z0-9]+)*" | sort | uniq -c
} >"$out/sieve_segmented_ncu.txt"
cat "$out/sieve_segmented_ncu.txt"

{
  echo "# sieve_segmented_probe (chapters/sieve/10_sieve_segmented/tools/probe.cu) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%F); program output unedited below this header"
  "$build/bin/sieve_segmented_probe"
} >"$out/sieve_segmented_probe.txt" 2>&1
cat "$out/sieve_segmented_probe.txt"
