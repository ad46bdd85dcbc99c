#!/usr/bin/env python3
"""`rune export` against the players others use: IN's clip evaluated by rune
(`rune eval --model`, root motion left in the pose), then exported; the
export's joints played by three.js r187 (GLTFLoader or BVHLoader with an
AnimationMixer: tests/reference/three_joints.mjs) and, for glTF, by rune
again (`rune import` of the export, evaluated the same way): every joint's
world position within 1e-4 of the rig's height at every checked time; and
for glTF by Blender 3.4's importer (tests/reference/blender_joints.py) at
whole frames of 24 fps, within 1e-3. Skips three.js or Blender (a note)
where node and tests/reference/node_modules, or blender, are missing; exit
77 when nothing could be checked.
    usage: export_check.py RUNE IN CLIP OUT.glb|.gltf|.bvh WORKDIR [ONTO]
IN not a .rune is imported first (compressed, as `rune import` does);
with ONTO (a character: a .rune or a file rune import reads) IN's clip is
retargeted onto it (`rune import --retarget-to`) and that is exported."""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FRAMES = [0, 3, 4, 7, 13, 14, 29, 59, 61, 149, 150, 301]
BLENDER_FRAMES = [4, 14, 29, 59, 149]  # times (f + 1) / 30 that are whole frames at 24 fps


def run(*args, env=None):
    out = subprocess.run(list(args), capture_output=True, text=True, env=env)
    if out.returncode:
        sys.exit("export_check: %s failed: %s" % (" ".join(args[:3]), out.stderr.strip()))
    return out.stdout


def sanitize(name):  # three.js's PropertyBinding.sanitizeNodeName
    return re.sub(r"[\[\]\.:/]", "", re.sub(r"\s", "_", name))


def bvh_name(name):  # rune export's BVH joint names
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def clip_frames(rune, asset, clip):
    """FRAMES within the clip's length (past it, players differ: three.js's
    mixer loops a clip by default, rune holds a clip that does not)."""
    info = json.loads(run(rune, "info", asset))
    length = next(c["duration"] for c in info["clips"] if c["id"] == clip)
    return [f for f in FRAMES if (f + 1) / 30.0 <= length + 1e-6] or [0]


def rune_positions(rune, asset, clip, work, tag):
    """Model positions of every joint at the clip's frames (times (f + 1) /
    30), root motion kept: a scenario playing the clip on the asset."""
    frames_wanted = clip_frames(rune, asset, clip)
    scenario = {"assets": [os.path.abspath(asset)], "root_motion": False, "dt": 1.0 / 30.0,
                "frames": max(frames_wanted) + 1, "commands": [{"frame": 0, "play": clip, "fade": 0}]}
    path = os.path.join(work, tag + ".json")
    json.dump(scenario, open(path, "w"))
    frames = json.loads(run(rune, "eval", path, "--model", "--quiet"))["frames"]
    out = {}
    for f in frames:
        if f["frame"] in frames_wanted:
            for key, j in f["pose"].items():
                out.setdefault(key.split("/")[-1], []).append(j["m"])
    times = [f["time"] for f in frames if f["frame"] in frames_wanted]
    return out, times


def compare(what, want, got, height, rename=lambda n: n, may_drop=0, limit=1e-4):
    worst, missing = 0.0, 0
    for name, ps in want.items():
        other = got.get(rename(name), got.get(name))  # GLTFLoader sanitizes node names, BVHLoader does not
        if other is None:
            missing += 1
            continue
        for a, b in zip(ps, other):
            worst = max(worst, max(abs(a[c] - b[c]) for c in range(3)) / height)
    ok = worst <= limit and missing <= may_drop
    print("export_check: %s: %d joints, worst %.2g of the rig's height%s%s" %
          (what, len(want), worst, ", %d joints missing" % missing if missing else "", "" if ok else "  FAIL"))
    return ok


def as_rune(rune, path, work, extra=()):
    if path.endswith(".rune") and not extra:
        return path
    run(rune, "import", path, "-o", work, "--force", "--quiet", *extra)
    return os.path.join(work, os.path.splitext(os.path.basename(path))[0] + ".rune")


def main(rune, asset, clip, out, work, onto=None):
    os.makedirs(work, exist_ok=True)
    if onto:
        onto = as_rune(rune, onto, os.path.join(work, "onto"), ("--allow-empty",))
    asset = as_rune(rune, asset, os.path.join(work, "in"), ("--retarget-to", onto) if onto else ())
    want, times = rune_positions(rune, asset, clip, work, "source")
    height = max(max(abs(p[c]) for ps in want.values() for p in ps for c in range(3)), 1e-9)
    exported = os.path.join(work, os.path.basename(out))
    run(rune, "export", asset, "-o", exported, "--clip", clip, "--force", "--quiet")
    ok, checked = True, 0
    if True:  # rune reads its own export back
        back = os.path.join(work, "back")
        run(rune, "import", exported, "-o", back, "--lossless", "--force", "--quiet")
        stem = os.path.splitext(os.path.basename(exported))[0]
        # a BVH holds one clip, which rune's import names after the file
        back_clip = stem if exported.endswith(".bvh") else clip
        got, _ = rune_positions(rune, os.path.join(back, stem + ".rune"), back_clip, work, "back")
        # (rune's import folds nodes above the skeleton that neither skin
        # nor move into its root: a still wrapper joint comes back folded)
        ok &= compare("rune import of " + os.path.basename(out), want, got, height,
                      bvh_name if exported.endswith(".bvh") else (lambda n: n), may_drop=1)
        checked += 1
    script = os.path.join(HERE, "reference", "three_joints.mjs")
    if shutil.which("node") and os.path.isdir(os.path.join(HERE, "reference", "node_modules", "three")):
        got = json.loads(run("node", script, exported, clip, ",".join("%.9g" % t for t in times)))["joints"]
        ok &= compare("three.js r187 on " + os.path.basename(out), want, got, height,
                      bvh_name if exported.endswith(".bvh") else sanitize)
        checked += 1
    else:
        print("export_check: no node or three.js here (npm install in tests/reference): three.js not checked")
    blender_times = [i for i, t in enumerate(times) if abs(t * 24 - round(t * 24)) < 1e-3]
    if exported.endswith(".bvh") or not blender_times:
        pass
    elif shutil.which("blender"):
        json_out = os.path.join(work, "blender.json")
        # Blender's Python takes its prefix from the python3 first on PATH:
        # the system's, not a virtual environment's (whose has no numpy)
        env = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
        run("blender", "-b", "--factory-startup", "--python-exit-code", "1", "--python",
            os.path.join(HERE, "reference", "blender_joints.py"), "--", exported, clip,
            ",".join("%.9g" % times[i] for i in blender_times), json_out, env=env)
        got = json.load(open(json_out))["joints"]
        at = {name: [ps[i] for i in blender_times] for name, ps in want.items()}
        ok &= compare("Blender 3.4 on " + os.path.basename(out), at, got, height, limit=1e-3)
        checked += 1
    else:
        print("export_check: no blender here: Blender not checked")
    if not checked:
        sys.exit(77)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(*sys.argv[1:])
