#!/usr/bin/env bash
# expect_exit.sh CODE REGEX PROGRAM [ARGS...]
# Passes (exit 0) when PROGRAM exits with CODE and its output (stdout + stderr) matches the
# extended REGEX. Exits 77 (CTest: Skipped) when PROGRAM reports no CUDA device (77) or that its
# idea is not available on this GPU (78), and CODE is neither; and when PROGRAM refuses a size
# that needs more device memory than is free (a usage error, 2, that says so) and CODE is not 2:
# a GPU of 16 GB skips the runs past 2^31 elements instead of failing them.
set -u
expected=$1 pattern=$2
shift 2
output=$("$@" 2>&1)
actual=$?
printf '%s\n' "$output"
if [ "$actual" -eq 77 ] && [ "$expected" -ne 77 ]; then
  echo "expect_exit: no CUDA device, skipped"
  exit 77
fi
if [ "$actual" -eq 78 ] && [ "$expected" -ne 78 ]; then
  echo "expect_exit: not available on this GPU, skipped"
  exit 77
fi
if [ "$actual" -eq 2 ] && [ "$expected" -ne 2 ] &&
   printf '%s\n' "$output" | grep -q "of device memory; .* free, so"; then
  echo "expect_exit: too little free device memory for this size, skipped"
  exit 77
fi
if [ "$actual" -ne "$expected" ]; then
  echo "expect_exit: exit code $actual, expected $expected"
  exit 1
fi
if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
  echo "expect_exit: output does not match /$pattern/"
  exit 1
fi
echo "expect_exit: exit $actual and /$pattern/ as expected"
