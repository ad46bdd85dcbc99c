#!/usr/bin/env python3
"""The public API as a contract (docs/architecture.md, "Headers: contract, internals, private ABI"):

1. every function include/rune/ declares (RUNE_API) has a comment of its
   own right above it (what it does, its preconditions, who owns what);
2. at most MAX_PUBLIC functions are public across the four libraries;
3. no frame-path plumbing is public: no prefetch stages, memos or
   kernel chunks in include/.

   tests/api_check.py SOURCE_DIR
Prints what is wrong and exits 1; prints the counts and exits 0 otherwise.
"""
import glob
import os
import re
import sys

MAX_PUBLIC = 180
PLUMBING = re.compile(r"prefetch|PREFETCH|_memo\b|rune_root_memo|rune_sample_chunk|rune_animator|_passes\b|_seeks\b")


def main(root):
    problems, count = [], 0
    for path in sorted(glob.glob(os.path.join(root, "include", "rune", "*.h"))):
        rel = os.path.relpath(path, root)
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            if PLUMBING.search(line) and not line.lstrip().startswith(("*", "/*")):
                problems.append(f"{rel}:{i + 1}: frame-path plumbing in the public API: {line.strip()}")
            if not line.startswith("RUNE_API"):
                continue
            count += 1
            name = re.search(r"\b(rune_\w+)\s*\(", line)
            if not lines[i - 1].rstrip().endswith("*/"):
                problems.append(f"{rel}:{i + 1}: {name.group(1) if name else line}: no comment of its own above it")
    if count > MAX_PUBLIC:
        problems.append(f"include/rune: {count} public functions, more than {MAX_PUBLIC}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"api_check: {count} public functions (at most {MAX_PUBLIC}), each documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
