/* The kernel rows of `rune bench` on the synthetic 64-joint scene: each
 * step of a frame measured alone, beside the naive reference, the
 * machine's floor and ozz-animation's figure for the same work. The
 * floors count, per joint, the arithmetic a step cannot avoid and the
 * bytes it must move (docs/performance.md lists them). */
#include "bench.h"
#include "ozz_anchor.h"
#include "graph/graph_api_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { JOINTS = 64, POSES = 4 };

static void measure_row(const bench_plan *p, bench_row *row, bench_fn fn, void *ctx, double per)
{
    bench_timing t = bench_measure(fn, ctx, p->samples, p->sample_s, false);
    double scale = 1e9 / per;
    row->median = t.median * scale;
    row->min = t.min * scale;
}

static double naive_of(const bench_plan *p, bench_fn fn, void *ctx, double per)
{
    return bench_measure(fn, ctx, p->samples / 2 + 1, p->sample_s, false).median * 1e9 / per;
}

/* ---- sampling ---------------------------------------------------------- */

float bench_next_time(bench_sample_ctx *c)
{
    if (c->random) {
        c->seed = c->seed * 1664525u + 1013904223u;
        c->t = c->length * (float)(c->seed >> 8) * (1.0f / 16777216.0f);
    } else {
        c->t += BENCH_DT;
        if (c->t >= c->length)
            c->t -= c->length;
    }
    return c->t;
}

static void sample_fast(void *p)
{
    bench_sample_ctx *c = p;
    rune_binding_sample_cached(c->b, c->cache, bench_next_time(c), &c->pose);
}

/* the timed sampler at time t (the same-result check's input) */
static void sample_timed(void *p, float t, rune_pose *out)
{
    bench_sample_ctx *c = p;
    rune_binding_sample_cached(c->b, c->cache, t, out);
}

static void sample_naive(void *p)
{
    bench_sample_ctx *c = p;
    bench_ref_sample(c->b, bench_next_time(c), &c->pose);
}

/* per joint: lerp (3 FMA), slerp by series (two degree-12 polynomials,
 * a 4-lane combination), the key fraction: ~50 flops; a 64-byte segment
 * read from L2 (the clip's 250 KB of segments) */
#define SAMPLE_FLOPS 50.0
#define SAMPLE_BYTES 64.0

static int sampling_rows(const bench_plan *p, const bench_scene *s)
{
    bench_sample_ctx c = {s->bindings[0], NULL, {0}, 0.0f, rune_clip_length(rune_binding_clip(s->bindings[0])), 1u, false};
    bench_sample_ctx m = c; /* the same at the anchor's level */
    if (rune_binding_sampler_create(c.b, p->level, NULL, &c.cache, NULL) ||
        rune_binding_sampler_create(m.b, bench_anchor_level(p), NULL, &m.cache, NULL) ||
        rune_pose_init(&c.pose, JOINTS, NULL, NULL) || rune_pose_init(&m.pose, JOINTS, NULL, NULL))
        return 1;
    for (int random = 0; random < 2; random++) {
        c.random = random != 0;
        bench_row row = bench_row_make(random ? "sample_random" : "sample_forward", "ns/joint", 0, 0);
        snprintf(row.label, sizeof row.label, random ? "random-time sampling, 1 clip" : "forward sampling 60 Hz, 1 clip");
        measure_row(p, &row, sample_fast, &c, JOINTS);
        row.naive = naive_of(p, sample_naive, &c, JOINTS);
        row.floor = bench_floor_ns(p->machine, SAMPLE_FLOPS, SAMPLE_BYTES, BENCH_L2);
        bench_timed timed = {sample_timed, &c, NULL, NULL};
        bench_row_anchor(&row, "ozz", bench_ozz_kernel(p, s, random ? BENCH_OZZ_RANDOM : BENCH_OZZ_FORWARD, &timed));
        row.bytes = (double)(rune_clip_describe(rune_binding_clip(c.b)).bytes + rune_binding_bytes(c.b));
        if (row.anchor.value >= 0) {
            bench_row matched = row;
            m.random = c.random, m.t = 0.0f, m.seed = 1u;
            measure_row(p, &matched, sample_fast, &m, JOINTS);
            bench_row_matched(&row, p, matched.median);
        }
        bench_report_row(p->report, &row);
    }
    rune_sample_cache_destroy(c.cache);
    rune_sample_cache_destroy(m.cache);
    rune_pose_release(&c.pose);
    rune_pose_release(&m.pose);
    return 0;
}

