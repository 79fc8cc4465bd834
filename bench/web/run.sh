#!/usr/bin/env bash
# One command: serves the fixture pages locally, then runs the same load against gleaner's
# POST /scrape/web, the hand-written Puppeteer service with reused tabs (puppeteer), the same
# service isolating each request in a new browser context (isolated), the bare floor with reused
# tabs (floor) and the bare floor opening a fresh context per page (freshfloor), and gleaner with
# every request in a session, one per concurrent client (sessions: docs/sessions.md), in turn,
# never at the same time, and prints a side-by-side table.
#   bench/web/run.sh [--n 200] [--c 4] [--screenshot false] [--rounds 1]
#                    [--only gleaner,puppeteer,isolated,floor,freshfloor,sessions]
#                    [--pages all|long|tiny]
# --pages tiny: one generated page of 1 KB, instead of the fixture pages (what the sessions and
# the fresh-context floor are compared on: docs/benchmarks.md "Sessions").
# Sessions and the fresh-context floor alone, on the 1 KB page, concurrency 4 (four sessions):
#   bench/web/run.sh --pages tiny --c 4 --n 200 --only floor,freshfloor,gleaner,sessions
#                    [--exclude zillow,...] [--phases true] [--keep DIR]
# --pages long: only the long real pages (Booking, Airbnb, Indeed, Zillow, Redfin; not the small
# block pages), thousands of CSS px tall. Two Booking hotel pages are left out: served locally
# their load event never fires (a request that never ends on loopback), so every contender only
# measures its own timeout on them.
# --exclude: leave out the pages whose path contains one of these words (after --pages).
# --phases true: gleaner logs at debug level, and after each of its runs phases.mjs prints, for
# each request, its page, total time and phases (lease, navigation, snapshot, the screenshot's
# prepare / metrics / capture / stitch / write), then each phase's p50 and p99; the Puppeteer
# peers' own phases (lease, navigation, snapshot, screenshot) the same way.
# --keep DIR: copies gleaner's log (and the byte where its timed load begins, for phases.mjs
# --from) and the per-request records of each round into DIR.
# With --rounds R every contender runs R times, in turn (gleaner, puppeteer, floor, gleaner, ...),
# so that a slow spell of the machine falls on all of them; the table shows each contender's
# median run (by pages/s) and the ratios compare medians.
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n=200; c=4; shot=false; only="gleaner,puppeteer,isolated,floor,freshfloor,sessions"; rounds=1
page_set=all
exclude=""; phases=false; keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    --screenshot) shot="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --pages) page_set="$2"; shift 2 ;;
    --exclude) exclude="$2"; shift 2 ;;
    --phases) phases="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
# The fixture pages (PAGES_DIR, else ../shared/fixtures/pages beside the repository); the tiny
# page needs none.
if [[ "$page_set" != tiny ]]; then
  pages_dir="$(cd "${PAGES_DIR:-$repo/../shared/fixtures/pages}" && pwd)"
fi
bin="${GLEANER_BIN:-$repo/build/gleaner}"
[[ -d "$here/node_modules/puppeteer-core" ]] || (cd "$here" && npm install --no-audit --no-fund >&2)

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
# Waits (at most 60 s) until "$1" answers an HTTP request at all.
wait_up() {
  for _ in $(seq 1 300); do
    curl -s -o /dev/null -m 1 "$1" && return 0
    sleep 0.2
  done
  echo "no answer from $1" >&2; return 1
}

# The real pages, served by a tiny static server (or the generated 1 KB page).
if [[ "$page_set" == tiny ]]; then
  pages_dir="$tmp/tiny"; mkdir -p "$pages_dir"
  { printf '<!doctype html><html><head><title>A small page</title></head><body><h1>A small page</h1>\n'
    for i in $(seq 1 12); do printf '<p>Paragraph %02d: a line of text, <a href="/p%02d">a link</a>.</p>\n' "$i" "$i"; done
    printf '</body></html>\n'; } >"$pages_dir/tiny.html"
fi
static_port="$(free_port)"
python3 -m http.server "$static_port" --bind 127.0.0.1 --directory "$pages_dir" >"$tmp/static.log" 2>&1 &
pids+=($!)
wait_up "http://127.0.0.1:$static_port/"
(cd "$pages_dir" && find . -name '*.html' | sort |
  if [[ "$page_set" == long ]]; then grep -v '^\./blocks/' | grep -Ei 'booking|airbnb|indeed|zillow|redfin' |
    grep -v -e booking-hotel-taj-mahal -e booking-hotel-villa-homestay; else cat; fi |
  if [[ -n "$exclude" ]]; then grep -v -i -F "${exclude//,/$'\n'}" || true; else cat; fi |
  sed "s|^\./|http://127.0.0.1:$static_port/|") >"$tmp/urls.txt"
