#!/usr/bin/env bash
# Proves the Docker image on this machine, one command from the repository root:
#   bash docker/test.sh
# It installs what it needs (Debian's docker.io, mmdebstrap, curl), starts the daemon when none
# runs (host networking only: --bridge=none --iptables=false), makes the Debian base image from
# the package mirror when it is missing (no image registry is reachable here), builds the image,
# and checks a running container:
#   /health; a POST /scrape/web and a site endpoint (search/news) over a replay archive mounted
#   as a volume; a screenshot URL that serves a PNG; `docker stop` ending within the grace period
#   with a clean exit; the image's size and its start-up time, printed.
# Then docker/compose.yaml with that image (PostgreSQL and nginx built from Debian's packages):
#   two nodes on one PostgreSQL behind nginx, all healthy; one account's credits spent through
#   each node and seen by both; a screenshot taken through nginx served by both nodes; a maps
#   scraper job created on one node, seen on the other and through nginx, run by exactly one;
#   a node killed (SIGKILL) mid-job: its lease expires, the other node finishes the job, every
#   row stored and charged once, the webhooks received. Timings printed. docs/deployment.md.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${GLEANER_TEST_PORT:-18080}
# GLEANER_TEST_IMAGE=<image>: check an image built already (by CI, or by an earlier run) instead
# of building one.
image=${GLEANER_TEST_IMAGE:-gleaner:test}
name=gleaner-docker-test
# The real pages kept beside the site tests (tests/sites/<site>/pages).
pages=$(pwd)/tests/sites

say() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# --- what this needs -------------------------------------------------------------------------
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
missing=()
for p in docker.io mmdebstrap docker-compose curl python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  say "starting dockerd (host networking only)"
  "${sudo_cmd[@]}" sh -c 'dockerd --bridge=none --iptables=false >/var/log/dockerd-test.log 2>&1 &'
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || fail "dockerd did not start (see /var/log/dockerd-test.log)"
fi

# --- the base image, from the Debian mirror ----------------------------------------------------
if ! docker image inspect debian:bookworm >/dev/null 2>&1; then
  say "making debian:bookworm with mmdebstrap"
  tar=$(mktemp --suffix=.tar)
  mmdebstrap --variant=minbase bookworm "$tar" >/dev/null 2>&1 || fail "mmdebstrap failed"
  docker import "$tar" debian:bookworm >/dev/null
  rm -f "$tar"
fi
docker image inspect debian:bookworm-slim >/dev/null 2>&1 || docker tag debian:bookworm debian:bookworm-slim

# --- the image ---------------------------------------------------------------------------------
if [ -z "${GLEANER_TEST_IMAGE:-}" ]; then
  say "building $image"
  build_start=$(date +%s)
  docker build --network host -f docker/Dockerfile -t "$image" . >/tmp/gleaner-docker-build.log 2>&1 \
    || { tail -30 /tmp/gleaner-docker-build.log; fail "docker build failed"; }
  say "built in $(( $(date +%s) - build_start )) s"
fi
say "image $image: $(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1000000}')"

# --- a replay archive as a volume --------------------------------------------------------------
archive=$(mktemp -d)
data=$(mktemp -d)
chmod 755 "$archive"
chmod 777 "$data"
cdir=""
hook_pid=""
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  if [ -n "$cdir" ]; then
    dc down -v --remove-orphans >/dev/null 2>&1 || true
    [ -z "$hook_pid" ] || kill "$hook_pid" 2>/dev/null || true
    rm -rf "$cdir"
  fi
  rm -rf "$archive" "$data"
}
trap cleanup EXIT
# One archive for the single container and the compose nodes: the news feed, a page to fetch, and
# the maps pages of tests/support/sites/maps_pages.h (two result lists answering every
# "griffith in …" and "museums in …" search, the Griffith Observatory's place page; every other
# place page is a 404) for the jobs.
cp "$pages/google/pages/news/monument-watch_rss_search_bears-ears-monument_enUS.xml" "$archive/news.xml"
cp "$pages/booking/pages/stays-place/booking-property-kotor-excerpt-2026.html" "$archive/page.html"
for f in cocli_search-dom_griffith_en_2026-03.html cocli_search-dom_metropolitan-museum_en_2026-03.html \
         cocli_place-dom_griffith-observatory_en_2026-03.html; do
  cp "$pages/google/pages/maps/$f" "$archive/"
