#!/usr/bin/env bash
# packages_tests (tests/packages/CMakeLists.txt):
#   bash tests/packages/packages_test.sh SOURCE_DIR [GLEANER_BINARY]
# Checks that scripts/packages.txt is the one list of Debian packages:
#   - docker/Dockerfile installs with apt-get only `$packages`, read from scripts/packages.sh: the
#     [build] section in the build stage, [runtime] in the last stage, no package named by hand;
#   - scripts/install-deps.sh installs the [build] and [test] sections and lists nothing itself;
#   - every section is well formed (no package twice);
#   - with the binary (on Debian): the package of every shared library it links directly is in
#     [runtime], so the image's run stage cannot miss one (as it missed libgumbo1).
# Prints one line per check and closes with 'N passed, N failed'.
set -uo pipefail
src=${1:?usage: packages_test.sh SOURCE_DIR [GLEANER_BINARY]}
binary=${2:-}
reader="$src/scripts/packages.sh"
passed=0
failed=0
# check $? NAME MESSAGE-IF-FAILED: $? first, expanded before any $(...) in the message resets it.
check() {
  if [ "$1" -eq 0 ]; then
    passed=$((passed + 1)); echo "ok   $2"
  else
    failed=$((failed + 1)); echo "FAIL $2: $3"
  fi
}

# --- the list itself ----------------------------------------------------------------------------
for section in build test runtime; do
  pkgs=$(sh "$reader" "$section" 2>&1); rc=$?
  [ $rc -eq 0 ] && [ -n "$pkgs" ]; check $? "section [$section] is read" "$pkgs"
  dup=$(printf '%s\n' "$pkgs" | sort | uniq -d | tr '\n' ' ')
  [ -z "$dup" ]; check $? "section [$section] names each package once" "twice: $dup"
done
sh "$reader" no-such-section >/dev/null 2>&1
[ $? -ne 0 ]; check $? "an unknown section is an error" "packages.sh no-such-section exited 0"

# --- docker/Dockerfile ----------------------------------------------------------------------------
# The instructions, continuation lines joined, comments dropped; the stage of each.
instructions=$(sed -e '/^[[:space:]]*#/d' "$src/docker/Dockerfile" | sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta')
stages=$(printf '%s\n' "$instructions" | grep -c '^FROM ')
install_lines=$(printf '%s\n' "$instructions" | awk '/^FROM /{stage++} /apt-get install|apt install|dpkg -i|aptitude install/{print stage": "$0}')
[ "$(printf '%s\n' "$install_lines" | grep -c .)" -eq 2 ]
check $? "the Dockerfile installs packages in two RUNs" "$install_lines"
stage_of() { printf '%s\n' "$install_lines" | grep "packages.sh $1)" | cut -d: -f1; }
[ "$(stage_of build)" = 1 ]
check $? "the build stage installs the [build] section" "$(printf '%s\n' "$install_lines" | head -1)"
[ "$(stage_of runtime)" = "$stages" ]
check $? "the last stage installs the [runtime] section" "$(printf '%s\n' "$install_lines" | tail -1)"
# Every word after `apt-get install` is an option or $packages, and $packages comes from the reader.
hand=""
while IFS= read -r line; do
  [ -n "$line" ] || continue
  case "$line" in *'packages=$(sh /tmp/packages/packages.sh '*) ;; *) hand+="[not from packages.sh: $line] " ;; esac
  words=$(printf '%s\n' "$line" | sed -e 's/.*apt-get install//' -e 's/&&.*//')
  for w in $words; do
    case "$w" in -*|'$packages') ;; *) hand+="$w " ;; esac
  done
done <<<"$install_lines"
[ -z "$hand" ]; check $? "the Dockerfile names no package by hand" "$hand"
grep -q 'COPY scripts/packages.txt scripts/packages.sh /tmp/packages/' "$src/docker/Dockerfile"
check $? "the Dockerfile copies the list and its reader" "no COPY of scripts/packages.{txt,sh}"

# --- scripts/install-deps.sh ----------------------------------------------------------------------
grep -q 'packages.sh" build test)' "$src/scripts/install-deps.sh"
check $? "install-deps.sh installs [build] and [test]" "it does not read packages.sh build test"
! grep -Eq '^[[:space:]]*packages=\(' "$src/scripts/install-deps.sh"
check $? "install-deps.sh lists no package itself" "it has a packages=( ... ) list"

# --- the binary's libraries -----------------------------------------------------------------------
if [ -n "$binary" ] && [ -x "$binary" ] && command -v dpkg >/dev/null && command -v readelf >/dev/null; then
  runtime=" $(sh "$reader" runtime | tr '\n' ' ') "
  missing=""
  libs=$(ldd "$binary" 2>/dev/null)
  for needed in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(printf '%s\n' "$libs" | awk -v n="$needed" '$1 == n && $3 ~ /^\// {print $3; exit}')
    [ -n "$path" ] || { missing+="$needed(not found) "; continue; }
    # dpkg knows a file by the path its package installed it at: /lib or /usr/lib (merged /usr).
    pkg=""
    for p in "$path" "${path#/usr}" "/usr$path" "$(readlink -f "$path")"; do
      pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
    done
    [ -n "$pkg" ] || { missing+="$needed(no package owns $path) "; continue; }
    case "$runtime" in *" $pkg "*) ;; *) missing+="$pkg($needed) " ;; esac
  done
  [ -z "$missing" ]; check $? "[runtime] holds the package of every library gleaner links" "missing: $missing"
else
  echo "skip the binary's libraries (no binary given, or no dpkg/readelf here)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
