#!/usr/bin/env bash
# gpu_checks.sh: the GPU evidence that Part I's pages show, written under $OUT (needs a GPU).
#   $OUT/racecheck_reduce4_classic.txt  compute-sanitizer racecheck on the classic warp-synchronous
#                                       reduction (trimmed), and the same check on reduce4
#   $OUT/ncu_reduction.txt              Nsight Compute counters of each classic step's first pass
#                                       over 2^22 int32: instructions, idle lanes, shared-memory
#                                       accesses and bank conflicts, DRAM bytes, duration
# Raw outputs go to $OUT/raw/. Run from the repository root with a build in build/ (or BUILD=dir):
#   OUT=/tmp/out bash chapters/reduction/tools/gpu_checks.sh
# The two .txt files are committed as book/results/<gpu>/reduction/<step>/<name>, with a row each in
# book/results/<gpu>/evidence.tsv; the pages \verbinclude them.
# Where the pages' files are committed, under book/results/<gpu>/ (each with a row in its
# evidence.tsv, book/README.md "Evidence"):
#   ncu_reduction.txt                  -> reduction/all/ncu_reduction.txt
#   racecheck_reduce4_classic.txt      -> reduction/reduce4_classic/racecheck_reduce4_classic.txt
set -uo pipefail

build=${BUILD:-build}
out=${OUT:?set OUT to the directory for the results}
mkdir -p "$out/raw"
root=$(pwd)
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
status=0

# Paths in tool output relative to the repository root, and no function signature after file:line.
relative() { sed -E "s#$root/##g; s#([.]cuh?:[0-9]+):[^ ].*\$#\1#"; }

# ------------------------------------------------------------------------------------------------
# 1. racecheck on reduce4_classic (hazards expected) and on reduce4 (none expected)
race_cmd=(--tool racecheck --racecheck-report hazard --print-limit 200)
race_args=(--quick --type int32)
"$sanitizer" "${race_cmd[@]}" "$build/bin/reduce4_classic" "${race_args[@]}" \
  >"$out/raw/racecheck_reduce4_classic.txt" 2>&1
"$sanitizer" "${race_cmd[@]}" "$build/bin/reduce4" "${race_args[@]}" \
  >"$out/raw/racecheck_reduce4.txt" 2>&1

