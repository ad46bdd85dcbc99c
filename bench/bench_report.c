/* The bench's report: rows as an aligned text table, or as one JSON
 * document (`rune bench --json`) whose keys stay stable for scripts. */
#include "bench.h"
#include "ozz_anchor.h"

#include <stdio.h>
#include <string.h>

bench_row bench_row_make(const char *id, const char *unit, double median, double min)
{
    bench_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.id, sizeof r.id, "%s", id);
    r.unit = unit;
    r.median = median;
    r.min = min;
    r.naive = r.floor = r.anchor.value = r.median_matched = r.bytes = r.anchor_bytes = -1;
    r.allocations = -1;
    return r;
}

rune_simd_level bench_anchor_level(const bench_plan *p)
{
    return rune_simd_best() >= RUNE_SIMD_AVX2_FMA ? RUNE_SIMD_AVX2_FMA : rune_simd_resolve(p->level);
}

void bench_row_matched(bench_row *row, const bench_plan *p, double matched)
{
    rune_simd_level level = bench_anchor_level(p);
    row->anchor_isa = rune_simd_name(level);
    row->median_matched = level == rune_simd_resolve(p->level) ? row->median : matched;
}

void bench_row_anchor(bench_row *row, const char *name, bench_anchor a)
{
    row->anchor_name = name;
    row->anchor = a;
    if (a.bytes > 0)
        row->anchor_bytes = a.bytes;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned)(unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void json_number(const char *key, double v)
{
    if (v < 0)
        printf(", \"%s\": null", key);
    else
        printf(", \"%s\": %.4g", key, v);
}

void bench_report_begin(bench_report *r, const char *simd, long cores, const bench_machine *m, bool quick)
{
    r->first = true;
    if (r->json) {
        printf("{\"rune_bench\": {\"version\": \"%s\", \"simd\": ", RUNE_VERSION_STRING);
        json_string(simd);
        printf(", \"cores\": %ld, \"cpu\": %d, \"quick\": %s,\n \"machine\": {\"flops_per_ns\": %.4g, \"l1_bytes_per_ns\": %.4g,"
               " \"l2_bytes_per_ns\": %.4g, \"mem_bytes_per_ns\": %.4g},\n \"rows\": [",
               cores, bench_pinned_cpu(), quick ? "true" : "false", m->flops_per_ns, m->l1_bytes_per_ns, m->l2_bytes_per_ns,
               m->mem_bytes_per_ns);
        return;
    }
    printf("rune bench%s: kernels %s, %ld cores; per frame at dt 1/60 s; median of timed batches on the thread's\n"
           "CPU clock (crowds with workers: wall clock); ratios are measured in this run\n",
           quick ? " --quick" : "", simd, cores);
    if (bench_pinned_cpu() >= 0)
        printf("caller pinned to CPU %d (--cpu)\n", bench_pinned_cpu());
    else
        printf("caller not pinned (on CPU %d at start; --cpu N pins it)\n", bench_current_cpu());
    printf("machine floor, one core: %.1f flop/ns (FMA, widest vectors); loads %.0f B/ns from L1, %.0f from L2, %.1f "
           "from memory\n",
           m->flops_per_ns, m->l1_bytes_per_ns, m->l2_bytes_per_ns, m->mem_bytes_per_ns);
    printf("columns: rune median (fastest batch) | naive reference: its time, rune's speed-up | floor: the machine's "
           "limit, rune / floor | ozz-animation, rune / ozz: %s\n",
           bench_ozz_name() ? bench_ozz_name() : "no checkout given (-DRUNE_OZZ_DIR)");
}

void bench_report_section(bench_report *r, const char *title)
{
    if (!r->json)
        printf("%s\n", title);
}

void bench_report_row(bench_report *r, const bench_row *row)
{
    if (r->json) {
        printf("%s\n  {\"id\": ", r->first ? "" : ",");
        json_string(row->id);
        printf(", \"label\": ");
        json_string(row->label);
        printf(", \"unit\": ");
        json_string(row->unit);
        json_number("median", row->median);
        json_number("min", row->min);
        json_number("naive", row->naive);
        json_number("floor", row->floor);
        const char *key = row->anchor_name && strcmp(row->anchor_name, "ACL") == 0 ? "acl" : "ozz";
        json_number(key, row->anchor.value);
        if (row->anchor_name && row->anchor.value < 0)
            printf(", \"%s_note\": \"not measured here\"", key);
        if (row->anchor.checked)
            printf(", \"%s_agree\": %zu, \"%s_checked\": %zu", key, row->anchor.agree, key, row->anchor.checked);
        if (row->anchor_name && row->anchor_isa) {
            printf(", \"anchor_isa\": ");
            json_string(row->anchor_isa);
            json_number("median_matched", row->median_matched);
        }
        if (row->anchor.checked)
            printf(", \"checked\": %zu", row->anchor.checked);
        if (row->bytes >= 0)
            json_number("bytes", row->bytes);
        if (row->anchor_bytes >= 0)
            json_number("anchor_bytes", row->anchor_bytes);
        if (row->allocations >= 0)
            printf(", \"allocations\": %lld", row->allocations);
        printf("}");
        r->first = false;
        return;
    }
    printf("  %-52s %8.2f (%7.2f) %-8s", row->label, row->median, row->min, row->unit);
    if (row->naive >= 0)
        printf(" | naive %8.2f %6.1fx", row->naive, row->naive / row->median);
    if (row->floor >= 0)
        printf(" | floor %6.2f %5.1fx", row->floor, row->median / row->floor);
    const char *anchor = row->anchor_name ? row->anchor_name : "ozz";
    if (row->anchor.value >= 0 && row->anchor_isa && row->median_matched >= 0)
        printf(" | %s %6.2f: rune [%s] %.3g %5.2fx, best %5.2fx", anchor, row->anchor.value, row->anchor_isa,
               row->median_matched, row->median_matched / row->anchor.value, row->median / row->anchor.value);
    else if (row->anchor.value >= 0)
        printf(" | %s %6.2f %5.2fx", anchor, row->anchor.value, row->median / row->anchor.value);
    else if (row->anchor_name)
        printf(" | %s: not measured here", anchor);
    if (row->anchor.checked)
        printf(" (same result %zu/%zu)", row->anchor.agree, row->anchor.checked);
    if (row->allocations >= 0)
        printf(" | %lld allocations", row->allocations);
    printf("\n");
    fflush(stdout);
}

void bench_report_end(bench_report *r)
{
    if (r->json)
        printf("\n]}}\n");
}
