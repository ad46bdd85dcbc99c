"""Where Blender 3.4's glTF importer puts a file's joints: the head of
every pose bone (joints of a skin) and the origin of every other node's
object (an empty), in glTF's axes (Blender's importer turns +Y up into +Z
up: glTF (x, y, z) is Blender (x, -z, y)), while the file's first
animation plays (the one the importer makes active; export one clip), at
the given times (whole frames at 24 fps). The check of `rune export`
(tests/export_check.py) compares them with rune's.
    usage: blender -b --factory-startup --python blender_joints.py -- FILE.glb CLIP T1,T2,... OUT.json
(CLIP is not used: the file's first animation plays.)"""
import json
import sys

import numpy

if "bool" not in numpy.__dict__:  # Debian's numpy dropped the alias the add-on still uses
    numpy.bool = bool

import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
path, times, out = args[0], [float(t) for t in args[2].split(",")], args[3]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 24, 1.0
joints = {}
for t in times:
    scene.frame_set(int(round(t * 24)))
    for o in scene.objects:
        if o.type == "ARMATURE":
            for pb in o.pose.bones:
                p = o.matrix_world @ pb.head
                joints.setdefault(pb.name, []).append([p.x, p.z, -p.y])
        elif o.type == "EMPTY":
            p = o.matrix_world.translation
            joints.setdefault(o.name, []).append([p.x, p.z, -p.y])
json.dump({"times": times, "joints": joints}, open(out, "w"))
