#!/usr/bin/env bash
# The command line's contract, checked end to end: exit statuses (2 bad
# input, 3 internal, 4 I/O), one line on stderr with control characters
# escaped, --help everywhere, "-" for stdin, unknown-key warnings and
# --strict, safe output files (never through a link, never over an input,
# never over an existing file without --force, never half written), and
# write errors on stdout.
#   tests/cli_check.sh RUNE WORKDIR
set -u
rune="$1"
work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
scn="$here/scenarios/cubic_inout.json"
rm -rf "$work"
mkdir -p "$work"
failures=0

fail() {
  echo "cli_check: $*" >&2
  failures=$((failures + 1))
}

# expect STATUS DESCRIPTION -- COMMAND...: runs it (stdout and stderr kept)
expect() {
  local want=$1 what=$2
  shift 3
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [ "$got" = "$want" ] || fail "$what: exit $got, expected $want ($(head -c 200 "$work/err"))"
  if [ "$want" != 0 ] && [ "$(wc -l <"$work/err")" != 1 ]; then
    fail "$what: expected one line on stderr, got: $(cat "$work/err")"
  fi
}

# --help: usage on stdout, exit 0, for every command
for c in eval import export info render inspect bench; do
  expect 0 "$c --help" -- "$rune" "$c" --help
  grep -q "^usage: rune $c" "$work/out" || fail "$c --help: no usage on stdout"
  expect 0 "help $c" -- "$rune" help "$c"
  grep -q "^usage: rune $c" "$work/out" || fail "help $c: no usage on stdout"
done
expect 0 "--help" -- "$rune" --help
grep -q "4 a file or stream" "$work/out" || fail "--help does not document the exit statuses"
expect 2 "unknown command" -- "$rune" frobnicate
# bench: bad options are usage errors, one line, before any measuring
expect 2 "bench --simd unknown" -- "$rune" bench --simd sse9
expect 2 "eval --simd unknown" -- "$rune" eval tests/scenarios/cubic_inout.json --simd sse9
grep -q "auto, scalar, sse2" "$work/err" || fail "eval --simd unknown: $(cat "$work/err")"
expect 2 "bench --workers junk" -- "$rune" bench --workers 2x
expect 2 "bench unknown option" -- "$rune" bench --fast
expect 2 "bench --cpu junk" -- "$rune" bench --cpu 1x
expect 2 "bench --cpu past the CPUs" -- "$rune" bench --cpu 100000
grep -q "a CPU this process may run on" "$work/err" || fail "bench --cpu 100000: $(cat "$work/err")"
expect 2 "bench --graph-crowd 0" -- "$rune" bench --graph-crowd 0
expect 2 "bench --graph-crowd junk" -- "$rune" bench --graph-crowd 10k
expect 2 "bench --graph-crowd with --only" -- "$rune" bench --only ik --graph-crowd 20
grep -q "does not go with --only" "$work/err" || fail "bench --graph-crowd with --only: $(cat "$work/err")"
probe="$(dirname "$rune")/rune_core_probe"
expect 2 "rune_core_probe with an option" -- "$probe" --quick
grep -q 'runs alone; not with "--quick"' "$work/err" || fail "rune_core_probe --quick: $(cat "$work/err")"
# the graph crowd's row alone: one JSON row, 0 allocations in its frames
expect 0 "bench --graph-crowd 20" -- "$rune" bench --graph-crowd 20 --workers 1 --json
grep -q '"id": "graph_crowd_20_w1".*"allocations": 0' "$work/out" || fail "bench --graph-crowd 20: no row: $(cat "$work/out")"
# pinned: the report says where the timing thread ran
expect 0 "bench --cpu 0" -- "$rune" bench --graph-crowd 20 --workers 1 --cpu 0 --json
grep -q '"cpu": 0' "$work/out" || fail "bench --cpu 0: not reported: $(head -c 300 "$work/out")"

