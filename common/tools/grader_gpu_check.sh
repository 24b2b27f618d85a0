#!/usr/bin/env bash
# The grader's own test on a GPU (by hand, or in the instructor's CI). It grades
#   exercises/            -> the untouched skeletons: zero everywhere, and the grader still finishes
#   planted submissions   -> (solutions/grader-check/plant_faults.py) honest mistakes keep their
#                            scores (wrong: partial; slow: no speed points; hanging: stopped at the
#                            limit), and every cheat scores 0 or is flagged with its reason: fake
#                            output from a static initializer, an include of the solution, CUB and
#                            Thrust, a shadowed header, a redefined check macro, memoized results,
#                            a forged timing summary or event clock, a grandchild holding stdout,
#                            a write to the reference program, a run of it in the student's
#                            place, a read of grading.json
#   solutions/            -> full marks for every exercise (each is timed against itself)
# and writes every report under OUT_DIR (default build/grader-check), appending the verdicts to
# OUT_DIR/summary.txt; exit 0 when all held.
#   bash common/tools/grader_gpu_check.sh [OUT_DIR] [--sanitize] [--section skeletons|planted|
#        solutions ...] [--solutions saxpy,argmax,...] [--classes saxpy,limits,argmax]
# --section (repeatable) runs only those parts, --solutions only those solutions, --classes only
# those classes of plants (saxpy: most plants; limits: hang; argmax: library): a
# machine that allows ten minutes per command runs the check in several calls on one OUT_DIR.
#
# With --time-class N [EXERCISE] it instead times the grading of a class: N submissions of one
# exercise (default saxpy; "all": all ten), each a copy of the solution, so that every case and
# the timing runs run, and appends the wall time to OUT_DIR/class_timing.txt:
#   bash common/tools/grader_gpu_check.sh build/grader-check --time-class 30 saxpy
#   bash common/tools/grader_gpu_check.sh build/grader-check --time-class 1 all
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/grader-check}
shift || true
sanitize=
sections=
only_solutions=
only_classes=
time_class=0
class_exercise=saxpy
while [ $# -gt 0 ]; do
  case $1 in
    --sanitize) sanitize=--sanitize ;;
    --section) sections=${sections:+$sections,}${2:?--section needs skeletons, planted or solutions}
      shift ;;
    --solutions) only_solutions=${2:?--solutions needs names, e.g. saxpy,argmax}; shift ;;
    --classes) only_classes=${2:?--classes needs saxpy, limits or argmax}; shift ;;
    --time-class)
      time_class=${2:?--time-class needs a count}; shift
      if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then class_exercise=$2; shift; fi ;;
    *) echo "grader_gpu_check: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
build_dir=$repo/build/grade
# As the README asks of an instructor: solutions/ readable by its owner only, so that students'
# programs (user nobody, when run as root) cannot open it even where no mount namespace hides it.
chmod -R go-rwx "$repo/solutions"
# GRADE_EXTRA: options added to every grade call, e.g. GRADE_EXTRA="--memory-limit-gb 0 --parallel 2"
grade() { python3 "$repo/common/tools/grade.py" --build-dir "$build_dir" ${GRADE_EXTRA:-} "$@"; }

