#!/usr/bin/env bash
# Installs the linter and the validator at the versions package-lock.json locks (ctest fixture
# openapi_npm, run once before openapi_lint and openapi_suite_answers: two `npm ci` at once in
# one folder would delete each other's node_modules).
set -euo pipefail
cd "$(dirname "$0")"
command -v npm >/dev/null || { echo "install.sh: npm is needed (Node.js 18 or later)" >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error >/dev/null