# every command parses its arguments alike (tools/rune/cli.c,
# cli_parse_args): an unknown option, an option missing its value, a
# second positional argument or none are usage errors, one line each
for c in eval info render inspect import; do
  expect 2 "$c unknown option" -- "$rune" "$c" "$scn" --bogus
  grep -q "^rune $c: unknown option \"--bogus\"" "$work/err" || fail "$c --bogus: $(cat "$work/err")"
  expect 2 "$c two files" -- "$rune" "$c" "$scn" "$scn" -o "$work/never.html"
  grep -q "more than one" "$work/err" || fail "$c two files: $(cat "$work/err")"
  expect 2 "$c no file" -- "$rune" "$c"
  grep -q "^rune $c: missing" "$work/err" || fail "$c no file: $(cat "$work/err")"
done
for c in eval render inspect; do
  expect 2 "$c --frames without a value" -- "$rune" "$c" "$scn" --frames
  grep -q "^rune $c: --frames needs a value" "$work/err" || fail "$c --frames: $(cat "$work/err")"
done
expect 2 "render --snapshots junk" -- "$rune" render "$scn" -o "$work/never.png" --snapshots 3x
expect 2 "import from stdin" -- "$rune" import - -o "$work"
[ ! -e "$work/never.png" ] && [ ! -e "$work/never.html" ] || fail "a refused command wrote its output"

# files are told by their bytes, not their names, alike in info and render
cp "$scn" "$work/scenario.txt"
cp "$here/fixtures/tiny.rune" "$work/asset.bin"
for f in scenario.txt asset.bin; do
  expect 0 "info $f" -- "$rune" info "$work/$f"
  expect 0 "render $f" -- "$rune" render "$work/$f" -o "$work/$f.png"
done
expect 2 "render a .rune from stdin" -- sh -c "'$rune' render - -o '$work/stdin.png' <'$work/asset.bin'"

# loops at import, and the clip a tool plays: robot_like.gltf
# holds Walk (1 s) then Idle (2 s), neither looping
robot="$here/fixtures/robot_like.gltf"
expect 0 "import --loop" -- "$rune" import "$robot" -o "$work/loop_all" --json --quiet --loop
[ "$(grep -o '"loop":true' "$work/loop_all/robot_like.json" | wc -l)" = 2 ] || fail "import --loop: not every clip loops"
expect 0 "import --loop-clips Idle" -- "$rune" import "$robot" -o "$work/loop_idle" --json --quiet --loop-clips Idle
grep -q '"id":"Walk".*"loop":false' "$work/loop_idle/robot_like.json" &&
  grep -q '"id":"Idle".*"loop":true' "$work/loop_idle/robot_like.json" || fail "--loop-clips Idle: $(grep -o '"id":"[A-Za-z]*"[^k]*"loop":[a-z]*' "$work/loop_idle/robot_like.json")"
expect 2 "import --loop-clips of an unknown clip" -- "$rune" import "$robot" -o "$work/loop_bad" --quiet --loop-clips Idle,Run
grep -q 'no clip "Run" (--loop-clips; the clips are "Walk", "Idle")' "$work/err" || fail "--loop-clips Run: $(cat "$work/err")"
[ ! -e "$work/loop_bad/robot_like.rune" ] || fail "a refused --loop-clips wrote its output"
expect 2 "import --loop and --loop-clips" -- "$rune" import "$robot" -o "$work/loop_bad" --quiet --loop --loop-clips Idle
expect 0 "import robot_like" -- "$rune" import "$robot" -o "$work/robot" --quiet
for f in "$robot" "$work/robot/robot_like.rune"; do
  expect 0 "render --clip Idle $(basename "$f")" -- "$rune" render "$f" -o "$work/idle_$(basename "$f").svg" --clip Idle --quiet
  expect 0 "inspect --clip Idle $(basename "$f")" -- "$rune" inspect "$f" -o "$work/idle_$(basename "$f").html" --clip Idle --quiet
  grep -q '"Idle"' "$work/idle_$(basename "$f").html" && ! grep -q '"Walk"' "$work/idle_$(basename "$f").html" ||
    fail "inspect --clip Idle $(basename "$f"): the page does not play Idle alone"
  expect 2 "render --clip of an unknown clip" -- "$rune" render "$f" -o "$work/never.svg" --clip Run --quiet
  grep -q 'no clip "Run" (the clips are "Walk", "Idle")' "$work/err" || fail "render --clip Run: $(cat "$work/err")"
