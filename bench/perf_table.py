#!/usr/bin/env python3
"""Writes docs/performance.md's tables of figures from one run of
`rune bench --json`, each between its markers (bench-table: every row;
bench-levels: sample + blend at each kernel level; bench-growth: sample
+ mix by joints and clips):

    build/rune bench --json > run.json
    python3 bench/perf_table.py run.json docs/performance.md

Every figure of the table comes from that run: rune's median and fastest
batch, the naive reference and the machine's floor as ratios, and the
anchor (ozz-animation or ACL) measured in the same process with how many
of its results agreed with rune's; the ratio to the anchor is rune's at
the anchor's kernel level (AVX2 + FMA), with rune's best level beside it, and the bytes each side reads
where the row states them. The per-level and cost-growth rows
have tables of their own.
"""
import json
import sys

SKIP = ("sample3_blend_", "growth_")
LEVELS = ("scalar", "sse2", "avx2", "avx2fma", "avx512")


def fmt(v):
    if v is None:
        return ""
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def row_line(r):
    median, fastest = r["median"], r["min"]
    cells = [r["label"], f"{fmt(median)} {r['unit']} ({fmt(fastest)})"]
    naive, floor = r.get("naive"), r.get("floor")
    cells.append(f"{fmt(naive)} ({naive / median:.1f}x)" if naive else "")
    cells.append(f"{fmt(floor)} ({median / floor:.1f}x)" if floor else "")
    anchor = next((k for k in ("ozz", "acl") if r.get(k) is not None), None)
    if anchor:
        agree = r.get(f"{anchor}_agree")
        checked = r.get(f"{anchor}_checked")
        same = f"{agree:,} / {checked:,}" if checked else ""
        name = 'ozz' if anchor == 'ozz' else 'ACL'
        matched, isa = r.get("median_matched"), r.get("anchor_isa")
        if matched and isa:  # rune at the anchor's kernel level first, rune's best beside it
            cells.append(f"{name} {fmt(r[anchor])}: rune [{isa}] {fmt(matched)} (**{matched / r[anchor]:.2f}**), "
                         f"best {median / r[anchor]:.2f}")
        else:
            cells.append(f"{name} {fmt(r[anchor])} (**{median / r[anchor]:.2f}**)")
        mine, theirs = r.get("bytes"), r.get("anchor_bytes")
        if mine and theirs:  # the memory each side reads (crowds: holds a character)
            cells[-1] += f"; {fmt(theirs / 1000)} KB vs rune {fmt(mine / 1000)} KB"
        cells.append(same)
    else:
        cells += ["", ""]
    if r.get("allocations") is not None:
        cells[1] += f", {r['allocations']} allocations"
    return "| " + " | ".join(cells) + " |"


def table(run):
    b = run["rune_bench"]
    m = b["machine"]
    head = [
        f"rune {b['version']}, `rune bench --json` ({'quick' if b['quick'] else 'full'} run), kernels "
        f"{b['simd']}, {b['cores']} cores; machine floor, one core: {m['flops_per_ns']:.0f} flop/ns, loads "
        f"{m['l1_bytes_per_ns']:.0f} B/ns from L1, {m['l2_bytes_per_ns']:.0f} from L2, "
        f"{m['mem_bytes_per_ns']:.0f} from memory.",
        "",
        "| row | rune: median (fastest batch) | naive (rune's speed-up) | floor (rune / floor) | anchor, same run: "
        "rune at the anchor's kernel level (**rune / anchor**), rune's best level | same result |",
        "|---|---|---|---|---|---|",
    ]
    rows = [row_line(r) for r in b["rows"] if not r["id"].startswith(SKIP)]
    return "\n".join(head + rows)


def levels(run):
    rows = {r["id"]: r for r in run["rune_bench"]["rows"]}
    cells = [(lv, rows.get(f"sample3_blend_{lv}")) for lv in LEVELS]
    cells = [(lv, r) for lv, r in cells if r]
    if not cells:
        return "(no per-level rows in this run)"
    return "\n".join(["| " + " | ".join(lv for lv, _ in cells) + " |", "|" + "---|" * len(cells),
                      "| " + " | ".join(f"{fmt(r['median'])}" for _, r in cells) + " |"])


def growth(run):
    rows = {r["id"]: r for r in run["rune_bench"]["rows"]}
    out = ["| joints | 1 clip | 3 clips | 8 clips |", "|---|---|---|---|"]
    for j in (16, 64, 256):
        cells = []
        for c in (1, 3, 8):
            r = rows.get(f"growth_{j}j_{c}c")
            cells.append(f"{fmt(r['median'])} ({r['naive'] / r['median']:.1f}x)" if r and r.get("naive") else
                         (fmt(r["median"]) if r else ""))
        out.append(f"| {j} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def fill(doc, name, text):
    begin, end = f"<!-- bench-{name} begin -->", f"<!-- bench-{name} end -->"
    if begin not in doc or end not in doc:
        sys.exit(f"no {begin} ... {end} markers")
    before, rest = doc.split(begin, 1)
    _, after = rest.split(end, 1)
    return before + begin + "\n" + text + "\n" + end + after


def main(run_path, doc_path):
    run = json.load(open(run_path, encoding="utf-8"))
    doc = open(doc_path, encoding="utf-8").read()
    doc = fill(doc, "table", table(run))
    doc = fill(doc, "levels", levels(run))
    doc = fill(doc, "growth", growth(run))
    with open(doc_path, "w", encoding="utf-8") as f:
        f.write(doc)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench/perf_table.py RUN.json DOC.md")
    main(sys.argv[1], sys.argv[2])
