#!/usr/bin/env bash
# Lints docs/openapi.json with the @redocly/cli version pinned in package-lock.json (ctest
# openapi_lint). install.sh (the ctest fixture openapi_npm) installs exactly the locked version;
# a warning is an error (redocly.yaml).
set -euo pipefail
cd "$(dirname "$0")"
exec npx --no-install redocly lint ../../docs/openapi.json --config redocly.yaml --format=stylish