if [ "$time_class" -gt 0 ]; then
  # N submissions of one exercise (or of all ten: EXERCISE "all"), each the solution made
  # distinct per student so that ccache compiles each one, as for a real class.
  class=$out/class_$class_exercise
  rm -rf "$class" && mkdir -p "$class"
  for i in $(seq -w 1 "$time_class"); do
    for dir in "$repo"/solutions/[0-9][0-9]_*/; do
      dir=$(basename "$dir"); name=${dir:3}
      [ "$class_exercise" = all ] || [ "$name" = "$class_exercise" ] || continue
      mkdir -p "$class/student$i/$dir"
      { cat "$repo/solutions/$dir/$name.cuh"
        echo "namespace $name { constexpr int class_timing_student = 1$i; }"
      } > "$class/student$i/$dir/$name.cuh"
    done
  done
  only=()
  [ "$class_exercise" = all ] || only=(--only "$class_exercise")
  # The solutions' build and the scratch tree first, so that the figure is the students' grading.
  grade "${only[@]}" --exercises "$repo/exercises" --format json > /dev/null 2>&1
  start=$(date +%s)
  grade --submissions "$class" "${only[@]}" --format json \
    --gradebook "$out/class_${class_exercise}_gradebook.csv" > "$out/class_$class_exercise.json" \
    2> "$out/class_$class_exercise.log"
  rc=$?
  took=$(( $(date +%s) - start ))
  {
    echo "grader class timing on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)," \
         "$(nproc) cores, commit ${BOOK_GIT_COMMIT:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "$time_class submission(s) of $class_exercise graded in ${took} s (exit $rc)"
    python3 - "$out/class_$class_exercise.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
totals = [r["total"] for r in rows]
print(f"{len(rows)} grades, {sum(1 for t in totals if t == 100)} at 100, "
      f"{sum(1 for r in rows if r['status'] != 'graded')} not graded")
PY
  } | tee -a "$out/class_timing.txt"
  exit $rc
fi

failed=0
# expect <what> <python condition over `r` (a report row)> <json> [<student>[/<exercise>]]
expect() {
  local line rc
  line=$(python3 - "$3" "${4:-}" <<PY
import json, sys
try:
    g = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("FAILED: $1 (no report: %s)" % e); sys.exit(1)
rows = [r for r in g if not sys.argv[2] or sys.argv[2] in (r["student"],
                                                           r["student"] + "/" + r["exercise"])]
zero_cases = sum(1 for c in json.load(open("$repo/solutions/01_saxpy/grading.json"))["cases"]
                 if c.split()[:2] == ["--n", "0"]) * 2
ok = bool(rows)
for r in rows:
    text = r["notes"] + " | " + r["flags"]
    ok = ok and ($2)
print(("held:   " if ok else "FAILED: ") + "$1")
if not ok:
    for r in rows:
        print("        %s / %s: total %s, flags %r, notes %r" % (r["student"], r["exercise"],
              r["total"], r["flags"][:300], r["notes"][:300]))
sys.exit(0 if ok else 1)
PY
)
  rc=$?
  echo "$line" | tee -a "$out/summary.txt"
  [ $rc -eq 0 ] || failed=1
}
section() { [ -z "$sections" ] || [[ ",$sections," == *",$1,"* ]]; }

if section skeletons; then
  echo "== untouched skeletons: zero" | tee -a "$out/summary.txt"
  grade --exercises "$repo/exercises" --format json > "$out/skeletons.json" 2> "$out/skeletons.log"
  echo "exit $?" >> "$out/skeletons.log"
  expect "every skeleton scores 0, saying not implemented" \
    'r["total"] == 0 and "not implemented" in r["notes"]' "$out/skeletons.json"
fi

