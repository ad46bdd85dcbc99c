#!/usr/bin/env python3
"""The layout of docs/architecture.md, checked on the tree:

1. every header a file of src/STAGE or include/rune includes belongs to
   STAGE or a stage below it (the order of STAGES), so the runtime
   folders never include an offline one;
2. each folder of src/ builds into the one library architecture.md says
   (the rune_objects lists of CMakeLists.txt), and every .c of src/ is
   built;
3. no two files call each other, through any chain of calls (the files of
   src/, tools/ and bench/, by the functions each defines and calls).

   tests/layout_check.py SOURCE_DIR
Prints what is wrong and exits 1; prints a summary and exits 0 otherwise.
"""
import os
import re
import sys

# Stages, lowest first, and the library each one's folder builds into.
STAGES = [
    ("base", "rune_core"), ("math", "rune_core"), ("clip", "rune_core"), ("ik", "rune_core"),
    ("rig", "rune_core"), ("skin", "rune_core"), ("play", "rune_core"), ("mix", "rune_core"), ("blend", "rune_core"),
    ("graph", "rune_core"), ("root", "rune_core"), ("character", "rune_core"), ("asset", "rune_core"),
    ("compress", "rune_compress"), ("scenario", "rune_io"), ("import", "rune_import"),
]
RANK = {name: i for i, (name, _) in enumerate(STAGES)}
# Public headers and the stage that owns each (rune.h gathers the runtime).
HEADER_STAGE = {
    "export": "base", "base": "base", "math": "math", "clip": "clip", "rig": "rig", "skin": "skin", "ik": "ik", "play": "play",
    "mix": "mix", "blend": "blend", "graph": "graph", "root": "root", "character": "character", "asset": "asset",
    "rune": "asset", "compress": "compress", "io": "scenario", "import": "import",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def included_stage(path, target):
    """The stage a quoted include of `path` names, or None (system, local
    to tools, generated)."""
    m = re.match(r"rune/(\w+)\.h$", target)
    if m:
        return HEADER_STAGE.get(m.group(1), "?" + m.group(1))
    full = os.path.normpath(os.path.join(os.path.dirname(path), target))
    parts = full.split(os.sep)
    if "src" in parts:
        i = parts.index("src")
        return parts[i + 1] if i + 1 < len(parts) - 1 else None
    return None


def check_includes(root, problems):
    count = 0
    for base in ("src", os.path.join("include", "rune")):
        for dirpath, _, files in os.walk(os.path.join(root, base)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                if base == "src":
                    stage = rel.split(os.sep)[1]
                else:
                    stage = HEADER_STAGE.get(f[:-2])
                if stage not in RANK:
                    problems.append(f"{rel}: its folder is not a stage of docs/architecture.md")
                    continue
                for target in INCLUDE.findall(open(path, encoding="utf-8").read()):
                    other = included_stage(path, target)
                    count += 1
                    if other is None:
                        continue
                    if other not in RANK:
                        problems.append(f"{rel}: includes {target}, which is no stage's")
                    elif RANK[other] > RANK[stage]:
                        problems.append(f"{rel}: includes {target} of stage '{other}', above '{stage}'")
    return count


def check_libraries(root, problems):
    cmake = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
    built = {}
    for m in re.finditer(r"rune_objects\((\w+)_objects\s+([^)]*)\)", cmake):
        for src in m.group(2).split():
            built[src] = m.group(1)
    want = dict(STAGES)
    for src, lib in sorted(built.items()):
        parts = src.split("/")
        if parts[0] == "src" and want.get(parts[1]) != lib:
            problems.append(f"CMakeLists.txt: {src} is built into {lib}, its folder belongs to {want.get(parts[1])}")
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if f.endswith(".c") and rel not in built and not re.search(r"_kernel\.c$", f):
                problems.append(f"{rel}: built into no library")
    return len(built)


def check_cycles(root, problems):
    files = {}
    for top in ("src", "tools", "bench"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for f in names:
                if f.endswith(".c"):
                    path = os.path.join(dirpath, f)
                    files[os.path.relpath(path, root)] = strip_comments(open(path, encoding="utf-8").read())
    defined = {}
    define = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
    for rel, text in files.items():
        for m in define.finditer(text):
            defined.setdefault(m.group(1), rel)
    calls = {rel: set() for rel in files}
    word = re.compile(r"\b(\w+)\s*\(")
    for rel, text in files.items():
        for name in set(word.findall(text)):
            other = defined.get(name)
            if other and other != rel:
                calls[rel].add(other)
    # strongly connected components (Tarjan, iterative)
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(files):
        if start in index:
            continue
        work = [(start, iter(sorted(calls[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(calls[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    for comp in out:
        problems.append("files that call each other in a circle: " + ", ".join(comp))
    return len(files)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems = []
    includes = check_includes(root, problems)
    sources = check_libraries(root, problems)
    files = check_cycles(root, problems)
    for p in problems:
        print("layout_check: " + p, file=sys.stderr)
    if problems:
        return 1
    print(f"layout_check: {includes} includes point down the stages, {sources} sources in their folder's "
          f"library, {files} files without a circle of calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
