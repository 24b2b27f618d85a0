#!/usr/bin/env bash
# configure_and_build.sh: what both README commands start with. Installs (or names) the missing
# Debian packages, then configures with the default preset (build/) and builds everything.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash common/tools/ensure_deps.sh
export PATH=/usr/local/cuda/bin:$PATH
cmake --preset default
cmake --build --preset default
