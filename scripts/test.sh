#!/usr/bin/env bash
# Installs, builds and runs the whole test suite (unit, loopback and real-Chromium suites).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build_dir=${BUILD_DIR:-build}
ctest --test-dir "$build_dir" -j "${JOBS:-$(nproc)}" --output-on-failure --no-tests=error
