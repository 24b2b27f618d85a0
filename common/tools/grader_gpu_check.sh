#!/usr/bin/env bash
# The grader's own test on a GPU (by hand, or in the instructor's CI). It grades
#   exercises/            -> the untouched skeletons: zero everywhere, and the grader still finishes
#   planted submissions   -> (solutions/grader-check/plant_faults.py) honest mistakes keep their
#                            scores (wrong: partial; slow: no speed points; hanging: stopped at the
#                            limit), and every cheat scores 0 or is flagged with its reason: fake
#                            output from a static initializer, an include of the solution, CUB and
#                            Thrust, a shadowed header, a redefined check macro, memoized results,
#                            a grandchild holding stdout, a write to the reference program, a read
#                            of grading.json
#   solutions/            -> full marks for every exercise (each is timed against itself)
# and writes every report under OUT_DIR (default build/grader-check); exit 0 when all held.
#   bash common/tools/grader_gpu_check.sh [OUT_DIR] [--sanitize]
#
# With --time-class N [EXERCISE] it instead times the grading of a class: N submissions of one
# exercise (default saxpy; every submission a copy of the solution, so every case and the timing
# run), then one whole submission of all ten exercises, and writes the wall times to
# OUT_DIR/class_timing.txt:
#   bash common/tools/grader_gpu_check.sh build/grader-check --time-class 30 saxpy
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/grader-check}
shift || true
sanitize=
time_class=0
class_exercise=saxpy
while [ $# -gt 0 ]; do
  case $1 in
    --sanitize) sanitize=--sanitize ;;
    --time-class)
      time_class=${2:?--time-class needs a count}; shift
      if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then class_exercise=$2; shift; fi ;;
    *) echo "grader_gpu_check: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
build_dir=$repo/build/grade
grade() { python3 "$repo/common/tools/grade.py" --build-dir "$build_dir" "$@"; }

if [ "$time_class" -gt 0 ]; then
  class=$out/class
  rm -rf "$class" && mkdir -p "$class"
  dir=$(basename "$repo"/solutions/[0-9][0-9]_"$class_exercise")
  for i in $(seq -w 1 "$time_class"); do
    mkdir -p "$class/student$i/$dir"
    # The solution, made distinct per student so that ccache compiles each one, as for a class.
    { cat "$repo/solutions/$dir/$class_exercise.cuh"
      echo "namespace $class_exercise { constexpr int class_timing_student = 1$i; }"
    } > "$class/student$i/$dir/$class_exercise.cuh"
  done
  grade --only "$class_exercise" --format json > /dev/null 2>&1  # builds the references first
  start=$(date +%s)
  grade --submissions "$class" --only "$class_exercise" --format json \
    --gradebook "$out/class_gradebook.csv" > "$out/class.json" 2> "$out/class.log"
  rc=$?
  one=$(( $(date +%s) - start ))
  start=$(date +%s)
  grade --exercises "$repo/solutions" --name whole_class_member --format json \
    > "$out/class_all_ten.json" 2> "$out/class_all_ten.log"
  rc_all=$?
  all=$(( $(date +%s) - start ))
  {
    echo "grader class timing on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)," \
         "$(nproc) cores, commit $(git -C "$repo" rev-parse --short HEAD)"
    echo "$time_class submissions of $class_exercise: ${one} s (exit $rc)"
    echo "one submission of all ten exercises: ${all} s (exit $rc_all)"
    echo "a class of $time_class with all ten, estimated: about $(( all * time_class )) s" \
         "(all ten once x $time_class; the solutions' runs are shared, so this is an upper bound)"
  } | tee "$out/class_timing.txt"
  exit $(( rc != 0 || rc_all != 0 ))
fi

failed=0
expect() {  # expect <what> <python condition over the rows `g` (and `by` exercise)> <json file>
  local line rc
  line=$(python3 - "$3" <<PY
import json, sys
try:
    g = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("FAILED: $1 (no report: %s)" % e); sys.exit(1)
by = {r["exercise"]: r for r in g}
text = lambda name: by[name]["notes"] + " | " + by[name]["flags"]
ok = bool(g) and ($2)
print(("held:   " if ok else "FAILED: ") + "$1")
sys.exit(0 if ok else 1)
PY
)
  rc=$?
  echo "$line" | tee -a "$out/summary.txt"
  [ $rc -eq 0 ] || failed=1
}

echo "== untouched skeletons: zero" | tee "$out/summary.txt"
grade --exercises "$repo/exercises" --format json > "$out/skeletons.json" 2> "$out/skeletons.log"
echo "exit $?" >> "$out/skeletons.log"
expect "every skeleton scores 0, saying not implemented" \
  'all(r["total"] == 0 and "not implemented" in r["notes"] for r in g)' "$out/skeletons.json"

