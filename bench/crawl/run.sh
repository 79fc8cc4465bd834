#!/usr/bin/env bash
# Crawls (issue 25): gleaner's crawler job against a Scrapy CrawlSpider (plain road) and against
# a bare Puppeteer crawler (browser road), over generated local sites with a known link graph
# (site.py), served from memory by serve.mjs, the same server for every contender. Each crawl
# must reach exactly the site's pages (expected.txt), or the bench fails. Prints one JSON line
# per crawl, then the ratios.
#   bench/crawl/run.sh [--only plain,browser,memory] [--pages 2000] [--browser-pages 500]
#                      [--memory 1000,10000] [--c 8] [--tabs 4] [--rounds 1] [--keep DIR]
# plain:   gleaner (jsRendering false, markdown) vs scrapy_crawl.py vs plain_loop.mjs, --pages
#          pages, --c fetches at once for each (gleaner: maxConcurrency and page_jobs_concurrency;
#          Scrapy: CONCURRENT_REQUESTS and CONCURRENT_REQUESTS_PER_DOMAIN; the loop: sockets).
# browser: gleaner (jsRendering true, markdown; 4 pages, --tabs threads and maxConcurrency) vs
#          floor_crawl.mjs (--tabs tabs), --browser-pages pages.
# memory:  gleaner plain crawls of each size in --memory, each on a fresh gleaner, the service's
#          RSS sampled every 250 ms (samples kept in --keep DIR when given).
# GLEANER_BIN overrides the gleaner binary (default <repo>/build/gleaner); STORE_DIR puts the
# SQLite store elsewhere (e.g. /dev/shm, to see what the disk's fdatasync costs).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
only="plain,browser,memory"; pages=2000; browser_pages=500; memory="1000,10000"; c=8; tabs=4
rounds=1; keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --pages) pages="$2"; shift 2 ;;
    --browser-pages) browser_pages="$2"; shift 2 ;;
    --memory) memory="$2"; shift 2 ;;
    --c) c="$2"; shift 2 ;;
    --tabs) tabs="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="${GLEANER_BIN:-$repo/build/gleaner}"
store_dir="${STORE_DIR:-}"
[[ -d "$repo/bench/web/node_modules/puppeteer-core" ]] ||
  (cd "$repo/bench/web" && npm install --no-audit --no-fund >&2)
/usr/bin/python3 -c 'import scrapy' 2>/dev/null ||
  { echo "Scrapy is missing: apt-get install -y python3-scrapy" >&2; exit 2; }
source "$repo/bench/common.sh"
[[ -z "$keep" ]] || mkdir -p "$keep"
failed=0
results="$tmp/results.jsonl"
: >"$results"

# site N: generates the site of N pages once and serves it; sets site_dir and site_port.
site() {
  site_dir="$tmp/site-$1"
  if [[ ! -d "$site_dir" ]]; then
    python3 "$here/site.py" "$site_dir" --pages "$1"
    node "$here/serve.mjs" --dir "$site_dir" >"$tmp/serve-$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do grep -q listening "$tmp/serve-$1.log" && break; sleep 0.1; done
  fi
  site_port="$(awk '/listening/{print $2}' "$tmp/serve-$1.log")"
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# record CMD...: runs one crawl, keeps its JSON line with the load average around it.
record() {
  local before line
  before="$(loadavg)"
  if ! line="$("$@")"; then failed=1; fi
  echo "$line" | jq -c --arg b "$before" --arg a "$(loadavg)" '. + {loadBefore: $b, loadAfter: $a}' |
    tee -a "$results"
}
# gleaner_crawl LABEL THREADS JS [SAMPLES]: one crawl of the current site on a fresh gleaner.
gleaner_crawl() {
  GLEANER_PAGE_JOBS_CONCURRENCY="$2" start_gleaner "$bin"
  record node "$here/gleaner_crawl.mjs" --base "http://127.0.0.1:$gleaner_port" --key "$gleaner_key" \
    --pid "$gleaner_pid" --start "http://127.0.0.1:$site_port/" --expected "$site_dir/expected.txt" \
    --concurrency "$2" --js "$3" --label "$1" ${4:+--samples "$4"}
  kill "$gleaner_pid"; wait "$gleaner_pid" 2>/dev/null || true
}

echo "crawl bench: $(nproc) cores; load average $(loadavg); gleaner $bin" >&2
for ((round = 1; round <= rounds; ++round)); do
  if [[ ",$only," == *,plain,* ]]; then
    site "$pages"
    gleaner_crawl gleaner-plain "$c" false
    record /usr/bin/python3 "$here/scrapy_crawl.py" --start "http://127.0.0.1:$site_port/" \
      --out "$tmp/scrapy.jsonl" --concurrency "$c" 2>"$tmp/scrapy.log"
    # Scrapy's rows checked against the site as gleaner's are.
    if ! jq -r '.url' "$tmp/scrapy.jsonl" | sed "s|^http://127.0.0.1:$site_port||" | sort |
      diff -q - "$site_dir/expected.txt" >/dev/null; then
      echo "scrapy did not reach exactly the site's $pages pages" >&2; failed=1
    fi
    record node "$here/plain_loop.mjs" --start "http://127.0.0.1:$site_port/" \
      --expected "$site_dir/expected.txt" --concurrency "$c"
  fi
  if [[ ",$only," == *,browser,* ]]; then
    site "$browser_pages"
    gleaner_crawl gleaner-browser "$tabs" true
    record node "$here/floor_crawl.mjs" --start "http://127.0.0.1:$site_port/" \
      --expected "$site_dir/expected.txt" --pages "$tabs"
  fi
done
if [[ ",$only," == *,memory,* ]]; then
  for n in ${memory//,/ }; do
    site "$n"
    gleaner_crawl "gleaner-memory-$n" "$c" false "${keep:+$keep/rss-$n.jsonl}"
  done
fi

# The ratios of the medians (one round: of the single runs).
jq -s -r '
  def med(l): [.[] | select(.label == l) | .pagesPerSecond] | sort | if length > 0 then .[(length - 1) / 2 | floor] else null end;
  def ratio(a; b): if med(a) and med(b) then "\(a) / \(b): \(med(a)) / \(med(b)) = \((med(a) / med(b) * 100 | round) / 100)" else empty end;
  ratio("gleaner-plain"; "scrapy"), ratio("plain-loop"; "scrapy"), ratio("gleaner-browser"; "floor"),
  (.[] | select(.label | startswith("gleaner-memory")) | "\(.label): \(.pages) pages, RSS MB before \(.rssMb.before), peak \(.rssMb.peak), end \(.rssMb.end)")
' "$results" >&2
[[ -z "$keep" ]] || cp "$results" "$keep/results.jsonl"
exit "$failed"