/* ---- sample + blend n clips --------------------------------------------- */

/* n samplings, then per joint and clip a weighted sum with hemisphere
 * alignment (~20 flops) and a normalization */
static int mix_row(const bench_plan *p, const char *id, const char *label, const bench_scene *s, size_t n,
                   rune_simd_level level, bool ozz)
{
    bench_row row = bench_row_make(id, "ns/joint", 0, 0);
    snprintf(row.label, sizeof row.label, "%s [%s]", label, rune_simd_name(rune_simd_resolve(level)));
    if (bench_mix_measure(p, s->rig, s->bindings, n, level, &row))
        return 1;
    row.floor = bench_floor_ns(p->machine, (double)n * (SAMPLE_FLOPS + 20.0), (double)n * SAMPLE_BYTES, BENCH_L2);
    if (ozz)
        bench_row_anchor(&row, "ozz", bench_ozz_kernel(p, s, BENCH_OZZ_SAMPLE3_BLEND, NULL));
    if (ozz && row.anchor.value >= 0) {
        bench_row matched = row;
        if (bench_mix_measure(p, s->rig, s->bindings, n, bench_anchor_level(p), &matched))
            return 1;
        bench_row_matched(&row, p, matched.median);
    }
    bench_report_row(p->report, &row);
    return 0;
}

/* ---- finished poses: blend, layer, local-to-model ----------------------- */

typedef struct pose_ctx {
    const rune_rig *rig;
    rune_pose poses[POSES], out;
    rune_contribution contrib[POSES];
    const rune_pose *pose_ptr[POSES];
    float weights[POSES], mask[JOINTS];
    rune_mat4 mats[JOINTS];
    rune_xform xforms[JOINTS];
    rune_simd_level level;
} pose_ctx;

static void mean_fast(void *p)
{
    pose_ctx *c = p;
    rune_mix_mean(c->contrib, POSES, c->level, &c->out);
}

static void mean_naive(void *p)
{
    pose_ctx *c = p;
    bench_ref_mean(c->pose_ptr, c->weights, POSES, &c->out);
}

static void layers_fast(void *p)
{
    pose_ctx *c = p;
    rune_pose_copy(&c->out, &c->poses[0]);
    for (int l = 1; l < POSES; l++)
        rune_mix_layer(&c->out, &c->poses[l], NULL, c->mask, 0.7f, c->level);
}

static void matrices_fast(void *p)
{
    pose_ctx *c = p;
    rune_rig_model_matrices_at(c->rig, &c->poses[1], c->level, c->mats);
}

static void matrices_naive(void *p)
{
    pose_ctx *c = p;
    bench_ref_model_matrices(c->rig, &c->poses[1], c->mats);
}

static void xforms_fast(void *p)
{
    pose_ctx *c = p;
    rune_rig_model_xforms(c->rig, &c->poses[1], c->xforms);
}

static void xforms_naive(void *p)
{
    pose_ctx *c = p;
    bench_ref_model_xforms(c->rig, &c->poses[1], c->xforms);
}

static int pose_setup(pose_ctx *c, const bench_scene *s, rune_simd_level level)
{
    memset(c, 0, sizeof *c);
    c->rig = s->rig;
    c->level = level;
    if (rune_pose_init(&c->out, JOINTS, NULL, NULL))
        return 1;
    for (int l = 0; l < POSES; l++) {
        if (rune_pose_init(&c->poses[l], JOINTS, NULL, NULL))
            return 1;
        rune_binding_sample(s->bindings[l], 0.37f * (float)l, &c->poses[l]);
        c->weights[l] = 1.0f / POSES;
        c->pose_ptr[l] = &c->poses[l];
        c->contrib[l] = (rune_contribution){&c->poses[l], c->weights[l], 0, NULL};
    }
    for (int j = 0; j < JOINTS; j++)
        c->mask[j] = j % 3 ? 1.0f : 0.5f; /* partial weights: every joint slerps */
    return 0;
}