done
expect 2 "render --clip of a scenario" -- "$rune" render "$scn" -o "$work/never.svg" --clip Idle

# stdin, and the same output as from the file
"$rune" eval "$scn" >"$work/from_file.json" || fail "eval FILE failed"
expect 0 "eval -" -- sh -c "'$rune' eval - <'$scn'"
cmp -s "$work/out" "$work/from_file.json" || fail "eval - differs from eval FILE"

# input errors: 2; a missing file: 4 (I/O)
expect 2 "bad JSON" -- sh -c "echo '{\"rig\":' | '$rune' eval -"
expect 4 "missing file" -- "$rune" eval "$work/no-such-file.json"
expect 2 "bad --frames" -- "$rune" eval "$scn" --frames 3
[ ! -s "$work/out" ] || fail "bad input printed something on stdout"

# unknown keys: a warning naming the path and the closest key; --strict
# makes it an error; --quiet silences the warning
printf '{"rig": {"joints": [{"part": "Root"}]}, "framez": 3}' >"$work/typo.json"
expect 0 "unknown key" -- "$rune" eval "$work/typo.json"
grep -q 'warning: .*typo.json: framez: unknown key (did you mean "frames"?)' "$work/err" ||
  fail "unknown key: no warning with a suggestion: $(cat "$work/err")"
expect 2 "unknown key, --strict" -- "$rune" eval "$work/typo.json" --strict
expect 0 "unknown key, --quiet" -- "$rune" eval "$work/typo.json" --quiet
[ ! -s "$work/err" ] || fail "--quiet still warned: $(cat "$work/err")"

# control characters quoted from the input are escaped on stderr
printf '{"rig": {"joints": [{"part": "Root"}]}, "commands": [{"frame": 0, "play": "x\\u001dy"}]}' >"$work/ctl.json"
expect 2 "control character in a name" -- "$rune" eval "$work/ctl.json"
grep -q 'x\\x1dy' "$work/err" || fail "control character not escaped: $(od -c "$work/err" | head -3)"
LC_ALL=C grep -q "$(printf '\035')" "$work/err" && fail "raw control byte on stderr"

# stdout write errors: exit 4, one line
if [ -w /dev/full ]; then
  expect 4 "eval > /dev/full" -- sh -c "'$rune' eval '$scn' >/dev/full"
fi

# hostile times render too (bounded work: ctest's timeout catches a hang)
expect 0 "render a hostile scenario" -- "$rune" render "$here/scenarios/hostile_marker_walk.json" -o "$work/hostile.png"
expect 0 "render a hostile graph" -- "$rune" render "$here/scenarios/hostile_graph_speed.json" -o "$work/hostile.svg"

# float curves: the curves panel alone, a morph import, its curve bound
expect 0 "render the curves panel" -- "$rune" render "$here/../examples/curves.json" -o "$work/curves.png" --panels curves
expect 2 "import --curve-precision junk" -- "$rune" import "$here/fixtures/morphs.gltf" -o "$work/m" --curve-precision -1
expect 0 "import morphs" -- "$rune" import "$here/fixtures/morphs.gltf" -o "$work/m" --curve-precision 0.01 --quiet
"$rune" info "$work/m/morphs.rune" | grep -q '"curve_precision": 0.00999999978' ||
  fail "rune info does not report the curve precision asked for"
"$rune" info "$work/m/morphs.rune" | grep -q '{"name": "Face/smile", "keys": ' || fail "rune info does not list curves"