if [[ -n "$keep" ]]; then mkdir -p "$keep"; keep="$(cd "$keep" && pwd)"; cp "$tmp/urls.txt" "$keep/"; fi
echo "pages: $(wc -l <"$tmp/urls.txt") from $pages_dir${exclude:+ (excluding $exclude)}; $n requests at concurrency $c; screenshot=$shot; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

results=()
load() { # label pid port [key [requests-file [sessions]]]
  node "$here/load.mjs" --label "$1" --pid "$2" --target "http://127.0.0.1:$3/scrape/web" \
    --urls "$tmp/urls.txt" --n "$n" --c "$c" --screenshot "$shot" ${4:+--key "$4"} \
    ${5:+--requests "$5"} ${6:+--sessions "$6"}
}
log_level=warn
if [[ "$phases" == true ]]; then log_level=debug; fi
warm() { # one untimed pass over the pages so no contender pays first-load costs in the numbers
  # (at least one request per client, so that every session is open before the timed load)
  local count; count="$(wc -l <"$tmp/urls.txt")"; (( count < c )) && count="$c"
  node "$here/load.mjs" --label warm --target "http://127.0.0.1:$2/scrape/web" --urls "$tmp/urls.txt" \
    --n "$count" --c "$c" --screenshot "$shot" ${3:+--key "$3"} ${4:+--sessions "$4"} >/dev/null || true
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

for round in $(seq 1 "$rounds"); do
  for who in gleaner sessions; do
    [[ ",$only," == *",$who,"* ]] || continue
    # sessions: every client its own session, so the node holds as many as there are clients.
    in_sessions=""; [[ "$who" == sessions ]] && in_sessions="$c"
    port="$(free_port)"
    # Started from inside $tmp, so whatever gleaner keeps on disk (screenshots) goes away with it.
    cd "$tmp"
    GLEANER_ALLOW_PRIVATE_ADDRESSES=true GLEANER_STORE="sqlite:$tmp/b-$who-$round.db" \
    GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
    GLEANER_BROWSER_PROCESSES=1 GLEANER_PAGES_PER_PROCESS=4 GLEANER_DEFAULT_CREDITS=100000000 \
    GLEANER_LOG_LEVEL="$log_level" GLEANER_SESSIONS_PER_NODE="$c" \
      "$bin" serve --port "$port" >"$tmp/gleaner.out" 2>"$tmp/gleaner.err" &
    gpid=$!; pids+=($gpid)
    cd "$here"
    wait_up "http://127.0.0.1:$port/"
    # The first start on a store prints the new account's API key as its last line (a new store
    # each round).
    key="$(tail -n 1 "$tmp/gleaner.out")"
    warm gleaner "$port" "$key" "$in_sessions"
    from="$(stat -c %s "$tmp/gleaner.err")"  # the log of the timed load starts here
    echo "round $round $who: load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    results+=("$(load "$who" "$gpid" "$port" "$key" "$tmp/requests-$round.jsonl" "$in_sessions")")
    stop "$gpid"
    if [[ "$phases" == true ]]; then
      node "$here/phases.mjs" --requests "$tmp/requests-$round.jsonl" --log "$tmp/gleaner.err" \
        --from "$from" --label "gleaner round $round" | tee "$tmp/phases-$round.txt" >&2
    elif [[ -s "$tmp/gleaner.err" ]]; then tail -n 5 "$tmp/gleaner.err" >&2; fi
    if [[ -n "$keep" ]]; then
      cp "$tmp/gleaner.err" "$keep/gleaner-$round.log"
      echo "$from" >"$keep/gleaner-$round.from"  # phases.mjs --from: where the timed load begins
      cp "$tmp/requests-$round.jsonl" "$keep/requests-${in_sessions:+sessions-}$round.jsonl"
    fi
  done

  for who in puppeteer isolated floor freshfloor; do
    [[ ",$only," == *",$who,"* ]] || continue
    [[ "$who" == *floor ]] && script=floor.mjs || script=puppeteer_service.mjs
    [[ "$who" == *floor && "$shot" == true ]] && continue  # the floors take no screenshots
    extra=()
    [[ "$who" == isolated ]] && extra=(--isolate true)
    [[ "$who" == freshfloor ]] && extra=(--fresh true)
    port="$(free_port)"
    node "$here/$script" --port "$port" --shots "$tmp/shots" "${extra[@]}" >"$tmp/$who.log" 2>&1 &
    spid=$!; pids+=($spid)
    wait_up "http://127.0.0.1:$port/"
    warm "$who" "$port"
    echo "round $round $who: load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    results+=("$(load "$who" "$spid" "$port" "" "$tmp/requests-$who-$round.jsonl")")
    if [[ "$phases" == true ]]; then
      node "$here/phases.mjs" --requests "$tmp/requests-$who-$round.jsonl" \
        --label "$who round $round" >&2
    fi
    if [[ -n "$keep" ]]; then cp "$tmp/requests-$who-$round.jsonl" "$keep/"; fi
    stop "$spid"
  done
done

printf '%s\n' "${results[@]}" | node -e '
const runs = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse);
const pad = (s, w) => String(s).padStart(w);
const cpuTotal = (r) => Object.values(r.cpuMsPerRequest || {}).reduce((a, b) => a + b, 0);
// Each contender by its median run (pages/s); every run is listed when there were several.
const labels = [...new Set(runs.map((r) => r.label))];
const rows = labels.map((label) => {
  const mine = runs.filter((r) => r.label === label).sort((a, b) => a.pagesPerSecond - b.pagesPerSecond);
  return { ...mine[Math.floor((mine.length - 1) / 2)], all: mine.map((r) => r.pagesPerSecond) };
});
console.log(["service".padEnd(10), pad("pages/s", 8), pad("p50 ms", 8), pad("p99 ms", 8),
             pad("failed", 7), pad("peak PSS MB", 12), pad("CPU ms/req", 11)].join(" "));