static void pose_free(pose_ctx *c)
{
    for (int l = 0; l < POSES; l++)
        rune_pose_release(&c->poses[l]);
    rune_pose_release(&c->out);
}

/* The rows on finished poses: the work, its naive counterpart, what a
 * call counts as (joints x poses or layers), the floor's work per joint
 * (flops, bytes from L1) and ozz's figure. */
typedef struct pose_row {
    const char *id, *label;
    bench_fn fast, naive;
    double per, flops, bytes;
    int ozz; /* a bench_ozz_work, or -1: ozz has no such job */
} pose_row;

static const pose_row pose_row_table[] = {
    /* 8 floats read, 7 FMA + a 4-term dot for the hemisphere */
    {"blend_finished", "blend 4 finished poses, per joint per pose", mean_fast, mean_naive, JOINTS * POSES, 22, 32,
     BENCH_OZZ_BLEND_FINISHED},
    /* a slerp by series and a lerp; two poses */
    {"override_layer", "override layer, partial weights, per joint per layer", layers_fast, NULL,
     JOINTS * (POSES - 1), 45, 64, -1},
    /* frame * pose and its matrix (~80 flops), the 3x4 product with the
     * parent (72); frame and pose in, a matrix out */
    {"local_to_model", "local-to-model matrices", matrices_fast, matrices_naive, JOINTS, 152, 132,
     BENCH_OZZ_LOCAL_TO_MODEL},
    /* two quaternion products and two rotations of a vector */
    {"model_xforms", "model transforms (rotation + translation)", xforms_fast, xforms_naive, JOINTS, 130, 96, -1},
};

static int pose_rows(const bench_plan *p, const bench_scene *s)
{
    pose_ctx c;
    int rc = pose_setup(&c, s, p->level);
    for (size_t i = 0; !rc && i < sizeof pose_row_table / sizeof pose_row_table[0]; i++) {
        const pose_row *r = &pose_row_table[i];
        bench_row row = bench_row_make(r->id, "ns/joint", 0, 0);
        snprintf(row.label, sizeof row.label, "%s", r->label);
        measure_row(p, &row, r->fast, &c, r->per);
        if (r->naive)
            row.naive = naive_of(p, r->naive, &c, r->per);
        row.floor = bench_floor_ns(p->machine, r->flops, r->bytes, BENCH_L1);
        if (r->ozz >= 0) { /* checked on what the timed loop wrote */
            r->fast(&c);
            bench_timed timed = {NULL, NULL, &c.out, c.mats};
            bench_row_anchor(&row, "ozz", bench_ozz_kernel(p, s, (bench_ozz_work)r->ozz, &timed));
        }
        if (r->ozz >= 0 && row.anchor.value >= 0) {
            bench_row matched = row;
            c.level = bench_anchor_level(p);
            measure_row(p, &matched, r->fast, &c, r->per);
            c.level = p->level;
            bench_row_matched(&row, p, matched.median);
        }
        bench_report_row(p->report, &row);
    }
    pose_free(&c);
    return rc;
}

/* ---- a 2D blend space of 5 clips plus an additive layer ----------------- */

typedef struct blend_ctx {
    rune_graph_instance *inst;
    rune_pose out;
    float phase;
} blend_ctx;

static void blend_run(void *p)
{
    blend_ctx *c = p;
    c->phase += BENCH_DT;
    rune_graph_set_param(c->inst, 0, 0.8f * sinf(c->phase));
    rune_graph_set_param(c->inst, 1, 0.8f * cosf(0.7f * c->phase));
    rune_graph_update(c->inst, BENCH_DT, NULL, 0);
    rune_graph_evaluate(c->inst, &c->out);
}

