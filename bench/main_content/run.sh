#!/usr/bin/env bash
# One command: serves shared/fixtures/main-content's pages locally, starts gleaner, and prints the
# README's metric (precision, recall, F1 of the must-have / must-not-have snippets) for
# onlyMainContent on both roads, the whole page's text, and Readability in the same Chromium.
#   bench/main_content/run.sh [--only gleaner-browser,gleaner-plain,gleaner-all,readability] [--c 4]
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
pages_dir="$(cd "$repo/../shared/fixtures/main-content/trafilatura/tests" && pwd)"
bin="${GLEANER_BIN:-$repo/build/gleaner}"
[[ -d "$here/node_modules/@mozilla/readability" ]] || (cd "$here" && npm install --no-audit --no-fund >&2)
source "$repo/bench/common.sh"
static_port="$(serve_static "$pages_dir")"
start_gleaner "$bin"
node "$here/score.mjs" --pages "http://127.0.0.1:$static_port" --gleaner "http://127.0.0.1:$gleaner_port" \
  --key "$gleaner_key" "$@"