if section planted; then
  echo "== planted submissions (solutions/grader-check/plant_faults.py)" | tee -a "$out/summary.txt"
  rm -rf "$out/planted" "$out/plants"
  python3 "$repo/solutions/grader-check/plant_faults.py" "$out/plants" "$build_dir" > /dev/null
  # Three classes of submissions: saxpy plants, the hanging one (a short time limit), argmax.
  mkdir -p "$out/planted/saxpy" "$out/planted/limits" "$out/planted/argmax"
  for kind in "$out"/plants/*/; do
    kind=$(basename "$kind")
    case $kind in
      hang) cp -r "$out/plants/$kind" "$out/planted/limits/" ;;
      library) cp -r "$out/plants/$kind" "$out/planted/argmax/" ;;
      *) cp -r "$out/plants/$kind" "$out/planted/saxpy/" ;;
    esac
  done
  for class in saxpy limits argmax; do
    [ -z "$only_classes" ] || [[ ",$only_classes," == *",$class,"* ]] || continue
    args=(--submissions "$out/planted/$class" --only saxpy --format json
          --gradebook "$out/planted_$class.gradebook.csv")
    [ $class = limits ] && args+=(--timeout 20)
    [ $class = argmax ] && args[3]=argmax
    start=$(date +%s)
    grade "${args[@]}" > "$out/planted_$class.json" 2> "$out/planted_$class.log"
    echo "exit $? after $(( $(date +%s) - start )) s" >> "$out/planted_$class.log"
  done
  s=$out/planted_saxpy.json
  ran() { [ -z "$only_classes" ] || [[ ",$only_classes," == *",$1,"* ]]; }
  ran saxpy && expect "wrong: loses the cases that are not multiples of the block, and the speed points" \
    'r["correct"] < 70 and r["cases_passed"] > 0 and r["speed"] == 0 and "wrong" in text' "$s" wrong
  ran saxpy && expect "slow: every case passes, speed points lost" \
    'r["correct"] == 70 and r["speed"] < 30 and not r["flags"]' "$s" slow
  ran limits && expect "hang: stopped by the time limit; only the n = 0 cases (no launch) pass; no speed points" \
    'r["correct"] < 70 and r["speed"] == 0 and "time-out after 20 s" in text' \
    "$out/planted_limits.json" hang
  ran saxpy && expect "static_init: fake output from a static initializer scores 0" \
    'r["total"] == 0 and "no result on the grader" in text' "$s" static_init
  ran saxpy && expect "include_solution: flagged, 0" \
    'r["total"] == 0 and "includes a file from outside the handout" in text' "$s" include_solution
  ran argmax && expect "library: argmax with CUB and Thrust flagged, 0" \
    'r["total"] == 0 and "uses cub" in text' "$out/planted_argmax.json" library
  ran saxpy && expect "shadowed_header: the stray header is not compiled; the do-nothing kernel passes n = 0 only" \
    'r["speed"] == 0 and r["cases_passed"] == zero_cases' "$s" shadowed_header
  ran saxpy && expect "check_macro: the macro reaches only the student's own file; n = 0 passes only" \
    'r["speed"] == 0 and r["cases_passed"] == zero_cases' "$s" check_macro
  ran saxpy && expect "forged_stats: a summarize of its own flagged, 0" \
    'r["total"] == 0 and "a function of the grader" in text' "$s" forged_stats
  ran saxpy && expect "forged_clock: a cudaEventElapsedTime of its own flagged, 0" \
    'r["total"] == 0 and "outside namespace saxpy" in text' "$s" forged_clock
  ran saxpy && expect "memoized: every timed repetition's output compared; only n < 2 passes" \
    'r["speed"] == 0 and r["correct"] < 70 and "timed repetitions" in text' \
    "$s" memoized
  ran saxpy && expect "grandchild: the grader finishes, 0" 'r["total"] == 0' "$s" grandchild
  ran saxpy && expect "write_reference: refused or flagged, 0" 'r["total"] == 0' "$s" write_reference
  ran saxpy && expect "run_reference: the solution's program out of reach, 0" \
    'r["total"] == 0' "$s" run_reference
  ran saxpy && expect "read_grading: grading.json out of reach, 0" \
    'r["total"] == 0 and "could not read grading.json" in text' "$s" read_grading
fi

if section solutions; then
  echo "== solutions: full marks" | tee -a "$out/summary.txt"
  # The chosen solutions in one call (their runs share the GPU, as a student's exercises do); the
  # log says when each one was done, should the call run out of time.
  names=()
  for dir in "$repo"/solutions/[0-9][0-9]_*/; do
    name=$(basename "$dir"); name=${name:3}
    [ -z "$only_solutions" ] || [[ ",$only_solutions," == *",$name,"* ]] || continue
    names+=("$name")
  done
  start=$(date +%s)
  grade --exercises "$repo/solutions" --name solutions $(printf -- '--only %s ' "${names[@]}") \
    --format json $sanitize > "$out/solutions.json" 2> "$out/solutions.log"
  echo "exit $? after $(( $(date +%s) - start )) s" >> "$out/solutions.log"
  for name in "${names[@]}"; do
    expect "solution $name scores 100" 'r["total"] == 100' "$out/solutions.json" "solutions/$name"
  done
fi

[ $failed -eq 0 ] && echo "grader_gpu_check: all held" | tee -a "$out/summary.txt" ||
  echo "grader_gpu_check: FAILED" | tee -a "$out/summary.txt"
exit $failed