static int blend_row(const bench_plan *p, const bench_scene *s)
{
    /* layer 0: one state, a directional 2D blend of clips 0..4 (idle at the
     * centre); layer 1: an additive state on clip 5 */
    rune_motion_sample_desc smp[5] = {{-1, 0, 0, {0, 0}, 1},  {-1, 1, 0, {0, 1}, 1}, {-1, 2, 0, {1, 0}, 1},
                                      {-1, 3, 0, {0, -1}, 1}, {-1, 4, 0, {-1, 0}, 1}};
    rune_motion_node_desc node = {RUNE_MOTION_BLEND2D, 0, 1, RUNE_BLEND2D_DIRECTIONAL, smp, 5};
    rune_motion_sample_desc add_s = {-1, 5, 0, {0, 0}, 1};
    rune_motion_node_desc add_n = {RUNE_MOTION_CLIP, 0, 0, 0, &add_s, 1};
    rune_motion *m2d = NULL, *madd = NULL;
    rune_graph *g = NULL;
    blend_ctx c = {0};
    rune_param_desc params[2] = {{RUNE_PARAM_FLOAT, 0}, {RUNE_PARAM_FLOAT, 0}};
    int rc = rune_motion_create(&node, 1, 2, s->clip_count, NULL, &m2d, NULL) ||
             rune_motion_create(&add_n, 1, 2, s->clip_count, NULL, &madd, NULL);
    if (!rc) {
        rune_state_desc st0 = {.motion = m2d, .speed = 1, .sync_group = -1};
        rune_state_desc st1 = {.motion = madd, .speed = 1, .sync_group = -1};
        rune_layer_desc layers[2] = {
            {.blend = RUNE_LAYER_OVERRIDE, .weight = 1, .states = &st0, .state_count = 1},
            {.blend = RUNE_LAYER_ADDITIVE, .weight = 0.5f, .states = &st1, .state_count = 1}};
        rune_graph_desc d = {.params = params, .param_count = 2, .layers = layers, .layer_count = 2};
        rc = rune_graph_create(&d, s->rig, NULL, &g, NULL) ||
             rune_graph_instance_create(g, s->bindings, NULL, &c.inst, NULL) ||
             rune_pose_init(&c.out, rune_rig_joint_count(s->rig), NULL, NULL);
    }
    if (!rc) {
        bench_row row = bench_row_make("blend2d_additive", "ns/joint", 0, 0);
        snprintf(row.label, sizeof row.label, "2D blend of 5 clips + additive layer");
        measure_row(p, &row, blend_run, &c, (double)rune_rig_joint_count(s->rig));
        /* up to 3 active samples of the blend, the additive clip and its
         * reference, their mean and the layer */
        row.floor = bench_floor_ns(p->machine, 5 * SAMPLE_FLOPS + 3 * 20.0 + 45.0, 5 * SAMPLE_BYTES, BENCH_L2);
        bench_report_row(p->report, &row);
    }
    rune_pose_release(&c.out);
    rune_graph_instance_destroy(c.inst);
    rune_graph_destroy(g);
    rune_motion_destroy(m2d);
    rune_motion_destroy(madd);
    return rc;
}

int bench_kernel_rows(const bench_plan *p, const bench_scene *s)
{
    int rc = 0;
    bench_report_section(p->report, "synthetic rig: 64 joints (binary tree), clips of 61 keys a channel over 2 s, T+R "
                                    "on every joint");
    rc |= sampling_rows(p, s);
    rc |= mix_row(p, "sample3_blend", "sample 3 clips + blend", s, 3, p->level, true);
    rc |= pose_rows(p, s);
    rc |= blend_row(p, s);
    bench_report_section(p->report, "sample 3 clips + blend on every kernel level (the same results within 2 ulps)");
    for (rune_simd_level l = RUNE_SIMD_SCALAR; l < RUNE_SIMD_LEVEL_COUNT; l++) {
        char id[48];
        snprintf(id, sizeof id, "sample3_blend_%s", rune_simd_name(l));
        if (rune_simd_supported(l))
            rc |= mix_row(p, id, "sample 3 clips + blend", s, 3, l, false);
    }
    return rc;
}
