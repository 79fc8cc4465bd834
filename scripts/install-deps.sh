#!/usr/bin/env bash
# Installs every Debian package that gleaner's build and tests need: the build and test sections of
# scripts/packages.txt, the one list docker/Dockerfile installs from too. Idempotent: packages
# already present are skipped by apt, and apt's lists are refreshed only when something is missing.
set -euo pipefail

listed=$(sh "$(dirname "$0")/packages.sh" build test)
mapfile -t packages <<<"$listed"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
