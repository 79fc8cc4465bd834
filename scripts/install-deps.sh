#!/usr/bin/env bash
# Installs every Debian package that gleaner's build, tests and service need. Idempotent: packages
# already present are skipped by apt, and apt's lists are refreshed only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build
  libboost-dev libssl-dev zlib1g-dev libpng-dev
  libcpp-httplib-dev nlohmann-json3-dev
  libgumbo-dev libxml2-dev libcurl4-openssl-dev
  libsqlite3-dev libpq-dev postgresql
  libgtest-dev libgmock-dev
  chromium fonts-liberation
  procps curl
)

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