done
chmod 644 "$archive"/*
cat >"$archive/index.json" <<'EOF'
{"entries": [
  {"url": "https://news.google.com/rss/search?q=%22Bears+Ears%22+monument&hl=en-US&gl=US&ceid=US:en",
   "file": "news.xml", "headers": {"content-type": "application/rss+xml; charset=utf-8"}},
  {"url": "https://docker-test.example/page", "file": "page.html"},
  {"match": "prefix", "url": "https://www.google.com/maps/search/griffith+in+",
   "file": "cocli_search-dom_griffith_en_2026-03.html"},
  {"match": "prefix", "url": "https://www.google.com/maps/search/museums+in+",
   "file": "cocli_search-dom_metropolitan-museum_en_2026-03.html"},
  {"match": "prefix",
   "url": "https://www.google.com/maps/place/Griffith+Observatory/data=!4m7!3m6!1s0x80c2bf61e9d408cb:",
   "file": "cocli_place-dom_griffith-observatory_en_2026-03.html"}
]}
EOF

# --- run ---------------------------------------------------------------------------------------
say "starting the container on port $port"
docker rm -f "$name" >/dev/null 2>&1 || true
run_start=$(date +%s%N)
docker run -d --name "$name" --network host --shm-size 1g \
  -e GLEANER_PORT="$port" -e GLEANER_REPLAY_DIR=/replay \
  -e GLEANER_PUBLIC_BASE_URL="http://127.0.0.1:$port" \
  -v "$archive":/replay:ro -v "$data":/var/lib/gleaner/data "$image" >/dev/null
health=""
for _ in $(seq 120); do
  health=$(curl -fsS "http://127.0.0.1:$port/health" 2>/dev/null || true)
  case "$health" in *'"status":"ok"'*) break ;; esac
  sleep 0.25
done
case "$health" in *'"status":"ok"'*) ;; *) docker logs "$name" | tail -30; fail "/health never said ok: $health" ;; esac
say "healthy $(( ($(date +%s%N) - run_start) / 1000000 )) ms after docker run: $health"

key=$(docker logs "$name" 2>&1 | grep -o 'gl_[0-9a-f]\{64\}' | head -1)
[ -n "$key" ] || fail "no API key in the first start's output"

news=$(curl -fsS -H "x-api-key: $key" "http://127.0.0.1:$port/scrape/search/news?q=%22Bears%20Ears%22%20monument")
echo "$news" | grep -q '"newsResults":\[{' || fail "search/news: ${news:0:500}"
echo "$news" | grep -q 'Bears Ears' || fail "search/news has no article about Bears Ears"
say "search/news over the mounted archive: $(echo "$news" | grep -o '"position"' | wc -l) results"

# The OpenAPI document's answer schemas are the endpoints' docs compiled into the binary: an image
# built without docs/endpoints/ (.dockerignore) would fail here.
openapi=$(curl -fsS "http://127.0.0.1:$port/openapi.json") || fail "GET /openapi.json failed"
operations=$(echo "$openapi" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
serp = doc["components"]["schemas"]["SearchSerpResponse"]["properties"]
assert "organicResults" in serp and serp["organicResults"]["items"]["properties"], "no serp schema"
print(sum(len([m for m in ops if m != "parameters"]) for ops in doc["paths"].values()))') \
  || fail "/openapi.json has no serp answer schema: ${openapi:0:300}"
say "/openapi.json: $operations operations, the answer schemas read from the endpoints' docs"

web=$(curl -fsS -H "x-api-key: $key" -H 'content-type: application/json' \
  -d '{"url":"https://docker-test.example/page","outputFormat":["markdown"],"screenshot":true}' \
  "http://127.0.0.1:$port/scrape/web")
echo "$web" | grep -q '"statusCode":200' || fail "scrape/web: ${web:0:500}"
shot=$(echo "$web" | grep -o '"screenshot":"[^"]*"' | head -1 | sed 's/"screenshot":"//; s/"$//; s/\\u0026/\&/g')
[ -n "$shot" ] || fail "scrape/web gave no screenshot URL: ${web:0:500}"
curl -fsS -o "$data/shot.png" "$shot" || fail "the screenshot URL did not answer: $shot"
magic=$(head -c 8 "$data/shot.png" | od -An -tx1 | tr -d ' \n')
[ "$magic" = "89504e470d0a1a0a" ] || fail "the screenshot URL did not serve a PNG ($shot: $magic)"
say "scrape/web with a screenshot: a PNG of $(stat -c %s "$data/shot.png") bytes served at ${shot%%\?*}"

say "docker stop"
stop_start=$(date +%s%N)
docker stop -t 30 "$name" >/dev/null
stop_ms=$(( ($(date +%s%N) - stop_start) / 1000000 ))
exit_code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
[ "$exit_code" = 0 ] || { docker logs "$name" 2>&1 | tail -20; fail "exit code $exit_code after docker stop (137 = killed at the end of the grace period)"; }
[ "$(docker inspect -f '{{.State.Running}}' "$name")" = false ] || fail "still running after docker stop"
say "stopped in $stop_ms ms, exit code 0; nothing runs in it any more"
say "single-container checks passed"
docker rm -f "$name" >/dev/null 2>&1 || true

# === compose: PostgreSQL, two nodes, nginx ======================================================
# Every container on the host's network, each on its own port (GLEANER_TEST_COMPOSE_PORTS:
# nginx, node1, node2, PostgreSQL, the webhook receiver), away from the single container's.
read -r lb_port n1_port n2_port pg_port hook_port <<<"${GLEANER_TEST_COMPOSE_PORTS:-18180 18181 18182 25432 18190}"
lease=12  # GLEANER_JOBS_LEASE_SECONDS: short, so a killed node's job is taken over quickly
cdir=$(mktemp -d)
chmod 755 "$cdir"
export GLEANER_IMAGE="$image" GLEANER_PORT="$lb_port" GLEANER_NODE1_PORT="$n1_port" \
  GLEANER_NODE2_PORT="$n2_port" POSTGRES_PORT="$pg_port" \
  GLEANER_PUBLIC_BASE_URL="http://127.0.0.1:$lb_port"
dc() { docker-compose -p gleaner-compose-test -f docker/compose.yaml -f "$cdir/override.yaml" "$@"; }
lb="http://127.0.0.1:$lb_port"
node1="http://127.0.0.1:$n1_port"
node2="http://127.0.0.1:$n2_port"
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# jq-less JSON reading: `jget EXPR` evaluates EXPR on the JSON document d read from stdin.
jget() { python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
cfail() {
  printf 'FAIL: %s\n' "$*" >&2
  for svc in postgres node1 node2 lb; do
    printf -- '--- %s (last 25 lines)\n' "$svc" >&2
    dc logs --no-color --tail 25 "$svc" >&2 2>&1 || true
  done
  [ ! -s "$cdir/hooks.jsonl" ] || { printf -- '--- webhooks received (last 5)\n' >&2; tail -5 "$cdir/hooks.jsonl" | cut -c1-300 >&2; }
  exit 1
}
# Test-only settings on top of docker/compose.yaml: the archive, a short job lease, loopback
# webhooks allowed; no restart of a killed node (the test kills node1 and wants node2 to take its
# job over, not node1 coming back and taking it at once). Docker counts `docker kill` as a manual
# stop, so unless-stopped would not restart it either; "no" says so.
cat >"$cdir/override.yaml" <<EOF
x-test-env: &test-env
  GLEANER_REPLAY_DIR: /replay
  GLEANER_JOBS_LEASE_SECONDS: "$lease"
  GLEANER_ALLOW_PRIVATE_ADDRESSES: "true"
services:
  node1:
    restart: "no"
    volumes: ["$archive:/replay:ro"]
    environment: *test-env
  node2:
    restart: "no"
    volumes: ["$archive:/replay:ro"]
    environment: *test-env
EOF
# The webhook receiver: one JSON line per POST (its X-Gleaner-Delivery and its body).
cat >"$cdir/hook.py" <<'EOF'
import http.server, json, sys
out = open(sys.argv[2], "a", buffering=1)
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = {"unparsed": body.decode("utf-8", "replace")}
        out.write(json.dumps({"delivery": self.headers.get("x-gleaner-delivery"), "body": parsed}) + "\n")
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hook).serve_forever()
EOF
: >"$cdir/hooks.jsonl"
python3 "$cdir/hook.py" "$hook_port" "$cdir/hooks.jsonl" &
hook_pid=$!
hook_url="http://127.0.0.1:$hook_port/hook"
for _ in $(seq 40); do ss -Hltn "sport = :$hook_port" | grep -q . && break; sleep 0.25; done
ss -Hltn "sport = :$hook_port" | grep -q . || fail "the webhook receiver did not listen on $hook_port"

say "compose: building the postgres and nginx images from Debian's packages"
cbuild_start=$(date +%s)
dc build postgres lb >"$cdir/build.log" 2>&1 || { tail -30 "$cdir/build.log"; fail "docker-compose build failed"; }
cbuild_s=$(( $(date +%s) - cbuild_start ))
say "built in $cbuild_s s: $(for i in gleaner-postgres:15 gleaner-nginx:latest; do
  docker image inspect -f '{{.Size}}' "$i" | awk -v i="$i" '{printf "%s %.0f MB  ", i, $1/1000000}'; done)"

say "compose: up (postgres :$pg_port, node1 :$n1_port, node2 :$n2_port, nginx :$lb_port)"
dc down -v --remove-orphans >/dev/null 2>&1 || true  # what an interrupted run may have left
up_start=$(date +%s%N)
dc up -d >"$cdir/up.log" 2>&1 || { cat "$cdir/up.log"; cfail "docker-compose up failed"; }
# Bounded: a node is healthy once its browsers are up; nginx answers once a node does.
wait_health() {  # URL NAME
  local h=""
  for _ in $(seq 240); do
    h=$(curl -fsS --max-time 2 "$1/health" 2>/dev/null || true)
    case "$h" in *'"status":"ok"'*) return 0 ;; esac
    sleep 0.25
  done
  cfail "$2 ($1/health) never said ok within 60 s: $h"
}
wait_health "$node1" node1
wait_health "$node2" node2
wait_health "$lb" nginx
up_ms=$(ms_since "$up_start")
say "all healthy $up_ms ms after docker-compose up"
for svc in postgres node1 node2; do
  st=""
  for _ in $(seq 60); do
    st=$(docker inspect -f '{{.State.Health.Status}}' "$(dc ps -q "$svc")")
    [ "$st" = healthy ] && break
    sleep 1
  done
  [ "$st" = healthy ] || cfail "docker says $svc is '$st', not healthy (its HEALTHCHECK)"
done
say "docker's health checks: postgres, node1, node2 healthy"
# Only nginx listens on every address; the nodes and PostgreSQL on loopback alone.
listeners=$(ss -Hltn 2>/dev/null | awk '{print $4}' | grep -E ":($lb_port|$n1_port|$n2_port|$pg_port)\$" | sort | tr '\n' ' ')
for p in "$n1_port" "$n2_port" "$pg_port"; do
  echo " $listeners" | grep -Eq " (0\.0\.0\.0|\*|\[::\]):$p " && cfail "port $p listens beyond loopback: $listeners"
done
say "listeners: $listeners"

# A node's log, in a file (grep on a pipe from docker-compose would trip pipefail).
nodelog() { dc logs --no-color "$1" >"$cdir/$1.log" 2>&1 || true; echo "$cdir/$1.log"; }
# The nodes whose log has a line matching $1.
nodes_saying() {
  local svc out=""
  for svc in node1 node2; do
    if grep -q -- "$1" "$(nodelog "$svc")"; then out+="$svc "; fi
  done
  echo "${out% }"
}
# Exactly one node created account "default" and printed its key, once.
default_keys=$(cat "$(nodelog node1)" "$(nodelog node2)" | { grep -o 'gl_[0-9a-f]\{64\}' || true; } | sort -u | wc -l)
printers=$(nodes_saying 'gl_[0-9a-f]\{64\}')
[ "$default_keys" = 1 ] && [ "$(echo $printers | wc -w)" = 1 ] \
  || cfail "expected one default key printed by one node, got $default_keys key(s) from: $printers"
say "the first start: one default account, its key printed by $printers"

created=$(dc exec -T node1 gleaner accounts create --name compose-test --credits 100000 2>&1) \
  || cfail "accounts create: $created"
ckey=$(echo "$created" | tail -1 | tr -d '\r')
case "$ckey" in gl_*) ;; *) cfail "accounts create did not end with a key: $created" ;; esac
hdr=(-H "x-api-key: $ckey")
balance() { curl -fsS "${hdr[@]}" "$1/account" | jget 'd["balance"]'; }

# --- one account's credits, shared by both nodes ---------------------------------------------
b0=$(balance "$node1")
q='/scrape/search/news?q=%22Bears%20Ears%22%20monument'
for n in "$node1" "$node2"; do
  r=$(curl -fsS "${hdr[@]}" "$n$q") || cfail "search/news through $n failed"
  echo "$r" | grep -q '"newsResults":\[{' || cfail "search/news through $n: ${r:0:300}"
done
b1=$(balance "$node1"); b2=$(balance "$node2"); b3=$(balance "$lb")
spent=$(( b0 - b1 ))
[ "$spent" -gt 0 ] && [ "$b1" = "$b2" ] && [ "$b2" = "$b3" ] \
  || cfail "balances after one search through each node: before $b0; node1 $b1, node2 $b2, nginx $b3"
usage=$(curl -fsS "${hdr[@]}" "$node2/account" | jget 'd["usage"]["requests"]')
[ "$usage" = 2 ] || cfail "node2 counts $usage requests for the account, expected 2 (one per node)"
say "credits: one search/news through node1 and one through node2: balance $b0 -> $b1 on node1, node2 and nginx alike ($spent credits, 2 requests)"

# --- a screenshot taken through nginx is served by either node (shared data volume) -----------
web=$(curl -fsS "${hdr[@]}" -H 'content-type: application/json' \
  -d '{"url":"https://docker-test.example/page","outputFormat":["markdown"],"screenshot":true}' "$lb/scrape/web") \
  || cfail "scrape/web through nginx failed"
shot=$(echo "$web" | grep -o '"screenshot":"[^"]*"' | head -1 | sed 's/"screenshot":"//; s/"$//; s/\\u0026/\&/g')
case "$shot" in "$lb"/screenshots/*) ;; *) cfail "scrape/web through nginx gave no screenshot URL on nginx: ${web:0:400}" ;; esac
for n in "$node1" "$node2"; do
  curl -fsS -o "$cdir/shot.png" "$n${shot#"$lb"}" || cfail "the screenshot URL is not served by $n: ${shot#"$lb"}"
  [ "$(head -c 8 "$cdir/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || cfail "$n did not serve a PNG"
done
say "a screenshot taken through nginx is served by node1 and node2 ($(stat -c %s "$cdir/shot.png") bytes)"

# --- a job created on one node is seen on the other, and run by exactly one --------------------
job_body() {  # LIMIT LOCATION...
  local limit=$1; shift
  python3 - "$hook_url" "$limit" "$@" <<'EOF'
import json, sys
print(json.dumps({"keywords": ["griffith", "museums"],
                  "locations": ["CUSTOM>" + l for l in sys.argv[3:]],
                  "limit": int(sys.argv[2]), "webhook": {"url": sys.argv[1]}}))
EOF
}
job_get() { curl -fsS "${hdr[@]}" "$1/scrapers/jobs/$2"; }
wait_job() {  # URL ID SECONDS: until the job ended
  local deadline=$(( $(date +%s) + $3 )) st=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    st=$(job_get "$1" "$2" 2>/dev/null | jget 'd["status"]' 2>/dev/null || true)
    case "$st" in finished|stopped|failed) echo "$st"; return 0 ;; esac
    sleep 0.5
  done
  cfail "job $2 did not end within $3 s (status '$st'): $(job_get "$1" "$2" 2>/dev/null | cut -c1-400)"
}
hooks() {  # JOB EVENT: the deliveries received for it
  python3 - "$cdir/hooks.jsonl" "$1" "$2" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    h = json.loads(line)
    if h["body"].get("jobId") == sys.argv[2] and h["body"].get("event") == sys.argv[3]:
        print(h["delivery"], h["body"].get("jobStatus"), len(h["body"].get("data") or []))
EOF
}
count_lines() { grep -c . || true; }

short_start=$(date +%s%N)
job=$(curl -fsS "${hdr[@]}" -H 'content-type: application/json' -d "$(job_body 3 "Los Angeles")" "$node1/scrapers/maps/jobs") \
  || cfail "creating a job through node1 failed"
jid=$(echo "$job" | jget 'd["id"]')
for n in "$node2" "$lb"; do
  got=$(job_get "$n" "$jid" | jget 'd["id"]') || cfail "job $jid created on node1 is not readable through $n"
  [ "$got" = "$jid" ] || cfail "job $jid read through $n as $got"
done
st=$(wait_job "$lb" "$jid" 120)
short_ms=$(ms_since "$short_start")
[ "$st" = finished ] || cfail "job $jid ended $st"
ran_on=$(nodes_saying "job $jid started")
# The worker's lines (started, resumed at pair, finished / stopped / failed, errors); the API's
# "created" line and the webhook outbox's lines (any node sends any delivery) are not running it.
worked_on=$(nodes_saying "jobs  job $jid \(started\|resumed\|finished\|stopped\|failed\|:\)")
delivered_by=$(nodes_saying "webhooks  job $jid")
started=$(hooks "$jid" scraper.job.started | count_lines)
finished=$(hooks "$jid" scraper.job.finished | count_lines)
[ "$(echo $ran_on | wc -w)" = 1 ] && [ "$worked_on" = "$ran_on" ] \
  || cfail "job $jid: started on [$ran_on], worked on by [$worked_on]; expected exactly one node"
for _ in $(seq 40); do [ "$(hooks "$jid" scraper.job.finished | count_lines)" -ge 1 ] && break; sleep 0.25; done
finished=$(hooks "$jid" scraper.job.finished | count_lines)
[ "$started" = 1 ] && [ "$finished" = 1 ] || cfail "job $jid: $started started and $finished finished webhooks, expected 1 and 1"
say "job $jid created on node1, read through node2 and nginx, ran on $ran_on only (one started, one finished webhook; deliveries sent by $delivered_by) in $short_ms ms"

# --- a node killed mid-job: the other one finishes it ------------------------------------------
dc stop node2 >/dev/null 2>&1
locations=("Los Angeles" Pasadena Burbank Glendale "Santa Monica" "Long Beach" Anaheim Irvine
           "San Diego" "San Francisco" Oakland "San Jose" Sacramento Fresno Bakersfield Riverside)
bbefore=$(balance "$node1")
long_start=$(date +%s%N)
job=$(curl -fsS "${hdr[@]}" -H 'content-type: application/json' -d "$(job_body 3 "${locations[@]}")" "$node1/scrapers/maps/jobs") \
  || cfail "creating the long job through node1 failed"
kid=$(echo "$job" | jget 'd["id"]')
total=$(echo "$job" | jget 'd["progress"]["pairsTotal"]')
done_at_kill=0
for _ in $(seq 240); do
  done_at_kill=$(job_get "$node1" "$kid" | jget 'd["progress"]["pairsDone"]')
  [ "$done_at_kill" -ge 1 ] && break
  sleep 0.25
done
[ "$done_at_kill" -ge 1 ] || cfail "job $kid made no progress on node1 within 60 s"
docker kill "$(dc ps -q node1)" >/dev/null
kill_ns=$(date +%s%N)
to_kill_ms=$(( (kill_ns - long_start) / 1000000 ))
for _ in $(seq 40); do [ "$(docker inspect -f '{{.State.Running}}' "$(dc ps -q node1)")" = false ] && break; sleep 0.25; done
[ "$(docker inspect -f '{{.State.Running}}' "$(dc ps -q node1)")" = false ] || cfail "node1 still runs 10 s after docker kill"
node1_exit=$(docker inspect -f '{{.State.ExitCode}}' "$(dc ps -q node1)")
dc start node2 >/dev/null 2>&1
wait_health "$node2" node2
# Read through nginx (node1 is dead: nginx finds node2) while node1's lease still holds the job.
at_kill=$(job_get "$lb" "$kid") || cfail "job $kid is not readable through nginx with node1 dead"
say "job $kid ($total pairs) on node1: killed (SIGKILL, exit code $node1_exit) ${to_kill_ms} ms after creation; node2 up $(ms_since "$kill_ns") ms after the kill reads it through nginx: $(echo "$at_kill" | jget 'd["status"]'), pairsDone $(echo "$at_kill" | jget 'd["progress"]["pairsDone"]'), $(echo "$at_kill" | jget 'd["dataRowsCount"]') rows"
st=$(wait_job "$lb" "$kid" $(( lease + 180 )))
kill_to_end_ms=$(ms_since "$kill_ns")
final=$(job_get "$lb" "$kid")
[ "$st" = finished ] || cfail "job $kid ended $st: ${final:0:400}"
resumed_line=$(grep -m1 "job $kid resumed at pair [0-9]*" "$(nodelog node2)" || true)
[ -n "$resumed_line" ] || cfail "node2's log does not say it resumed job $kid"
resumed="resumed at pair ${resumed_line##* }"
# The log line's time (UTC, ms) against the kill's: how long the job waited for node1's lease.
resumed_at=${resumed_line#*| }  # docker-compose logs prefixes "node2_1  | "
takeover_ms=$(( ($(date -d "${resumed_at%%Z *}Z" +%s%N) - kill_ns) / 1000000 ))
done_pairs=$(echo "$final" | jget 'd["progress"]["pairsDone"]')
rows=$(echo "$final" | jget 'd["dataRowsCount"]')
credits=$(echo "$final" | jget 'd["creditsSpent"]')
[ "$done_pairs" = "$total" ] || cfail "job $kid finished with pairsDone $done_pairs of $total"
# One stored row costs maps_job_row credits (store/costs.cpp: 5).
[ "$rows" -gt 0 ] && [ "$credits" = $(( rows * 5 )) ] || cfail "job $kid: $rows rows but $credits credits spent (5 a row)"
bafter=$(balance "$node2")
[ $(( bbefore - bafter )) = "$credits" ] || cfail "the balance fell by $(( bbefore - bafter )), the job spent $credits"
results=$(curl -fsS "${hdr[@]}" "$lb/scrapers/jobs/$kid/results?limit=1000")
distinct=$(echo "$results" | jget 'len({r.get("placeId") or r.get("featureId") or r["name"] for r in d["data"]})')
[ "$(echo "$results" | jget 'd["total"]')" = "$rows" ] && [ "$distinct" = "$rows" ] \
  || cfail "job $kid results: total $(echo "$results" | jget 'd["total"]'), $distinct distinct places, dataRowsCount $rows"
for _ in $(seq 60); do [ "$(hooks "$kid" scraper.job.finished | count_lines)" -ge 1 ] && break; sleep 0.5; done
fin=$(hooks "$kid" scraper.job.finished)
[ "$(echo "$fin" | count_lines)" = 1 ] && [ "$(echo "$fin" | awk '{print $2}')" = finished ] \
  || cfail "job $kid: finished webhooks received: '$fin'"
[ "$(hooks "$kid" scraper.job.started | count_lines)" = 1 ] || cfail "job $kid: $(hooks "$kid" scraper.job.started | count_lines) started webhooks"
# Rows delivered: at least once (a delivery cut off by the kill is sent again with the same
# X-Gleaner-Delivery); counted once per delivery id, they are the job's rows.
delivered=$(hooks "$kid" scraper.data.scraped | sort -u -k1,1 | awk '{n += $3} END {print n + 0}')
[ "$delivered" = "$rows" ] || cfail "job $kid: $delivered rows in scraper.data.scraped webhooks (by delivery id), $rows stored"
say "node2 $resumed $takeover_ms ms after the kill; job finished $kill_to_end_ms ms after the kill (lease $lease s): pairsDone $done_pairs/$total, $rows rows, $credits credits (balance $bbefore -> $bafter), $delivered rows and one finished webhook delivered"

say "compose timings: postgres and nginx images $cbuild_s s; up to all healthy $up_ms ms; short job $short_ms ms; long job killed at $to_kill_ms ms, taken over by node2 $takeover_ms ms and finished $kill_to_end_ms ms after the kill; whole compose part $(( $(date +%s) - cbuild_start )) s"
dc down -v --remove-orphans >/dev/null 2>&1
kill "$hook_pid" 2>/dev/null || true
rm -rf "$cdir"
cdir=""
say "all checks passed"
