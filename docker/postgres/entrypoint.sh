#!/bin/sh
# Makes the cluster on the first start (an empty volume), then runs PostgreSQL in the foreground
# as PID 1 (it reaps its own children and shuts down on SIGINT/SIGTERM).
set -eu
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres-entrypoint: set POSTGRES_PASSWORD for the first start" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  # Over TCP a password is always needed (scram-sha-256); the Unix socket stays inside the
  # container, where only this server's own user runs.
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\";" |
      postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres-entrypoint: created database $POSTGRES_DB (owner $POSTGRES_USER) in $PGDATA"
fi
exec postgres -D "$PGDATA" -p "$POSTGRES_PORT" -c listen_addresses="$POSTGRES_LISTEN" \
  -c unix_socket_directories=/var/run/postgresql "$@"