# output files
mkdir -p "$work/out_dir"
expect 0 "import" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir"
expect 2 "import over an existing file" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir"
expect 0 "import --force" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir" --force
[ -s "$work/out_dir/tiny.rune" ] || fail "import did not write tiny.rune"
expect 0 "import --json" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir" --json
[ -s "$work/out_dir/tiny.json" ] || fail "import --json did not write tiny.json"
echo "elsewhere" >"$work/elsewhere.rune"
rm -f "$work/out_dir/tiny.rune"
ln -s "$work/elsewhere.rune" "$work/out_dir/tiny.rune"
expect 2 "import through a symbolic link" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir" --force
[ "$(cat "$work/elsewhere.rune")" = "elsewhere" ] || fail "a link's target was overwritten"
rm -f "$work/out_dir/tiny.rune"
"$rune" import "$here/fixtures/tiny.bvh" -o "$work/out_dir" >/dev/null || fail "import after unlinking failed"

# compression: on by default, --lossless keeps keys, bad numbers are usage
# errors, a precision too fine for 24 bits keeps the clip exact with a warning
expect 0 "info of the compressed import" -- "$rune" info "$work/out_dir/tiny.rune"
grep -q '"compressed": true' "$work/out" || fail "import did not compress tiny.bvh"
grep -q '"max_error"' "$work/out" || fail "info of a compressed clip: no max_error"
expect 0 "import --lossless" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/exact" --lossless
"$rune" info "$work/exact/tiny.rune" | grep -q '"compressed": false' || fail "--lossless compressed"
expect 0 "import --precision --shell" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/exact" --force \
  --precision 0.5 --shell 2
"$rune" info "$work/exact/tiny.rune" | grep -q '"precision": 0.5' || fail "--precision not used"
expect 2 "import --precision junk" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/exact" --precision x
grep -q "not a positive number" "$work/err" || fail "--precision junk: message"
expect 2 "import --shell negative" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/exact" --shell -1
"$rune" import "$here/fixtures/tiny.bvh" -o "$work/exact" --force --precision 1e-20 >/dev/null 2>"$work/err" ||
  fail "a precision too fine failed the import"
grep -q "kept exact keys" "$work/err" || fail "a precision too fine: no warning"

# an asset with nothing rune can play: exit 2 unless --allow-empty
expect 2 "import of a still asset" -- "$rune" import "$here/fixtures/still.gltf" -o "$work/out_dir"
grep -q "no animation" "$work/err" || fail "import of a still asset: no \"no animation\" message"
[ ! -e "$work/out_dir/still.rune" ] || fail "a still asset was written without --allow-empty"
expect 0 "import --allow-empty" -- "$rune" import "$here/fixtures/still.gltf" -o "$work/out_dir" --allow-empty

# import --retarget-to: the clips onto another asset's rig (a taller copy
# of tiny.bvh: every joint mapped by name, the hips' travel doubled)
"$rune" import "$here/fixtures/tiny_tall.bvh" -o "$work/tall" >/dev/null || fail "import of tiny_tall.bvh failed"
"$rune" import "$here/fixtures/tiny.bvh" -o "$work/onto" --retarget-to "$work/tall/tiny_tall.rune" >"$work/out" \
  2>"$work/err" || fail "import --retarget-to failed: $(cat "$work/err")"
grep -q "3 of 3 joints mapped" "$work/err" || fail "import --retarget-to: no mapping report: $(cat "$work/err")"
grep -q "hips travel x 2" "$work/err" || fail "import --retarget-to: travel not doubled: $(cat "$work/err")"
expect 0 "info of a retargeted import" -- "$rune" info "$work/onto/tiny.rune"
expect 2 "import --retarget-to --json" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/onto" --json \
  --retarget-to "$work/tall/tiny_tall.rune"
expect 2 "import --retarget-to a scenario" -- "$rune" import "$here/fixtures/tiny.bvh" -o "$work/onto2" \
  --retarget-to "$scn"

