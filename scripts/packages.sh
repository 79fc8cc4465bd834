#!/bin/sh
# Prints the Debian packages of the named sections of scripts/packages.txt, one a line:
#   sh scripts/packages.sh build test
# POSIX sh and awk only: the image's stages run it on a bare Debian base. An unknown section is
# an error, so a typo cannot install nothing.
set -eu
list=${GLEANER_PACKAGES:-$(dirname "$0")/packages.txt}
[ $# -gt 0 ] || { echo "usage: packages.sh SECTION..." >&2; exit 2; }
awk -v want=" $* " '
  { sub(/#.*/, ""); gsub(/^[ \t]+|[ \t]+$/, "") }
  $0 == "" { next }
  /^\[[a-z]+\]$/ { section = substr($0, 2, length($0) - 2); seen[section] = 1; next }
  index(want, " " section " ") { print }
  END {
    n = split(want, asked, " ")
    for (i = 1; i <= n; i++) if (!(asked[i] in seen)) { print "packages.sh: no section [" asked[i] "]" > "/dev/stderr"; bad = 1 }
    exit bad
  }' "$list"
