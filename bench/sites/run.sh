#!/usr/bin/env bash
# One command: every site endpoint against the bare floor on the same pages.
#   bench/sites/run.sh [--n 40] [--c 4] [--only /scrape/stays/place,...] [--cases REGEX]
# (--cases: only the recorded cases whose request path or page URL matches the Python regex, to
# measure a subset of an endpoint's pages, e.g. those one road answers).
# Builds one replay archive from the endpoints' recorded cases (archive.py), starts gleaner on it
# and the floor (floor.mjs: the same Chromium, 4 warm tabs that navigate and read the HTML, every
# request answered from the same archive, nothing blocked), then for each endpoint in turn: one
# untimed pass, N GET requests at concurrency C to gleaner, N page loads at concurrency C to the
# floor, and as many to the fresh floor (floor.mjs --fresh true: a new browser context per page,
# the isolation gleaner gives every request without a session). Prints requests/s, p50 and p99
# of gleaner and the floor, gleaner's ratio to the floor and to the fresh floor, and what each
# request fetched:
# gleaner's from its replay log (every request that reached the archive, with its bytes), the
# floor's from its own count, and the CPU time each spent per request (the service or the floor
# with their Chromium processes, by process kind: bench/web/proc.mjs).
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n=40; c=4; only=""; cases_re=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --cases) cases_re="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="${GLEANER_BIN:-$repo/build/gleaner}"
[[ -x "$bin" ]] || bash "$repo/scripts/build.sh" gleaner >/dev/null
[[ -d "$repo/bench/web/node_modules/puppeteer-core" ]] ||
  (cd "$repo/bench/web" && npm install --no-audit --no-fund >&2)

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_up() {
  for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "$1" && return 0; sleep 0.2; done
  echo "no answer from $1" >&2; return 1
}

# The page tokens of the cases are signed anew under the secret gleaner runs with (archive.py).
secret="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
BENCH_PAGE_TOKEN_SECRET="$secret" python3 "$here/archive.py" "$repo" "$tmp/archive"

gport="$(free_port)"
(cd "$tmp" && GLEANER_STORE="sqlite:$tmp/bench.db" GLEANER_BROWSER_PROCESSES=1 GLEANER_SCREENSHOT_SECRET="$secret" \
  GLEANER_PAGES_PER_PROCESS=4 GLEANER_DEFAULT_CREDITS=100000000 GLEANER_LOG_LEVEL=debug \
  GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
  exec "$bin" serve --port "$gport" --replay "$tmp/archive" >"$tmp/gleaner.out" 2>"$tmp/gleaner.err") &
gpid=$!; pids+=($gpid)
wait_up "http://127.0.0.1:$gport/health"
key="$(tail -n 1 "$tmp/gleaner.out")"

fport="$(free_port)"
node "$here/floor.mjs" --port "$fport" --archive "$tmp/archive" >"$tmp/floor.log" 2>&1 &
fpid=$!; pids+=($fpid)
wait_up "http://127.0.0.1:$fport/stats"
xport="$(free_port)"
node "$here/floor.mjs" --port "$xport" --archive "$tmp/archive" --fresh true >"$tmp/fresh.log" 2>&1 &
xpid=$!; pids+=($xpid)
wait_up "http://127.0.0.1:$xport/stats"

echo "site endpoints over a replay archive of their cases; $n requests at concurrency $c each; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The archive's per-request lines are debug-level (an operator's log shows requests, not
# sub-resources), hence GLEANER_LOG_LEVEL=debug above: a line per sub-resource, little beside a
# page load.
replayed() { # requests and bytes the archive answered so far: "N B"
  grep ' replay ' "$tmp/gleaner.err" | sed -n 's/.* (\([0-9]*\), \([0-9]*\) bytes)$/\2/p' |
    awk '{n++; b+=$1} END {print n+0, b+0}'
}
results=()
for endpoint in $(python3 -c "import json,sys; print(' '.join(sorted({r['endpoint'] for r in json.load(open('$tmp/archive/requests.json'))})))"); do
  [[ -z "$only" || ",$only," == *",$endpoint,"* ]] || continue
  python3 - "$tmp/archive/requests.json" "$endpoint" "$tmp/g.txt" "$tmp/f.txt" "$cases_re" <<'PY'