# import --retarget-to between humanoids (CMU mocap onto the Xbot's
# skeleton, tests/fixtures/rigs): one summary line; --verbose lists every
# joint; --map overrides an entry (and a bad map names file and key);
# --no-foot-ik; clip ids after the file, or --clip-prefix'd; eval plays a
# .rune directly
if [ -f /usr/share/assimp/models/BVH/01_01.bvh ]; then
  cmu=/usr/share/assimp/models/BVH/01_01.bvh
  "$rune" import "$here/fixtures/rigs/xbot_skeleton.gltf" -o "$work/xbot" --allow-empty --quiet >/dev/null \
    || fail "import of the xbot skeleton failed"
  expect 0 "import onto a humanoid" -- "$rune" import "$cmu" -o "$work/h" --retarget-to "$work/xbot/xbot_skeleton.rune"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "import onto a humanoid: expected one line, got: $(cat "$work/err")"
  grep -q "humanoid, mapped 21 of the profile's 21 bones" "$work/err" \
    || fail "import onto a humanoid: no summary: $(cat "$work/err")"
  grep -q "foot IK on" "$work/err" || fail "import onto a humanoid: foot IK not on"
  expect 0 "eval of a .rune" -- "$rune" eval "$work/h/01_01.rune" --frames 0:1 --joints Armature/mixamorig:Hips
  grep -q '"Armature/mixamorig:Hips"' "$work/out" || fail "eval of a .rune: no hips"
  expect 0 "eval of a .rune, --clip" -- "$rune" eval "$work/h/01_01.rune" --clip 01_01 --frames 0:1
  expect 2 "eval of a .rune, unknown --clip" -- "$rune" eval "$work/h/01_01.rune" --clip Motion
  grep -q 'the clips are "01_01"' "$work/err" || fail "eval --clip: the clips not listed: $(cat "$work/err")"
  expect 0 "import onto a humanoid --verbose" -- "$rune" import "$cmu" -o "$work/h" --force --verbose \
    --retarget-to "$work/xbot/xbot_skeleton.rune"
  grep -q "mixamorig:LeftArm .*<- Spine1/LeftShoulder\|mixamorig:LeftArm .*<- LeftShoulder/LeftArm" "$work/err" \
    || fail "--verbose: no LeftArm line: $(cat "$work/err")"
  grep -q "left_upper_arm" "$work/err" || fail "--verbose: no profile bone names"
  printf '{"RightArm": "mixamorig:LeftArm", "LeftArm": null}\n' >"$work/map.json"
  expect 0 "import --map" -- "$rune" import "$cmu" -o "$work/h" --force --verbose --no-foot-ik \
    --retarget-to "$work/xbot/xbot_skeleton.rune" --map "$work/map.json"
  grep -q "mixamorig:LeftArm .*<- RightShoulder/RightArm *map" "$work/err" || fail "--map: not applied: $(cat "$work/err")"
  grep -q "foot IK off" "$work/err" || fail "--no-foot-ik: foot IK still on"
  printf '{"Nope": "mixamorig:LeftArm"}\n' >"$work/bad_map.json"
  expect 2 "import --map naming no joint" -- "$rune" import "$cmu" -o "$work/h2" \
    --retarget-to "$work/xbot/xbot_skeleton.rune" --map "$work/bad_map.json"
  grep -q 'bad_map.json: map\[0\]: no joint "Nope"' "$work/err" || fail "bad --map: message: $(cat "$work/err")"
  [ ! -e "$work/h2" ] || [ -z "$(ls "$work/h2")" ] || fail "bad --map: output written"
  printf '[1]\n' >"$work/bad_map.json"
  expect 2 "import --map not an object" -- "$rune" import "$cmu" -o "$work/h2" \
    --retarget-to "$work/xbot/xbot_skeleton.rune" --map "$work/bad_map.json"
  expect 2 "--map without --retarget-to" -- "$rune" import "$cmu" -o "$work/h2" --map "$work/map.json"
  expect 0 "import --clip-prefix" -- "$rune" import "$cmu" -o "$work/p" --clip-prefix walk/
  expect 0 "info of a prefixed import" -- "$rune" info "$work/p/01_01.rune"
  grep -q '"walk/01_01"' "$work/out" || fail "--clip-prefix: id not prefixed: $(head -c 300 "$work/out")"
fi

