#!/usr/bin/env bash
# ensure_deps.sh: checks for the CUDA toolkit and the Debian packages the build, the tests and the
# book need; installs the missing packages when run as root, else prints the apt-get line and
# exits 1. Used by the README's two commands (common/tools/make_book.sh and run_tests.sh).
set -euo pipefail

# chromium: the browser test (book/tests/browser_test.py, CTest label browser) loads the rendered
# book in it, driven through its DevTools pipe by Python's standard library.
packages=(cmake ninja-build g++ ccache git python3 doctest-dev doxygen doxygen-awesome-css
          gnuplot-nox libjs-mathjax libprimesieve-dev chromium)

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if ! command -v nvcc >/dev/null 2>&1; then
  echo "ensure_deps: nvcc not found. Install the CUDA toolkit (12.x or 13.x) and put its bin/" >&2
  echo "  directory on PATH (usually /usr/local/cuda/bin)." >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  echo "ensure_deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $line
else
  echo "ensure_deps: missing Debian packages. Run:" >&2
  echo "  sudo apt-get update && sudo $line" >&2
  exit 1
fi
