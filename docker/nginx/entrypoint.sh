#!/bin/sh
# Writes /etc/nginx/nginx.conf from the mounted template with the ports filled in, checks it,
# and runs nginx in the foreground as PID 1.
set -eu
: "${NGINX_PORT:=8080}" "${GLEANER_NODE1_PORT:=18081}" "${GLEANER_NODE2_PORT:=18082}"
export NGINX_PORT GLEANER_NODE1_PORT GLEANER_NODE2_PORT
envsubst '${NGINX_PORT} ${GLEANER_NODE1_PORT} ${GLEANER_NODE2_PORT}' \
  </etc/nginx/nginx.conf.template >/etc/nginx/nginx.conf
nginx -t -q
exec nginx -g 'daemon off;' "$@"
