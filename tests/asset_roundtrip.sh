#!/usr/bin/env bash
# Equivalence of the two import paths on real assets (Debian's
# assimp-testmodels): `rune import --lossless` to a .rune asset, played by
# a scenario that names it in "assets" (rig omitted), evaluates to the same
# bytes as `rune import --json`, the scenario with the rig and clips
# written out (float curves too: AnimatedMorphCube's morph weights). Also: `rune info` of the .rune agrees with the import's
# joint and clip counts; the default (compressed) import plays the same
# timeline and `rune info` says which clips it compressed.
#   usage: asset_roundtrip.sh RUNE WORKDIR
set -uo pipefail
rune=$1 work=$2
models=/usr/share/assimp/models
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "asset_roundtrip: $*" >&2; failures=$((failures + 1)); }

assets=(BVH/01_01.bvh FBX/huesitos.fbx FBX/animation_with_skeleton.fbx glTF2/simple_skin/simple_skin.gltf
        Collada/anims_with_full_rotations_between_keys.DAE X/anim_test.x X/Testwuson.X ASE/MotionCaptureROM.ase
        SMD/WusonSMD.smd glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf)
tried=0
for a in "${assets[@]}"; do
  src="$models/$a"
  [ -f "$src" ] || continue
  tried=$((tried + 1))
  stem=$(basename "${a%.*}")
  dir="$work/$stem"
  mkdir -p "$dir"
  "$rune" import "$src" -o "$dir/packed" --quiet >/dev/null || { fail "$a: compressed import failed"; continue; }
  "$rune" import "$src" -o "$dir" --quiet --lossless >/dev/null || { fail "$a: import to .rune failed"; continue; }
  "$rune" import "$src" -o "$dir" --quiet --json >/dev/null || { fail "$a: import --json failed"; continue; }
  # the timeline of the JSON scenario, played on the asset instead (whose
  # root-motion joint stands in for the JSON's "root_joint")
  { echo "{\"assets\": [\"$stem.rune\"],"
    grep -E '^ "(dt|commands)' "$dir/$stem.json"; } >"$dir/from_asset.json"
  "$rune" eval "$dir/$stem.json" >"$dir/json.out" || { fail "$a: eval of the JSON scenario failed"; continue; }
  "$rune" eval "$dir/from_asset.json" >"$dir/asset.out" || { fail "$a: eval of the asset scenario failed"; continue; }
  cmp -s "$dir/json.out" "$dir/asset.out" || fail "$a: the .rune and the JSON evaluate differently"
  sed "s|\"$stem.rune\"|\"packed/$stem.rune\"|" "$dir/from_asset.json" >"$dir/from_packed.json"
  "$rune" eval "$dir/from_packed.json" >"$dir/packed.out" || fail "$a: eval of the compressed asset failed"
  "$rune" info "$dir/packed/$stem.rune" | grep -q '"compressed": true' ||
    echo "asset_roundtrip: $a: no clip compressed (rune info says why not at import)"
  "$rune" info "$dir/$stem.rune" >"$dir/info.out" || fail "$a: info failed"
  "$rune" info "$dir/$stem.json" >"$dir/info_json.out" || fail "$a: info of the JSON failed"
  # joints, root, clips, keys and bytes: the same summary but for the file
  # and the meshes (a scenario holds none)
  python3 -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    for k in ("file", "kind", "file_bytes", "meshes"):
        d.pop(k, None)
sys.exit(a != b)' "$dir/info.out" "$dir/info_json.out" ||
    fail "$a: rune info differs between the .rune and the JSON"
done
[ "$tried" -gt 0 ] || echo "asset_roundtrip: no assimp-testmodels here; nothing checked"
if [ "$failures" -ne 0 ]; then
  echo "asset_roundtrip: $failures failure(s)" >&2
  exit 1
fi
echo "asset_roundtrip: $tried assets, all equal"