import json, re, sys
from urllib.parse import quote
reqs = [r for r in json.load(open(sys.argv[1])) if r["endpoint"] == sys.argv[2]]
if sys.argv[5]:
    reqs = [r for r in reqs if re.search(sys.argv[5], r["path"]) or re.search(sys.argv[5], r["pages"][0])]
if not reqs:
    sys.exit("no case of " + sys.argv[2] + " matches --cases " + sys.argv[5])
open(sys.argv[3], "w").write("\n".join(r["path"] for r in reqs) + "\n")
open(sys.argv[4], "w").write("\n".join("/floor?url=" + quote(r["pages"][0], safe="") for r in reqs) + "\n")
PY
  cases=$(wc -l <"$tmp/g.txt")
  node "$here/load.mjs" --base "http://127.0.0.1:$gport" --paths "$tmp/g.txt" --n "$cases" --c "$c" --key "$key" --label warm >/dev/null
  node "$here/load.mjs" --base "http://127.0.0.1:$fport" --paths "$tmp/f.txt" --n "$cases" --c "$c" --label warm >/dev/null
  node "$here/load.mjs" --base "http://127.0.0.1:$xport" --paths "$tmp/f.txt" --n "$cases" --c "$c" --label warm >/dev/null
  read -r r0 b0 < <(replayed)
  g="$(node "$here/load.mjs" --base "http://127.0.0.1:$gport" --paths "$tmp/g.txt" --n "$n" --c "$c" --key "$key" --label "$endpoint" --pid "$gpid")"
  read -r r1 b1 < <(replayed)
  s0="$(curl -s "http://127.0.0.1:$fport/stats")"
  f="$(node "$here/load.mjs" --base "http://127.0.0.1:$fport" --paths "$tmp/f.txt" --n "$n" --c "$c" --label floor --pid "$fpid")"
  s1="$(curl -s "http://127.0.0.1:$fport/stats")"
  x="$(node "$here/load.mjs" --base "http://127.0.0.1:$xport" --paths "$tmp/f.txt" --n "$n" --c "$c" --label fresh --pid "$xpid")"
  results+=("{\"g\":$g,\"f\":$f,\"x\":$x,\"gRequests\":$((r1 - r0)),\"gBytes\":$((b1 - b0)),\"s0\":$s0,\"s1\":$s1,\"n\":$n}")
done

printf '%s\n' "${results[@]}" | node -e '
const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse);
const pad = (s, w) => String(s).padStart(w);
console.log(["endpoint".padEnd(26), pad("req/s", 6), pad("p50", 6), pad("p99", 6), pad("fail", 5),
  pad("floor/s", 8), pad("ratio", 6), pad("fresh/s", 8), pad("fratio", 6), pad("reqs", 5), pad("floor", 6), pad("KB", 7), pad("floorKB", 8),
  pad("cpu", 5), pad("floorcpu", 8)].join(" "));
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
for (const r of rows) {
  const fr = (r.s1.requests - r.s0.requests) / r.n, fb = (r.s1.bytes - r.s0.bytes) / r.n / 1024;
  console.log([r.g.label.padEnd(26), pad(r.g.perSecond, 6), pad(r.g.p50ms, 6), pad(r.g.p99ms, 6),
    pad(r.g.failures, 5), pad(r.f.perSecond, 8), pad((r.g.perSecond / r.f.perSecond).toFixed(2), 6),
    pad(r.x.perSecond, 8), pad((r.g.perSecond / r.x.perSecond).toFixed(2), 6),
    pad((r.gRequests / r.n).toFixed(1), 5), pad(fr.toFixed(1), 6), pad((r.gBytes / r.n / 1024).toFixed(0), 7),
    pad(fb.toFixed(0), 8), pad(sum(r.g.cpuMsPerRequest), 5), pad(sum(r.f.cpuMsPerRequest), 8)].join(" "));
}
console.log("cpu/floorcpu: CPU milliseconds per request of the whole process tree (the service or the floor with their Chromium processes); by process kind:");
for (const r of rows) console.log(`  ${r.g.label}: ${JSON.stringify(r.g.cpuMsPerRequest)} floor ${JSON.stringify(r.f.cpuMsPerRequest)}`);
console.log("ratio: gleaner over the tab-reusing floor; fratio: over the fresh floor (a new context per page).");
console.log("reqs/KB: requests and kilobytes per request that reached the replay archive (gleaner, after its load profile) or that the floor answered (everything the page asked for).");
'
