#!/usr/bin/env bash
# jsRendering: false against the browser road and a plain Node fetch + Turndown service: serves the
# fixture pages locally and runs the same load (html + markdown + text + links + e-mails of each
# page) against gleaner with jsRendering true, gleaner with jsRendering false, and
# plain_service.mjs, in turn, and prints one JSON line each (load.mjs).
#   bench/web/plain.sh [--n 200] [--c 4]
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
pages_dir="$(cd "$repo/../shared/fixtures/pages" && pwd)"
n=200; c=4
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="${GLEANER_BIN:-$repo/build/gleaner}"
[[ -d "$here/node_modules/turndown" ]] || (cd "$here" && npm install --no-audit --no-fund >&2)
source "$repo/bench/common.sh"
static_port="$(serve_static "$pages_dir")"
(cd "$pages_dir" && find . -name '*.html' | sort | sed "s|^\./|http://127.0.0.1:$static_port/|") >"$tmp/urls.txt"
echo "pages: $(wc -l <"$tmp/urls.txt"); $n requests at concurrency $c; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

load() { # label pid port key extra [requests]
  node "$here/load.mjs" --label "$1" --pid "$2" --target "http://127.0.0.1:$3/scrape/web" \
    --urls "$tmp/urls.txt" --n "${6:-$n}" --c "$c" ${4:+--key "$4"} --extra "$5"
}
# The untimed warm-up is one pass over the pages, not a second run of N requests.
pass="$(wc -l <"$tmp/urls.txt")"
start_gleaner "$bin"
gpid=$gleaner_pid; port=$gleaner_port; key=$gleaner_key
for extra in '{"jsRendering":false}' '{"jsRendering":true}'; do
  label=$([[ "$extra" == *false* ]] && echo gleaner-plain || echo gleaner-browser)
  load warm "$gpid" "$port" "$key" "$extra" "$pass" >/dev/null || true
  load "$label" "$gpid" "$port" "$key" "$extra"
done
kill "$gpid"; wait "$gpid" 2>/dev/null || true
port="$(free_port)"
node "$here/plain_service.mjs" --port "$port" >"$tmp/plain.log" 2>&1 &
spid=$!; pids+=($spid)
wait_up "http://127.0.0.1:$port/"
load warm "$spid" "$port" "" '{}' "$pass" >/dev/null || true
load node-fetch-turndown "$spid" "$port" "" '{}'
