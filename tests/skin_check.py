#!/usr/bin/env python3
"""Skinned vertices against three.js r187's (tests/reference/*.json, made by
tests/reference/three_skin.mjs from the same file): the file imported
with `rune import --lossless` (its meshes into the .rune), played by a
scenario on that asset with root motion left in the pose (three.js moves
the hips where the clip says), evaluated with `rune eval --vertices N` at
the reference's times; mesh by mesh in order, every vertex within 2e-4 of
the mesh's extent (the largest side of the box around the reference's
vertices over all times).
    usage: skin_check.py RUNE REFERENCE.json FILE [WORKDIR]"""
import json
import os
import subprocess
import sys
import tempfile


def run(*args):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if out.returncode:
        sys.exit("skin_check: %s failed: %s" % (" ".join(args[:2]), out.stderr.strip()))
    return out.stdout


def main(rune, reference, asset, work=None):
    ref = json.load(open(reference))
    work = work or tempfile.mkdtemp(prefix="skin_check")
    os.makedirs(work, exist_ok=True)
    run(rune, "import", asset, "-o", work, "--lossless", "--force", "--quiet")
    stem = os.path.splitext(os.path.basename(asset))[0]
    info = json.loads(run(rune, "info", os.path.join(work, stem + ".rune")))
    frames_needed = int(max(ref["times"]) * 30) + 2
    scenario = {"assets": [stem + ".rune"], "root_motion": False, "dt": 1.0 / 30.0, "frames": frames_needed,
                "commands": [{"frame": 0, "play": info["clips"][0]["id"], "fade": 0}] if info["clips"] else []}
    path = os.path.join(work, stem + "_skin.json")
    json.dump(scenario, open(path, "w"))
    out = run(rune, "eval", path, "--vertices", str(ref["every"]), "--quiet")
    frames = json.loads(out)["frames"]
    worst = 0.0
    failures = 0
    for ti, t in enumerate(ref["times"]):
        frame = next((f for f in frames if abs(f["time"] - t) < 1e-4), None)
        if frame is None:
            sys.exit("skin_check: rune eval has no frame at time %g" % t)
        got = list(frame["meshes"].items())
        if len(got) != len(ref["meshes"]):
            sys.exit("skin_check: %d meshes, three.js has %d" % (len(got), len(ref["meshes"])))
        for (name, verts), want in zip(got, ref["meshes"]):
            pts = [p for fr in want["frames"] for p in fr]
            extent = max(max(p[c] for p in pts) - min(p[c] for p in pts) for c in range(3))
            wv = want["frames"][ti]
            if len(verts) != len(wv):
                sys.exit("skin_check: mesh %s: %d vertices printed, three.js %d" % (name, len(verts), len(wv)))
            for k, (a, b) in enumerate(zip(verts, wv)):
                d = max(abs(a[c] - b[c]) for c in range(3)) / extent
                worst = max(worst, d)
                if d > 2e-4:
                    failures += 1
                    if failures <= 5:
                        print("skin_check: mesh %s, t %g, vertex %d: rune %s, three.js %s" %
                              (name, t, k * ref["every"], a, b))
    print("skin_check: %s: %d times, worst %.2g of the extent (limit 2e-4)" % (ref["file"], len(ref["times"]), worst))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(*sys.argv[1:])
