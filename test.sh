#!/usr/bin/env bash
# Runs the whole test suite twice: the normal build (build/), then an
# AddressSanitizer + UndefinedBehaviorSanitizer build with clang
# (build-asan/). Any failure or sanitizer report fails the run.
#   ./test.sh            both
#   ./test.sh --quick    the normal build only
set -euo pipefail
cd "$(dirname "$0")"
jobs="$(nproc)"

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNE_SHARED=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${1:-}" != "--quick" ]; then
  CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRUNE_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp":print_suppressions=0 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
