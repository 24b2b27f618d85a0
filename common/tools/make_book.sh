#!/usr/bin/env bash
# README command 1: configure and build everything, run the bench when a GPU is present (which
# rewrites book/results/<gpu>.csv), then render the book from the results in book/results/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash common/tools/ensure_deps.sh
export PATH=/usr/local/cuda/bin:$PATH
cmake --preset default
cmake --build --preset default
if build/bin/gpu_info --check >/dev/null 2>&1; then
  cmake --build --preset default --target bench
else
  echo "No CUDA device here: the bench is skipped and the committed results in book/results/ are used."
fi
if cmake --build --preset default --target help | grep -q '^book:'; then
  cmake --build --preset default --target book
  echo "The book: $PWD/build/book/html/index.html"
fi
