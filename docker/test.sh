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
# Compose (PostgreSQL, two nodes, nginx) is not checked by this script yet: docs/deployment.md.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${GLEANER_TEST_PORT:-18080}
# GLEANER_TEST_IMAGE=<image>: check an image built already (by CI, or by an earlier run) instead
# of building one.
image=${GLEANER_TEST_IMAGE:-gleaner:test}
name=gleaner-docker-test
fixtures=$(cd .. && pwd)/shared/fixtures/pages

say() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# --- what this needs -------------------------------------------------------------------------
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
missing=()
for p in docker.io mmdebstrap curl; do
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
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$archive" "$data"
}
trap cleanup EXIT
cp "$fixtures/news/monument-watch_rss_search_bears-ears-monument_enUS.xml" "$archive/news.xml"
cp "$fixtures/stays-place/booking-property-kotor-excerpt-2026.html" "$archive/page.html"
chmod 644 "$archive"/*
cat >"$archive/index.json" <<'EOF'
{"entries": [
  {"url": "https://news.google.com/rss/search?q=%22Bears+Ears%22+monument&hl=en-US&gl=US&ceid=US:en",
   "file": "news.xml", "headers": {"content-type": "application/rss+xml; charset=utf-8"}},
  {"url": "https://docker-test.example/page", "file": "page.html"}
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
say "all checks passed"