{
  echo "\$ compute-sanitizer --tool racecheck --racecheck-report hazard \\"
  echo "      build/bin/reduce4_classic --quick --type int32"
  echo "# GPU: $gpu; $("$sanitizer" --version 2>/dev/null | grep -i version | head -1)"
  echo "# Trimmed by chapters/reduction/tools/gpu_checks.sh: the program's checks, the first three"
  echo "# hazards in full, a count of the hazards shown by kind and source line, the summary."
  echo
  echo "# The program's own checks (the sums are right):"
  grep -E '^check ' "$out/raw/racecheck_reduce4_classic.txt" | relative
  echo
  first=$(awk '/^========= (ERROR|Error|WARN|Warning)/ { n++ } n >= 1 && n <= 3 && /^=========/ && !/SUMMARY/' \
    "$out/raw/racecheck_reduce4_classic.txt" | relative)
  tally=$(awk '/hazard detected/ { kind = $0; sub(/^.*Potential /, "", kind); sub(/ hazard.*$/, "", kind) }
       /^=========  +(Read|Write) Thread/ && match($0, /[^ \/]+[.]cuh?:[0-9]+/) {
         split($0, w, " "); count[kind "  " w[2] "  " substr($0, RSTART, RLENGTH)]++
       }
       END { for (k in count) printf "%6d  %s\n", count[k], k }' \
    "$out/raw/racecheck_reduce4_classic.txt" | sort -k2)
  if [ -n "$first" ]; then
    echo "# The first three hazards:"
    echo "$first"
    echo
    echo "# All hazards shown (at most 200), by kind, access and source line:"
    echo "$tally"
  else  # a report format this script does not know: show its beginning as it is
    echo "# The report's first 60 lines:"
    grep -E '^=========' "$out/raw/racecheck_reduce4_classic.txt" | head -60 | relative
  fi
  echo
  grep -E 'RACECHECK SUMMARY' "$out/raw/racecheck_reduce4_classic.txt"
  echo
  echo "\$ compute-sanitizer --tool racecheck --racecheck-report hazard \\"
  echo "      build/bin/reduce4 --quick --type int32"
  grep -E '^check |RACECHECK SUMMARY' "$out/raw/racecheck_reduce4.txt" | relative
} >"$out/racecheck_reduce4_classic.txt"
grep -q 'RACECHECK SUMMARY: 0 hazards' "$out/raw/racecheck_reduce4_classic.txt" && {
  echo "gpu_checks: racecheck found no hazard in reduce4_classic (expected some)" >&2
  status=1
}
grep -q 'RACECHECK SUMMARY: 0 hazards' "$out/raw/racecheck_reduce4.txt" || {
  echo "gpu_checks: racecheck did not report 0 hazards for reduce4" >&2
  status=1
}

# ------------------------------------------------------------------------------------------------
# 2. Nsight Compute: the first pass of each classic step over 2^22 int32
metrics=(
  dram__bytes_read.sum
  smsp__inst_executed.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
)
steps=(reduce0 reduce1 reduce2 reduce3 reduce4_classic reduce4 reduce5 reduce6)
metric_list=$(IFS=,; echo "${metrics[*]}")
for step in "${steps[@]}"; do
  "$ncu" --csv --print-units base --metrics "$metric_list" --kernel-name-base demangled \
    --kernel-name "regex:${step}::kernel<int>" --launch-count 1 \
    "$build/bin/$step" --n 2^22 --type int32 --reps 1 --warmup 0 \
    >"$out/raw/ncu_$step.csv" 2>"$out/raw/ncu_$step.err" || {
    echo "gpu_checks: ncu failed on $step (see raw/ncu_$step.err)" >&2
    status=1
  }
done

command -v python3 >/dev/null || { cat "$out"/raw/ncu_*.csv >"$out/ncu_reduction.txt"; exit 1; }
python3 - "$out" "$gpu" "${steps[@]}" >"$out/ncu_reduction.txt" <<'EOF'
import csv, io, sys
out, gpu, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
columns = [  # (metric, heading, scale, format)
    ("dram__bytes_read.sum", "DRAM MB", 1e-6, "{:.1f}"),
    ("smsp__inst_executed.sum", "warp inst", 1, "{:.0f}"),
    ("smsp__thread_inst_executed_per_inst_executed.ratio", "lanes/inst", 1, "{:.1f}"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared ld", 1, "{:.0f}"),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared st", 1, "{:.0f}"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "ld confl", 1, "{:.0f}"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "st confl", 1, "{:.0f}"),
]
unit_scale = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9,
              "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}
rows, kernels = [], {}
for step in steps:
    values = {}
    try:
        text = open(f"{out}/raw/ncu_{step}.csv").read()
        lines = [l for l in text.splitlines() if l.startswith('"')]  # the CSV, not the program
        for r in csv.DictReader(io.StringIO("\n".join(lines))):
            try:
                v = float(r["Metric Value"].replace(",", ""))
            except (AttributeError, KeyError, ValueError):
                continue
            v *= unit_scale.get(r.get("Metric Unit") or "", 1)  # to ns and bytes
            values[r["Metric Name"]] = v
            kernels[step] = (r.get("Grid Size") or "-").strip("()").split(",")[0]
    except OSError:
        pass
    rows.append([step, kernels.get(step, "-")] +
                [fmt.format(values[m] * s) if m in values else "-" for m, _, s, fmt in columns])
head = ["step", "blocks"] + [h for _, h, _, _ in columns]
widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
print("$ ncu --metrics <below> --kernel-name regex:'<step>::kernel<int>' --launch-count 1 \\")
print("      build/bin/<step> --n 2^22 --type int32 --reps 1 --warmup 0")
print(f"# GPU: {gpu}. The first pass only (2^22 int32 in, one partial sum per block out).")
print("# warp inst: instructions executed, counted per warp; lanes/inst: threads active per warp")
print("# instruction (32: no idle lane); shared ld/st: shared-memory load/store instructions (per")
print("# warp); ld/st confl: the extra shared-memory wavefronts that bank conflicts cost.")
print()
for r in [head] + rows:
    print("  ".join(str(x).rjust(w) if i > 0 else str(x).ljust(w)
                    for i, (x, w) in enumerate(zip(r, widths))).rstrip())
print()
print("# Metrics, in column order:")
for m, _, _, _ in columns:
    print("#   " + m)
EOF
[ -s "$out/ncu_reduction.txt" ] || status=1
echo "gpu_checks: wrote $out/racecheck_reduce4_classic.txt and $out/ncu_reduction.txt (status $status)"
exit $status
