#!/usr/bin/env bash
# What fewer allocator arenas cost (malloc_arenas, docs/configuration.md): the plain road
# (jsRendering: false, so the service's own threads parse, write markdown, text and links: the
# most allocation-heavy road) over the fixture pages, one fresh service per run, the arena
# settings alternated round by round. Prints one JSON line per run (load.mjs) with the service's
# RSS after it.
#   bench/web/arenas.sh [--arenas "0 4 2"] [--rounds 3] [--n 1500] [--c 10]
# 0 is glibc's default (8 per core). --c above the account's concurrency limit (10) gets 429s.
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
pages_dir="$(cd "$repo/../shared/fixtures/pages" && pwd)"
arenas="0 4 2"; rounds=3; n=1500; c=10
while [[ $# -gt 0 ]]; do
  case "$1" in
    --arenas) arenas="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="${GLEANER_BIN:-$repo/build/gleaner}"
source "$repo/bench/common.sh"
static_port="$(serve_static "$pages_dir")"
(cd "$pages_dir" && find . -name '*.html' | sort | sed "s|^\./|http://127.0.0.1:$static_port/|") >"$tmp/urls.txt"
echo "pages: $(wc -l <"$tmp/urls.txt"); $n requests at concurrency $c; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
unset MALLOC_ARENA_MAX
load() { # label requests
  node "$here/load.mjs" --label "$1" --pid "$gleaner_pid" --urls "$tmp/urls.txt" --n "$2" --c "$c" \
    --target "http://127.0.0.1:$gleaner_port/scrape/web" --key "$gleaner_key" \
    --extra '{"jsRendering":false}'
}
for round in $(seq 1 "$rounds"); do
  for a in $arenas; do
    GLEANER_MALLOC_ARENAS="$a" start_gleaner "$bin"
    load warm 300 >/dev/null
    line="$(load "arenas-$a-round-$round" "$n")"
    rss_kb="$(awk '/VmRSS/{print $2}' "/proc/$gleaner_pid/status")"
    echo "${line%\}},\"arenas\":$a,\"rssAfterMb\":$((rss_kb / 1024))}"
    kill "$gleaner_pid"; wait "$gleaner_pid" 2>/dev/null || true
  done
done
