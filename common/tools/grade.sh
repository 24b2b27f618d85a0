#!/usr/bin/env bash
# The instructor's grader (see common/tools/grade.py for the rules and the scale):
#   bash common/tools/grade.sh --exercises ~/alice/exercises        # one student's copy
#   bash common/tools/grade.sh --submissions ~/course/submissions   # one folder per student
# Options: --name NAME, --only NAME, --seed S, --sanitize, --format human|csv|json, --build-dir DIR,
# --jobs J, --timeout S, --memory-limit-gb G. It compiles and runs students' code, contained as
# far as the machine allows (see grade.py): best as root, in a container or VM of your own.
set -euo pipefail
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
exec python3 "$(dirname "$0")/grade.py" "$@"
