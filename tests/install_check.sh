#!/usr/bin/env bash
# Installs a configured build of rune to a temporary prefix and builds a
# consumer of it twice, once with find_package(rune) and once with
# pkg-config, then runs both. With shared libraries, also checks their
# SONAME and that they export rune's symbols only.
#   tests/install_check.sh BUILD_DIR WORK_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
rm -rf "$2"
mkdir -p "$2"
# absolute: CMake reads a relative CMAKE_PREFIX_PATH against the consumer's
# build folder, not the caller's
work="$(cd "$2" && pwd)"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir="$prefix/lib"
[ -d "$libdir" ] || libdir="$(dirname "$(find "$prefix" -name 'librune_core.*' | head -1)")"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scenario="$here/scenarios/cubic_inout.json"

# 1. find_package(rune)
cmake -S "$here/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log"
cmake --build "$work/cmake" >>"$work/cmake.log"
"$work/cmake/consumer" "$scenario"

# 2. pkg-config (rune-io when it was installed, else rune; rune-compress)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
module="rune rune-compress"
defs=""
if pkg-config --exists rune-io; then
  module="rune-io rune-compress"
  defs="-DRUNE_CONSUMER_IO=1"
fi
# shellcheck disable=SC2046,SC2086
cc -std=c11 $defs $(pkg-config --cflags $module) "$here/consumer/consumer.c" -o "$work/consumer-pc" \
  $(pkg-config --libs $module)
"$work/consumer-pc" "$scenario"

# 3. the installed headers from C++ (C linkage, no C-only constructs)
if command -v c++ >/dev/null 2>&1; then
  headers="#include <rune/rune.h>
#include <rune/compress.h>"
  [ -e "$prefix/include/rune/io.h" ] && headers="$headers
#include <rune/io.h>"
  [ -e "$prefix/include/rune/import.h" ] && headers="$headers
#include <rune/import.h>"
  printf '%s\nint main() { return rune_q_identity().w > 0.0f ? 0 : 1; }\n' "$headers" >"$work/cxx.cpp"
  c++ -std=c++11 -Wall -Wextra -Werror -I"$prefix/include" -fsyntax-only "$work/cxx.cpp"
fi

# 4. shared libraries: versioned SONAME, only rune_ symbols exported
for so in "$libdir"/librune_*.so; do
  [ -e "$so" ] || continue
  soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  case "$soname" in
    librune_*.so.[0-9]*.[0-9]*) ;;
    *) echo "install_check: $so: unexpected SONAME '$soname'" >&2; exit 1 ;;
  esac
  stray=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -v '^rune_' | grep -v '^_' || true)
  if [ -n "$stray" ]; then
    echo "install_check: $so exports non-rune symbols: $stray" >&2
    exit 1
  fi
  echo "install_check: $(basename "$so"): SONAME $soname, $(nm -D --defined-only "$so" | grep -c ' T rune_') functions"
done
echo "install_check: consumers built with find_package and pkg-config, and ran"
