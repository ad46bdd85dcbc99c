#!/usr/bin/env python3
"""Skinned vertices against three.js r187's (tests/reference/*.json, made by
tests/reference/three_skin.mjs from the same file): the file imported
with `rune import --lossless` (its meshes into the .rune), played by a
scenario on that asset with root motion left in the pose (three.js moves
the hips where the clip says), evaluated with `rune eval --vertices N` at
the reference's times; mesh by mesh in order, every vertex within 2e-4 of
the mesh's extent (the largest side of the box around the reference's
vertices over all times).
With --via-export the file goes through `rune export` to a .glb first, and
rune's import of that .glb is what is checked; three.js r187 (where
tests/reference/node_modules has it) then reads the exported .glb too and
must place every vertex as it did on the original file.
    usage: skin_check.py RUNE REFERENCE.json FILE [WORKDIR] [--via-export]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def run(*args):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if out.returncode:
        sys.exit("skin_check: %s failed: %s" % (" ".join(args[:2]), out.stderr.strip()))
    return out.stdout


HERE = os.path.dirname(os.path.abspath(__file__))


def compare_meshes(who, ref, frames_by_time):
    """Every vertex of each mesh (a list of per-time vertex lists, in the
    reference's order) against the reference's; the worst distance."""
    worst, failures = 0.0, 0
    for ti, t in enumerate(ref["times"]):
        got = frames_by_time(ti, t)
        if len(got) != len(ref["meshes"]):
            sys.exit("skin_check: %s has %d meshes, three.js %d" % (who, len(got), len(ref["meshes"])))
        for (name, verts), want in zip(got, ref["meshes"]):
            pts = [p for fr in want["frames"] for p in fr]
            extent = max(max(p[c] for p in pts) - min(p[c] for p in pts) for c in range(3))
            wv = want["frames"][ti]
            if len(verts) != len(wv):
                sys.exit("skin_check: mesh %s: %d vertices from %s, three.js %d" % (name, len(verts), who, len(wv)))
            for k, (a, b) in enumerate(zip(verts, wv)):
                d = max(abs(a[c] - b[c]) for c in range(3)) / extent
                worst = max(worst, d)
                if d > 2e-4:
                    failures += 1
                    if failures <= 5:
                        print("skin_check: mesh %s, t %g, vertex %d: %s %s, three.js %s" %
                              (name, t, k * ref["every"], who, a, b))
    print("skin_check: %s on %s: %d times, worst %.2g of the extent (limit 2e-4)" %
          (who, ref["file"], len(ref["times"]), worst))
    return failures == 0


def three_on(exported, ref):
    """three.js r187 on the exported file, against the reference it made
    from the original; None where node or three.js is absent."""
    if not (shutil.which("node") and os.path.isdir(os.path.join(HERE, "reference", "node_modules", "three"))):
        print("skin_check: no node or three.js here (npm install in tests/reference): export not read by three.js")
        return None
    out = run("node", os.path.join(HERE, "reference", "three_skin.mjs"), exported, str(ref["every"]),
              ",".join("%.9g" % t for t in ref["times"]))
    meshes = json.loads(out)["meshes"]
    return compare_meshes("three.js on the export", ref,
                          lambda ti, t: [(m["name"], m["frames"][ti]) for m in meshes])


def main(rune, reference, asset, work=None, *flags):
    ref = json.load(open(reference))
    work = work or tempfile.mkdtemp(prefix="skin_check")
    os.makedirs(work, exist_ok=True)
    ok = True
    if "--via-export" in flags:
        exported = os.path.join(work, "exported.glb")
        run(rune, "export", asset, "-o", exported, "--force", "--quiet")
        ok = three_on(exported, ref) is not False
        asset = exported
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

    def rune_frame(ti, t):
        frame = next((f for f in frames if abs(f["time"] - t) < 1e-4), None)
        if frame is None:
            sys.exit("skin_check: rune eval has no frame at time %g" % t)
        return list(frame["meshes"].items())

    ok &= compare_meshes("rune", ref, rune_frame)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(*sys.argv[1:])
