#!/usr/bin/env bash
# ctest openapi_recorded_answers: the answers of every recorded case (printed by the program
# given as $1) validated against docs/openapi.json with Ajv, the version locked in
# package-lock.json (installed by install.sh, the ctest fixture openapi_npm).
set -euo pipefail
program=$1
cd "$(dirname "$0")"
answers=$(mktemp)
trap 'rm -f "$answers"' EXIT
"$program" >"$answers"
exec node validate_answers.mjs ../../docs/openapi.json "$answers"
