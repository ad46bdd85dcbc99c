#!/usr/bin/env python3
"""Writes scenario seeds of thousands of names into DIR (each under the
64 KiB fuzz/run.sh allows): a keyframe of curves, a wide rig with a
mask over it, and a retarget by name between two such rigs, so that the
fuzzers mutate the name lookups at size."""
import json
import sys

out = sys.argv[1]


def write(name, doc):
    text = json.dumps(doc, separators=(",", ":"))
    assert len(text) < 65536, name
    with open(f"{out}/{name}.json", "w") as f:
        f.write(text)


def rig(n):
    joints = [{"part": "J0"}]
    joints += [{"part": f"J{i}", "parent": f"J{(i - 1) // 2}"} for i in range(1, n)]
    return joints


write("large_curves", {"rig": {"joints": [{"part": "Root"}]}, "frames": 2, "commands": [{"frame": 0, "play": "c"}],
                       "clips": [{"id": "c", "keyframes": [{"time": 0, "curves": {f"c{k}": 0.5 for k in range(3500)}}]}]})
write("large_rig", {"rig": {"joints": rig(2000)}, "frames": 2, "commands": [{"frame": 0, "graph": "g"}],
                    "clips": [{"id": "c", "keyframes": [{"time": 0, "poses": [{"part": "J0", "t": [0, 1, 0]}]}]}],
                    "graphs": [{"id": "g", "layers": [{"mask": [{"joint": "J1", "propagate": True}],
                                                       "states": [{"name": "A", "motion": "c"}]}]}]})
write("large_retarget", {"rig": {"joints": rig(1000)}, "source_rigs": [{"id": "s", "joints": rig(1000)}],
                         "frames": 2, "commands": [{"frame": 0, "play": "c"}],
                         "clips": [{"id": "c", "rig": "s", "keyframes": [{"time": 0, "poses": [{"part": "J3", "r": [0, 0.6, 0, 0.8]}]}]}]})
