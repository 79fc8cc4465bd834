# Sourced by the bench scripts that serve pages locally and start gleaner (bench/web/plain.sh,
# bench/main_content/run.sh): a temporary directory and the processes to stop on exit, a free port,
# waiting for a server, and gleaner started on a fresh store with private addresses allowed.
tmp="$(mktemp -d)"
pids=()
cleanup() {
  # serve_static runs in $(...), a subshell: its server's pid comes back through a file.
  [[ -f "$tmp/static.pids" ]] && while read -r p; do pids+=("$p"); done <"$tmp/static.pids"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
# Waits (at most 60 s) until "$1" answers an HTTP request at all.
wait_up() {
  for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "$1" && return 0; sleep 0.2; done
  echo "no answer from $1" >&2; return 1
}
# Serves directory "$1" on a free port in the background; prints the port.
serve_static() {
  local port
  port="$(free_port)"
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$1" >"$tmp/static-$port.log" 2>&1 &
  echo $! >>"$tmp/static.pids"
  wait_up "http://127.0.0.1:$port/" >&2
  echo "$port"
}
# Starts gleaner binary "$1" on a free port (one Chromium process, 4 pages, private addresses
# allowed, outside names unresolvable) and sets gleaner_port, gleaner_pid and gleaner_key.
# The SQLite store is a file in $store_dir (default the temporary directory, on disk).
start_gleaner() {
  gleaner_port="$(free_port)"
  (cd "$tmp" && GLEANER_ALLOW_PRIVATE_ADDRESSES=true GLEANER_STORE="sqlite:${store_dir:-$tmp}/g$gleaner_port.db" \
    GLEANER_CHROMIUM_FLAGS="--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" \
    GLEANER_BROWSER_PROCESSES=1 GLEANER_PAGES_PER_PROCESS=4 GLEANER_DEFAULT_CREDITS=100000000 \
    GLEANER_LOG_LEVEL=warn exec "$1" serve --port "$gleaner_port" >"$tmp/gleaner.out" 2>"$tmp/gleaner.err") &
  gleaner_pid=$!
  pids+=($gleaner_pid)
  wait_up "http://127.0.0.1:$gleaner_port/"
  # The first start on a store prints the new account's API key as its last line.
  gleaner_key="$(tail -n 1 "$tmp/gleaner.out")"
}
