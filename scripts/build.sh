#!/usr/bin/env bash
# Installs what is missing, then configures and builds gleaner into ./build (or $BUILD_DIR).
# Usage: scripts/build.sh [ninja targets]   (no target: everything, tests included)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" >/dev/null
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" "$@"
