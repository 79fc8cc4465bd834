#!/usr/bin/env bash
# The long run (issue 23 item 6): one gleaner over a replay archive of every site endpoint's
# recorded cases (bench/sites/archive.py), loopback only, then soak.mjs sends N mixed requests at
# concurrency C (site endpoints, page fetches with and without screenshots, failures, clients
# that hang up, /health, /account) while sampling the service's RSS, threads, descriptors and the
# Chromium processes under it. Prints the summary JSON; with --keep DIR the samples are written
# there as they are taken (one JSON line each), and gleaner's log copied there at the end.
#   bench/soak/run.sh [--n 20000] [--c 8] [--every 5000] [--keep DIR]
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n=20000; c=8; every=5000; keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    --every) every="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="${GLEANER_BIN:-$repo/build/gleaner}"
[[ -x "$bin" ]] || bash "$repo/scripts/build.sh" gleaner >/dev/null

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -z "$keep" ]] || cp "$tmp"/gleaner.err "$keep"/ 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
[[ -z "$keep" ]] || mkdir -p "$keep"
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

python3 "$repo/bench/sites/archive.py" "$repo" "$tmp/archive"
# The requests soak.mjs mixes: every site case's GET path, and the pages the archive answers
# exactly (for POST /scrape/web); each list also split out as its light part (every document the
# request reads under 64 KB), which the mix sends most often so that 20,000 requests fit in about
# an hour on two cores (a 1 MB site page costs about 2 CPU-seconds in Chromium).
python3 - "$tmp/archive" "$tmp/requests.json" <<'PY'
import json, os, sys
archive = sys.argv[1]
reqs = json.load(open(archive + "/requests.json"))
entries = json.load(open(archive + "/index.json"))["entries"]
size = {}
for e in entries:  # a URL served by several entries counts as its largest
    size[e["url"]] = max(size.get(e["url"], 0), os.path.getsize(os.path.join(archive, e["file"])))
light = lambda urls: all(size[u] < 64 * 1024 for u in urls)
exact = sorted({e["url"] for e in entries if e["match"] == "exact" and e.get("status", 200) == 200})
json.dump({"site": [r["path"] for r in reqs],
           "siteLight": [r["path"] for r in reqs if light(r["pages"])],
           "pages": exact, "pagesLight": [u for u in exact if light([u])]},
          open(sys.argv[2], "w"))
PY
port="$(free_port)"
(cd "$tmp" && GLEANER_STORE="sqlite:$tmp/soak.db" GLEANER_DEFAULT_CREDITS=1000000000 \
  GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
  exec "$bin" serve --port "$port" --replay "$tmp/archive" >"$tmp/gleaner.out" 2>"$tmp/gleaner.err") &
pids+=($!)
gleaner_pid=$!
for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/health" && break; sleep 0.2; done
key="$(tail -n 1 "$tmp/gleaner.out")"

echo "soak: $n requests at concurrency $c; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
node "$here/soak.mjs" --base "http://127.0.0.1:$port" --key "$key" --pid "$gleaner_pid" \
  --requests "$tmp/requests.json" --n "$n" --c "$c" --every "$every" --samples "${keep:-$tmp}/samples.jsonl"
echo "log lines: $(wc -l <"$tmp/gleaner.err"), warnings/errors: $(grep -c ' WARN \| ERROR ' "$tmp/gleaner.err" || true)" >&2
