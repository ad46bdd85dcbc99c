#!/usr/bin/env python3
"""Skinned meshes of the formats three.js cannot load, from Debian's
assimp-testmodels (IQM, X, FBX): each imported with its meshes, played
with `rune eval --vertices`, under linear and dual-quaternion skinning;
every vertex finite, each mesh's box at every frame within a factor of 4
of its box in the first frame (a mesh skinned through wrong matrices
collapses or flies apart), and the two methods close (within 10 % of the
mesh's size: they differ only where joints twist). Skipped (exit 0 with a
note) where the models are absent.
    usage: skin_formats.py RUNE WORKDIR"""
import json
import math
import os
import subprocess
import sys

MODELS = "/usr/share/assimp/models"
FILES = ["IQM/mrfixit.iqm", "X/BCN_Epileptic.X", "FBX/spider.fbx", "glTF2/simple_skin/simple_skin.gltf"]


def box(vs):
    return [max(v[c] for v in vs) - min(v[c] for v in vs) for c in range(3)]


def frames(rune, path, method):
    out = subprocess.run([rune, "eval", path, "--vertices", "7", "--skinning", method, "--quiet"],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit("skin_formats: %s: rune eval failed: %s" % (path, out.stderr.strip()))
    return json.loads(out.stdout)["frames"]


def main(rune, work):
    failures, tried = 0, 0
    for f in FILES:
        path = os.path.join(MODELS, f)
        if not os.path.exists(path):
            continue
        tried += 1
        lbs, dqs = frames(rune, path, "lbs"), frames(rune, path, "dqs")
        first = None
        worst_gap = 0.0
        for fl, fd in zip(lbs, dqs):
            for name, vs in fl["meshes"].items():
                if not all(math.isfinite(c) for v in vs for c in v):
                    print("skin_formats: %s: mesh %s: a vertex not finite at frame %d" % (f, name, fl["frame"]))
                    failures += 1
                    continue
                b = box(vs)
                first = first or {}
                first.setdefault(name, b)
                size = max(first[name]) or 1.0
                if max(b) > 4 * size or max(b) < size / 4:
                    print("skin_formats: %s: mesh %s: box %s at frame %d, %s at the first" % (f, name, b, fl["frame"],
                                                                                           first[name]))
                    failures += 1
                gap = max(abs(a[c] - d[c]) for a, d in zip(vs, fd["meshes"][name]) for c in range(3)) / size
                worst_gap = max(worst_gap, gap)
        if worst_gap > 0.2:
            print("skin_formats: %s: linear and dual quaternions differ by %.3g of the mesh" % (f, worst_gap))
            failures += 1
        print("skin_formats: %s: %d frames, %d meshes, lbs/dqs gap %.2g" % (f, len(lbs), len(lbs[0]["meshes"]),
                                                                             worst_gap))
    if not tried:
        print("skin_formats: no assimp-testmodels here; nothing checked")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(*sys.argv[1:])