echo "== planted submissions" | tee -a "$out/summary.txt"
rm -rf "$out/planted"
python3 "$repo/solutions/grader-check/plant_faults.py" "$out/planted" "$build_dir" > /dev/null
for kind in "$out"/planted/*/; do
  kind=$(basename "$kind")
  only=saxpy
  [ "$kind" = library ] && only=argmax
  args=(--exercises "$out/planted/$kind" --name "$kind" --only "$only" --format json)
  case $kind in hang|grandchild) args+=(--timeout 20) ;; esac
  start=$(date +%s)
  grade "${args[@]}" > "$out/planted_$kind.json" 2> "$out/planted_$kind.log"
  echo "exit $? after $(( $(date +%s) - start )) s" >> "$out/planted_$kind.log"
done
zero_cases='by["saxpy"]["cases_passed"] == sum(1 for c in json.load(open("'$repo'/solutions/01_saxpy/grading.json"))["cases"] if c.split()[:2] == ["--n", "0"]) * 2'
expect "wrong: loses the cases that are not multiples of the block, and the speed points" \
  'by["saxpy"]["correct"] < 70 and by["saxpy"]["cases_passed"] > 0 and by["saxpy"]["speed"] == 0 and "wrong result" in text("saxpy")' \
  "$out/planted_wrong.json"
expect "slow: every case passes, speed points lost" \
  'by["saxpy"]["correct"] == 70 and by["saxpy"]["speed"] < 30 and not by["saxpy"]["flags"]' \
  "$out/planted_slow.json"
expect "hang: stopped by the time limit; only the n = 0 cases (no launch) pass; no speed points" \
  'by["saxpy"]["correct"] < 70 and by["saxpy"]["speed"] == 0 and "time-out after 20 s" in text("saxpy")' \
  "$out/planted_hang.json"
expect "static_init: fake output from a static initializer scores 0" \
  'by["saxpy"]["total"] == 0 and "no result on the grader'"'"'s channel" in text("saxpy")' \
  "$out/planted_static_init.json"
expect "include_solution: flagged, 0" \
  'by["saxpy"]["total"] == 0 and "includes a file from outside the handout" in text("saxpy")' \
  "$out/planted_include_solution.json"
expect "library: argmax with CUB and Thrust flagged, 0" \
  'by["argmax"]["total"] == 0 and "uses cub" in text("argmax")' "$out/planted_library.json"
expect "shadowed_header: the stray header is not compiled; the do-nothing kernel passes only n = 0" \
  'by["saxpy"]["speed"] == 0 and '"$zero_cases" "$out/planted_shadowed_header.json"
expect "check_macro: the program's own check fooled, the grader's not; only n = 0 passes" \
  'by["saxpy"]["speed"] == 0 and '"$zero_cases"' and "output differs from the solution" in text("saxpy")' \
  "$out/planted_check_macro.json"
expect "memoized: every timed repetition's output compared; only n = 0 passes" \
  'by["saxpy"]["speed"] == 0 and '"$zero_cases"' and "timed repetitions" in text("saxpy")' \
  "$out/planted_memoized.json"
expect "grandchild: the grader finishes, 0" \
  'by["saxpy"]["total"] == 0' "$out/planted_grandchild.json"
expect "write_reference: refused or flagged, 0, and the reference intact (the next runs pass)" \
  'by["saxpy"]["total"] == 0' "$out/planted_write_reference.json"
expect "read_grading: grading.json out of reach, 0" \
  'by["saxpy"]["total"] == 0 and "could not read grading.json" in text("saxpy")' \
  "$out/planted_read_grading.json"

echo "== solutions: full marks" | tee -a "$out/summary.txt"
# One exercise at a time, so that each report is kept even if a later one runs out of time.
for dir in "$repo"/solutions/[0-9][0-9]_*/; do
  name=$(basename "$dir"); name=${name:3}
  start=$(date +%s)
  grade --exercises "$repo/solutions" --name solutions --only "$name" --format json $sanitize \
    > "$out/solution_$name.json" 2> "$out/solution_$name.log"
  echo "exit $? after $(( $(date +%s) - start )) s" >> "$out/solution_$name.log"
  expect "solution $name scores 100" 'all(r["total"] == 100 for r in g)' \
    "$out/solution_$name.json"
done

[ $failed -eq 0 ] && echo "grader_gpu_check: all held" | tee -a "$out/summary.txt" ||
  echo "grader_gpu_check: FAILED" | tee -a "$out/summary.txt"
exit $failed
