#!/usr/bin/env bash
# Rewrites the recorded script output of site endpoints from their cases (tests/sites/<site>/data/
# <name>/cases.json) by running each case in real Chromium: one command after a selector change.
# Review the diff of tests/sites/*/data/ before committing it; the unit tests then shape the new
# recording.
# Usage: scripts/record.sh [site_name ...]   e.g. scripts/record.sh booking_place   (none: all)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
bash scripts/build.sh tests/sites/sites_contract_browser_tests >/dev/null
filter="*RecordedCasesMatchAFreshRun*"
if [ $# -gt 0 ]; then
  filter=""
  for e in "$@"; do filter="${filter:+$filter:}*RecordedCasesMatchAFreshRun/$e"; done
fi
GLEANER_RECORD=1 "$build_dir/tests/sites/sites_contract_browser_tests" --gtest_filter="$filter"
git status --short -- tests/sites
