#!/usr/bin/env bash
# The long run (issue 23 item 6): one gleaner over a replay archive of every site endpoint's
# recorded cases (bench/sites/archive.py), loopback only, then soak.mjs sends N mixed requests at
# concurrency C (site endpoints, page fetches with and without screenshots, failures, clients
# that hang up, /health, /account) while sampling the service's RSS, threads, descriptors and the
# Chromium processes under it. Prints the summary JSON; with --keep DIR the samples are written
# there as they are taken (one JSON line each), and gleaner's log copied there at the end.
# With --heaptrack DIR, gleaner runs under heaptrack (Debian's `heaptrack`), is killed with
# SIGKILL after the last sample so that what is live then is what heaptrack reports as leaked,
# and DIR gets the recording, its stacks (live bytes) and live-by-site.txt: the live bytes summed
# by the innermost gleaner function of each allocation's stack (live_by_site.py). Two runs of
# different lengths, compared site by site, show what grows with the requests.
#   bench/soak/run.sh [--n 20000] [--c 8] [--every 5000] [--keep DIR] [--heaptrack DIR]
# With --hostile SECONDS the hostile mix of issues 34 and 41 instead (soak.mjs, hostile.mjs): no
# archive, but local hostile origins (hostile_origin.mjs) the service may reach (loopback allowed);
# normal traffic alone for --baseline S (120), then SECONDS beside the red-team shapes, sent with a
# second account's key one every --hostile-every MS (3000). The summary JSON goes to stdout.
# --shapes a,b sends only those shapes (names in hostile.mjs), to find which one slows the rest.
#   bench/soak/run.sh --hostile 480 [--baseline 120] [--c 2] [--hostile-every 3000] [--shapes a,b]
#                     [--keep DIR]
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n=20000; c=8; every=5000; keep=""; heaptrack_dir=""; hostile=""; baseline=120; hostile_every=3000; shapes=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    --every) every="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --heaptrack) heaptrack_dir="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    --hostile) hostile="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --hostile-every) hostile_every="$2"; shift 2 ;;
    --shapes) shapes="$2"; shift 2 ;;
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

if [[ -n "$hostile" ]]; then
  node "$here/hostile_origin.mjs" "$tmp/origins.json" &
  pids+=($!)
  for _ in $(seq 1 100); do [[ -s "$tmp/origins.json" ]] && break; sleep 0.1; done
  port="$(free_port)"
  (cd "$tmp" && GLEANER_STORE="sqlite:$tmp/soak.db" GLEANER_DEFAULT_CREDITS=1000000000 \
    GLEANER_ALLOW_PRIVATE_ADDRESSES=true \
    GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
    exec "$bin" serve --port "$port" >"$tmp/gleaner.out" 2>"$tmp/gleaner.err") &
  pids+=($!)
  gleaner_pid=$!
  for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/health" && break; sleep 0.2; done
  key="$(tail -n 1 "$tmp/gleaner.out")"
  hostile_key="$(GLEANER_STORE="sqlite:$tmp/soak.db" "$bin" accounts create --name hostile \
    --credits 1000000000 | tail -n 1)"
  echo "hostile mix: ${baseline}s alone, ${hostile}s beside the mix, concurrency $c; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  node "$here/soak.mjs" --base "http://127.0.0.1:$port" --key "$key" --hostile-key "$hostile_key" \
    --pid "$gleaner_pid" --origins "$tmp/origins.json" --db "$tmp/soak.db" --hostile "$hostile" \
    --baseline "$baseline" --c "$c" --hostile-every "$hostile_every" ${shapes:+--shapes "$shapes"}
  echo "log lines: $(wc -l <"$tmp/gleaner.err"), warnings/errors: $(grep -c ' WARN \| ERROR ' "$tmp/gleaner.err" || true); gleaner $(kill -0 "$gleaner_pid" 2>/dev/null && echo alive || echo DEAD)" >&2
  exit 0
fi

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
launcher=()
[[ -z "$heaptrack_dir" ]] || launcher=(heaptrack -o "$heaptrack_dir/gleaner")
(cd "$tmp" && GLEANER_STORE="sqlite:$tmp/soak.db" GLEANER_DEFAULT_CREDITS=1000000000 \
  GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
  exec "${launcher[@]}" "$bin" serve --port "$port" --replay "$tmp/archive" \
  >"$tmp/gleaner.out" 2>"$tmp/gleaner.err") &
pids+=($!)
launched=$!
for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/health" && break; sleep 0.2; done
key="$(tail -n 1 "$tmp/gleaner.out")"
# Under heaptrack, gleaner is the launcher's child.
gleaner_pid="$launched"
[[ -z "$heaptrack_dir" ]] || gleaner_pid="$(pgrep -f "^$bin serve --port $port ")"

echo "soak: $n requests at concurrency $c; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
node "$here/soak.mjs" --base "http://127.0.0.1:$port" --key "$key" --pid "$gleaner_pid" \
  --requests "$tmp/requests.json" --n "$n" --c "$c" --every "$every" --samples "${keep:-$tmp}/samples.jsonl"
echo "log lines: $(wc -l <"$tmp/gleaner.err"), warnings/errors: $(grep -c ' WARN \| ERROR ' "$tmp/gleaner.err" || true)" >&2
if [[ -n "$heaptrack_dir" ]]; then
  kill -KILL "$gleaner_pid"
  wait "$launched" || true  # heaptrack writes the recording out
  recording="$(ls "$heaptrack_dir"/gleaner.*)"
  heaptrack_print -f "$recording" -F "$heaptrack_dir/live-stacks.txt" --flamegraph-cost-type leaked \
    --print-leaks 0 --print-peaks 0 --print-allocators 0 --print-temporary 0 \
    >/dev/null
  python3 "$here/live_by_site.py" "$heaptrack_dir/live-stacks.txt" >"$heaptrack_dir/live-by-site.txt"
  echo "live allocations by site: $heaptrack_dir/live-by-site.txt" >&2
fi
