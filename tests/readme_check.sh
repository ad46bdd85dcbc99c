#!/usr/bin/env bash
# Runs every ```sh block of the README as written (with build/rune standing
# for the rune under test), from the repository root, so the README's
# commands cannot rot. A block right after "<!-- readme_check: skip" is
# left out (the build-and-test block, which would run the tests again).
#   tests/readme_check.sh RUNE
set -u
rune="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
awk -v dir="$work" '
  /^<!-- readme_check: skip/ { skip = 1; next }
  /^```sh$/ { inside = 1; n++; file = dir "/block" n (skip ? ".skip" : ".sh"); skip = 0; next }
  /^```/ && inside { inside = 0; close(file); next }
  inside { print > file }
  !inside && NF { skip = skip && /^<!--/ }
' README.md
status=0
for block in "$work"/block*.sh; do
  [ -e "$block" ] || continue
  # build/rune in the README is the rune under test
  sed -i "s#^build/rune #'$rune' #" "$block"
  if ! bash -e "$block" >"$block.out" 2>&1; then
    echo "readme_check: $(basename "$block") failed:" >&2
    cat "$block" >&2
    tail -20 "$block.out" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "readme_check: $(ls "$work"/block*.sh | wc -l) command blocks ran"
exit $status