for (const r of rows) console.log([r.label.padEnd(10), pad(r.pagesPerSecond, 8), pad(r.p50ms, 8),
  pad(r.p99ms, 8), pad(r.failures, 7), pad(r.peakPssMb, 12), pad(cpuTotal(r), 11)].join(" "));
for (const r of rows) {
  const parts = Object.entries(r.cpuMsPerRequest || {}).sort((a, b) => b[1] - a[1]);
  console.log(`${r.label} CPU ms per request: ${parts.map(([k, v]) => `${k} ${v}`).join(", ")}`);
}
if (runs.length > rows.length) {
  for (const r of rows) console.log(`${r.label} pages/s of every run: ${r.all.join(" ")}; failed in all: ${runs.filter((x) => x.label === r.label).reduce((a, x) => a + x.failures, 0)}`);
  // The table shows the p99 of the median run by pages/s; the p99s of all runs, and their median:
  for (const label of labels) {
    const p99s = runs.filter((x) => x.label === label).map((x) => x.p99ms);
    const sorted = [...p99s].sort((a, b) => a - b);
    console.log(`${label} p99 ms of every run: ${p99s.join(" ")}; median ${sorted[Math.floor((sorted.length - 1) / 2)]}`);
  }
}
for (const r of runs) console.log(`${r.label} slowest (ms): ${(r.slowest || []).join(", ")}`);
const by = Object.fromEntries(rows.map((r) => [r.label, r]));
for (const peer of ["puppeteer", "isolated"]) {
  if (by.gleaner && by[peer]) console.log(`gleaner/${peer} throughput ${(by.gleaner.pagesPerSecond / by[peer].pagesPerSecond).toFixed(2)}x, p99 ${(by.gleaner.p99ms / by[peer].p99ms).toFixed(2)}x, memory ${(by.gleaner.peakPssMb / by[peer].peakPssMb).toFixed(2)}x`);
}
if (by.gleaner && by.floor) console.log(`gleaner/floor throughput ${(by.gleaner.pagesPerSecond / by.floor.pagesPerSecond).toFixed(2)}x`);
if (by.gleaner && by.freshfloor) console.log(`gleaner/freshfloor throughput ${(by.gleaner.pagesPerSecond / by.freshfloor.pagesPerSecond).toFixed(2)}x`);
if (by.sessions && by.floor) console.log(`sessions/floor throughput ${(by.sessions.pagesPerSecond / by.floor.pagesPerSecond).toFixed(2)}x, p50 ${(by.sessions.p50ms / by.floor.p50ms).toFixed(2)}x`);
'
