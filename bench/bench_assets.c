/* The asset rows of `rune bench`: loading CMU 01_01 (38 joints, 85,000
 * keys) from a .rune asset against loading the same rig and clip from its
 * JSON scenario (parse, then compile), both from memory, in one run. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench.h"
#include "rune/import.h"
#include "rune/io.h"
#include "asset/asset_internal.h"

#include <stdio.h>
#include <stdlib.h>

static const char cmu_bvh[] = "/usr/share/assimp/models/BVH/01_01.bvh";

typedef struct load_ctx {
    const void *data;
    size_t size;
    int failures;
} load_ctx;

static void load_json(void *p)
{
    load_ctx *c = p;
    rune_scenario *s;
    rune_library *lib = NULL;
    if (rune_scenario_load_string(c->data, c->size, "01_01.json", 0, NULL, &s, NULL) == RUNE_OK) {
        c->failures += rune_scenario_library(s, NULL, &lib, NULL) != RUNE_OK;
        rune_library_destroy(lib);
        rune_scenario_destroy(s);
    } else {
        c->failures++;
    }
}

static void load_rune(void *p)
{
    load_ctx *c = p;
    rune_asset *a;
    rune_library *lib = NULL;
    if (rune_asset_load_memory(c->data, c->size, "01_01.rune", NULL, &a, NULL) == RUNE_OK) {
        c->failures += rune_asset_library(a, NULL, &lib, NULL) != RUNE_OK;
        rune_library_destroy(lib);
        rune_asset_destroy(a);
    } else {
        c->failures++;
    }
}

/* The import as JSON text and as a .rune, in memory. */
static int encode_both(const rune_import *imp, char **json, size_t *json_size, void **rune, size_t *rune_size)
{
    FILE *f = open_memstream(json, json_size);
    if (!f || rune_import_write_scenario(imp, f, NULL) || fclose(f))
        return 1;
    rune_rig *rig = NULL;
    rune_clip *clip = NULL;
    int rc = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL) ||
             rune_clip_compile(&imp->clips[0], NULL, &clip, NULL);
    if (!rc) {
        const rune_clip *clips[1] = {clip};
        rune_asset_desc d = {rig, clips, 1, imp->root_joint, NULL, 0};
        rc = rune_asset_encode(&d, NULL, rune, rune_size, NULL) != RUNE_OK;
    }
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
    return rc;
}

int bench_asset_rows(const bench_plan *p)
{
    rune_import *imp = NULL;
    if (rune_import_file(cmu_bvh, NULL, &imp, NULL) || imp->clip_count == 0) {
        rune_import_destroy(imp);
        return 0; /* bench_growth_rows says the mocap is missing */
    }
    char *json = NULL;
    void *rune = NULL;
    size_t json_size = 0, rune_size = 0;
    int rc = encode_both(imp, &json, &json_size, &rune, &rune_size);
    rune_import_destroy(imp);
    if (!rc) {
        char title[160];
        snprintf(title, sizeof title, "loading CMU 01_01 (rig + clip, compiled): JSON %.1f MB, .rune %.1f MB",
                 (double)json_size / 1e6, (double)rune_size / 1e6);
        bench_report_section(p->report, title);
        load_ctx jc = {json, json_size, 0}, rcx = {rune, rune_size, 0};
        bench_timing tj = bench_measure(load_json, &jc, p->quick ? 3 : 7, 0.0, false);
        bench_timing tr = bench_measure(load_rune, &rcx, p->quick ? 5 : 15, 0.01, false);
        rc = jc.failures || rcx.failures;
        bench_row row = bench_row_make("load_json", "ms", 1e3 * tj.median, 1e3 * tj.min);
        snprintf(row.label, sizeof row.label, "JSON scenario: parse + compile");
        bench_report_row(p->report, &row);
        row = bench_row_make("load_rune", "ms", 1e3 * tr.median, 1e3 * tr.min);
        snprintf(row.label, sizeof row.label, ".rune asset: check + compile (%.0fx faster)", tj.median / tr.median);
        /* the floor: reading its bytes once from memory */
        row.floor = 1e-6 * bench_floor_ns(p->machine, 0, (double)rune_size, BENCH_MEM);
        bench_report_row(p->report, &row);
    }
    free(json);
    rune_asset_free_encoded(NULL, rune, rune_size);
    return rc;
}
