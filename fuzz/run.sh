#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs
# each for SECONDS (default 60), seeded from the golden scenarios and the
# assimp test models. Exits non-zero on any crash, leak or sanitizer report.
#   fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNE_SANITIZE=ON -DRUNE_FUZZ=ON \
  -DRUNE_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_load fuzz_eval fuzz_import fuzz_gltf fuzz_fbx fuzz_asset fuzz_ik

corpus=build-fuzz/corpus
mkdir -p "$corpus/scenario" "$corpus/bvh" "$corpus/gltf" "$corpus/asset" "$corpus/ik"
# .rune seeds: a leading byte selects raw (even) or header-fixed (odd) input
for f in tests/fixtures/*.rune; do
  { printf '\0'; cat "$f"; } > "$corpus/asset/raw-$(basename "$f")"
  { printf '\1'; cat "$f"; } > "$corpus/asset/fixed-$(basename "$f")"
done
cp tests/scenarios/*.json tests/scenarios/errors/*.json "$corpus/scenario/"
python3 fuzz/seeds/make_large.py "$corpus/scenario"
cp tests/fixtures/tiny.bvh "$corpus/bvh/"
mkdir -p "$corpus/fbx"
cp tests/fixtures/past_stop_ascii.fbx tests/fixtures/past_stop_binary.fbx "$corpus/fbx/"
# glTF seeds: a leading byte 0 selects .gltf (see fuzz_gltf.c)
{ printf '\0'; cat tests/fixtures/steps.gltf; } > "$corpus/gltf/steps"
{ printf '\0'; cat tests/fixtures/scale_modes.gltf; } > "$corpus/gltf/scale_modes"
{ printf '\0'; cat tests/fixtures/morphs.gltf; } > "$corpus/gltf/morphs"
{ printf '\0'; cat /usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf 2>/dev/null; } > "$corpus/gltf/simple_skin"
# sizes near the limits (fuzz/seeds: strides of 2^62, offsets at the end
# of the buffer), and the numbers that wrap a 64-bit product in the
# dictionary (fuzz/gltf.dict): a count one off makes the size wrap
for f in fuzz/seeds/*.gltf; do
  { printf '\0'; cat "$f"; } > "$corpus/gltf/$(basename "$f" .gltf)"
done
for f in /usr/share/assimp/models/BVH/*.bvh; do
  # the CMU files are large; their first 4 KiB (hierarchy and some frames)
  # make better seeds
  [ -f "$f" ] && head -c 4096 "$f" > "$corpus/bvh/$(basename "$f")"
done

# allocator_may_return_null: a huge allocation (a BVH claiming -1 frames)
# then fails the way it does in production, where assimp catches the
# std::bad_alloc, instead of aborting the fuzzer
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
run() {
  local target=$1 dir=$2 leaks=1 dict=()
  # assimp keeps allocations across imports (suppressed in lsan.supp), so
  # libFuzzer would stop for a leak check after every BVH input (200 runs/s
  # instead of 11,000); rune's own import path is leak-checked by the
  # sanitizer test run, allocation failures included
  [ "$target" = import ] && leaks=0
  [ -f fuzz/$target.dict ] && dict=(-dict=fuzz/$target.dict)
  echo "== fuzz_$target for ${seconds}s"
  if ! build-fuzz/fuzz/fuzz_$target -max_total_time="$seconds" -max_len=65536 -timeout=5 -detect_leaks=$leaks \
       -artifact_prefix=build-fuzz/crash-$target- \
       -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" "$dir" 2>build-fuzz/fuzz_$target.log; then
    status=1
    tail -40 build-fuzz/fuzz_$target.log
  fi
  grep -E "stat::number_of_executed_units|Done [0-9]+ runs" build-fuzz/fuzz_$target.log | tail -2
}
run load "$corpus/scenario"
run eval "$corpus/scenario"
run import "$corpus/bvh"
run gltf "$corpus/gltf"
run fbx "$corpus/fbx"
run asset "$corpus/asset"
run ik "$corpus/ik"
exit $status
