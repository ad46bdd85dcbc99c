/* The growth rows of `rune bench`: real motion capture (CMU 01_01 from
 * assimp-testmodels: 38 joints, keys at 120 Hz) and how sample + mix cost
 * grows with joints and clips, each against the naive reference. */
#include "bench.h"
#include "rune/import.h"
#include "clip/clip_access_internal.h"

#include <stdio.h>

static const char cmu_bvh[] = "/usr/share/assimp/models/BVH/01_01.bvh";

static int mocap_rows(const bench_plan *p)
{
    rune_import *imp = NULL;
    if (rune_import_file(cmu_bvh, NULL, &imp, NULL) || imp->clip_count == 0) {
        rune_import_destroy(imp);
        bench_report_section(p->report, "(CMU mocap not found: install assimp-testmodels)");
        return 0;
    }
    rune_rig *rig = NULL;
    rune_clip *clip = NULL;
    rune_binding *b = NULL;
    int rc = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL) ||
             rune_clip_compile(&imp->clips[0], NULL, &clip, NULL) || rune_binding_create(rig, clip, 0, NULL, &b, NULL);
    if (!rc) {
        char title[160];
        snprintf(title, sizeof title, "CMU mocap 01_01: %zu joints, %.1f s at 120 Hz", imp->joint_count,
                 (double)rune_clip_length(clip));
        bench_report_section(p->report, title);
        const rune_binding *three[3] = {b, b, b};
        for (size_t n = 1; n <= 3 && !rc; n += 2) {
            bench_row row = bench_row_make(n == 1 ? "cmu_sample" : "cmu_sample3_blend", "ns/joint", 0, 0);
            snprintf(row.label, sizeof row.label, "CMU 01_01, %zu play%s", n, n > 1 ? "s + blend" : "");
            rc = bench_mix_measure(p, rig, three, n, p->level, &row);
            if (!rc)
                bench_report_row(p->report, &row);
        }
    }
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
    rune_import_destroy(imp);
    return rc;
}

static int growth_rows(const bench_plan *p)
{
    static const size_t joint_counts[3] = {16, 64, 256}, clip_counts[3] = {1, 3, 8};
    bench_report_section(p->report, "cost growth: sample + mix, by joints and clips");
    int rc = 0;
    for (int j = 0; j < 3 && !rc; j++) {
        bench_scene g;
        if (bench_scene_make(&g, joint_counts[j], 8))
            return 1;
        for (int c = 0; c < 3 && !rc; c++) {
            bench_row row = bench_row_make("", "ns/joint", 0, 0);
            snprintf(row.id, sizeof row.id, "growth_%zuj_%zuc", joint_counts[j], clip_counts[c]);
            snprintf(row.label, sizeof row.label, "%zu joints, %zu clip%s", joint_counts[j], clip_counts[c],
                     clip_counts[c] > 1 ? "s" : "");
            rc = bench_mix_measure(p, g.rig, g.bindings, clip_counts[c], p->level, &row);
            if (!rc)
                bench_report_row(p->report, &row);
        }
        bench_scene_free(&g);
    }
    return rc;
}

int bench_growth_rows(const bench_plan *p)
{
    int rc = mocap_rows(p);
    if (!p->quick)
        rc |= growth_rows(p);
    return rc;
}
