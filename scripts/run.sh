#!/usr/bin/env bash
# Installs, builds and starts gleaner on port 8080 (or $PORT) with the embedded SQLite store under
# ./data. On the first start it creates an account and prints its API key once.
# Extra arguments go to `gleaner serve` (e.g. --config FILE, --replay DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gleaner
exec "${BUILD_DIR:-build}/gleaner" serve --port "${PORT:-8080}" "$@"