# export: glTF and BVH; refusals are one line, exit 2 (4 for a place that
# cannot be written), and leave no file behind
"$rune" import "$here/fixtures/tiny.bvh" -o "$work/ex" --quiet >/dev/null || fail "import of tiny.bvh failed"
expect 0 "export .glb" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/tiny.glb"
head -c 4 "$work/ex/tiny.glb" | grep -q glTF || fail "export .glb: no glTF magic"
expect 0 "export .gltf" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/tiny.gltf"
grep -q '"version":"2.0"' "$work/ex/tiny.gltf" || fail "export .gltf: no glTF 2.0 asset"
expect 0 "export .bvh" -- "$rune" export "$here/fixtures/tiny.bvh" -o "$work/ex/tiny.bvh"
head -1 "$work/ex/tiny.bvh" | grep -q HIERARCHY || fail "export .bvh: no HIERARCHY"
expect 2 "export over an existing file" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/tiny.glb"
expect 0 "export --force" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/tiny.glb" --force
expect 2 "export to an unknown format" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/tiny.fbx"
grep -q ".glb, .gltf or .bvh" "$work/err" || fail "export to an unknown format: message"
expect 2 "export of an unknown clip" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/nope.glb" --clip Nope
grep -q 'no clip "Nope" (the clips are "tiny")' "$work/err" || fail "export --clip: clips not listed: $(cat "$work/err")"
[ ! -e "$work/ex/nope.glb" ] || fail "export of an unknown clip left a file"
expect 2 "export --fps 0" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/fps.glb" --fps 0
expect 4 "export into a missing directory" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/none/tiny.glb"
mkdir -p "$work/ex/dir.glb"
expect 2 "export onto a directory" -- "$rune" export "$work/ex/tiny.rune" -o "$work/ex/dir.glb" --force
expect 2 "export over its input" -- "$rune" export "$work/ex/tiny.glb" -o "$work/ex/tiny.glb" --force
# two clips, one BVH: refused, naming them
printf '{"assets": ["tiny.rune"], "clips": [{"id": "again", "keyframes": [{"time": 0, "poses": [{"part": "Hips"}]}]}]}\n' \
  >"$work/ex/two.json"
expect 2 "export of two clips to BVH" -- "$rune" export "$work/ex/two.json" -o "$work/ex/two.bvh"
grep -q "BVH holds one clip" "$work/err" || fail "export of two clips to BVH: message: $(cat "$work/err")"
[ ! -e "$work/ex/two.bvh" ] || fail "a refused BVH export left a file"

# info: a .rune, a scenario, stdin; bad input is one line, exit 2
expect 0 "info of a .rune" -- "$rune" info "$work/out_dir/tiny.rune"
grep -q '"kind": "rune"' "$work/out" || fail "info of a .rune: kind"
expect 0 "info of a scenario" -- "$rune" info "$scn"
grep -q '"kind": "scenario"' "$work/out" || fail "info of a scenario: kind"
expect 0 "info -" -- sh -c "'$rune' info - <'$work/out_dir/tiny.rune'"
head -c 100 "$work/out_dir/tiny.rune" >"$work/cut.rune"
expect 2 "info of a truncated .rune" -- "$rune" info "$work/cut.rune"
grep -q "truncated" "$work/err" || fail "info of a truncated .rune: message"
cp "$scn" "$work/sheet.png"
expect 2 "render over its input" -- "$rune" render "$work/sheet.png" -o "$work/sheet.png" --force
cmp -s "$scn" "$work/sheet.png" || fail "the input was replaced"
expect 2 "render to an unknown format" -- "$rune" render "$scn" -o "$work/sheet.jpg"
[ ! -e "$work/sheet.jpg" ] || fail "an unknown format was written"
long="$work/$(printf 'd%.0s' $(seq 1 250))/$(printf 'e%.0s' $(seq 1 250))/$(printf 'f%.0s' $(seq 1 250))"
long="$long/$long/$long/$long/$long/$long/$long"
expect 2 "render to a path too long" -- "$rune" render "$scn" -o "$long.png"
ls "$work"/.*.png.* >/dev/null 2>&1 && fail "a temporary file was left behind"

if [ "$failures" -ne 0 ]; then
  echo "cli_check: $failures failure(s)" >&2
  exit 1
fi
echo "cli_check: all passed"
