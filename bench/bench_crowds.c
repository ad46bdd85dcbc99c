/* The crowd rows of `rune bench`: many characters updated per frame by a
 * rune_batch (the caller alone, then with workers), each sampling and
 * blending 2 clips and computing its model matrices -- from 2 clips every
 * character shares (served from cache) and from 64 different clips (the
 * crowd's segments no longer fit in L2) -- and characters running a
 * 2-layer graph with root motion, their matrices streamed. Each row counts
 * the allocations its frames made: 0 is the contract. */
#include "bench.h"
#include "ozz_anchor.h"
#include "rune/compress.h"
#include "character/character_internal.h"
#include "character/inertia_view.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic long long allocations, live_bytes;

static void *counting_alloc(void *user, size_t size)
{
    (void)user;
    atomic_fetch_add(&allocations, 1);
    atomic_fetch_add(&live_bytes, (long long)size);
    return malloc(size);
}

static void counting_free(void *user, void *p, size_t size)
{
    (void)user;
    if (p)
        atomic_fetch_sub(&live_bytes, (long long)size);
    free(p);
}

const rune_allocator bench_counting = {counting_alloc, counting_free, NULL};

typedef struct crowd_ctx {
    rune_batch *batch;
    rune_character **chars;
    size_t count;
} crowd_ctx;

static void crowd_run(void *p)
{
    crowd_ctx *c = p;
    rune_batch_run(c->batch, c->chars, c->count, BENCH_DT);
}

static void crowd_free(crowd_ctx *c)
{
    for (size_t i = 0; c->chars && i < c->count; i++)
        rune_character_destroy(c->chars[i]);
    free(c->chars);
    rune_batch_destroy(c->batch);
}

/* Times the crowd's frames after one warm-up frame (which sizes scratch)
 * and reports them with the allocations they made. */
void bench_crowd_run(rune_batch *batch, rune_character **chars, size_t count, size_t workers, const bench_plan *p,
                     bench_row *row)
{
    crowd_ctx c = {batch, chars, count};
    crowd_run(&c);
    long long before = atomic_load(&allocations);
    /* batches of frames, or (p->frames) single frames */
    int samples = p->frames > 0 ? p->frames : (p->quick ? 5 : 15);
    double batch_s = p->frames > 0 ? 0.0 : (p->quick ? 0.02 : 0.06);
    bench_timing t = bench_measure(crowd_run, &c, samples, batch_s, workers > 0);
    row->median = 1e3 * t.median;
    row->min = 1e3 * t.min;
    row->allocations = atomic_load(&allocations) - before;
}

/* Per joint: 2 samplings and their blend (2 x 70 flops), local-to-model
 * (152); the character's cursors, pose and matrices move through memory
 * (writes allocate: read and written, ~224 bytes), and with 64 different
 * clips the 2 segments (128 bytes) too. Workers add cores, not memory
 * bandwidth. */
static double crowd_floor_ms(const bench_plan *p, size_t joints, size_t count, size_t workers, bool varied)
{
    double per_joint_flops = 2 * 70.0 + 152.0, per_joint_bytes = 224.0 + (varied ? 128.0 : 0.0);
    double n = (double)(joints * count), threads = (double)(workers + 1);
    double compute = bench_floor_ns(p->machine, per_joint_flops * n / threads, 0, BENCH_MEM);
    double moving = bench_floor_ns(p->machine, 0, per_joint_bytes * n, BENCH_MEM);
    return 1e-6 * (compute > moving ? compute : moving);
}

/* What a clip crowd's characters play: 2 clips every character shares,
 * 2 of 64 different clips, or 2 of the same 64 compressed. */
typedef enum crowd_clips { CROWD_SHARED, CROWD_VARIED, CROWD_COMPRESSED } crowd_clips;

/* `c->count` characters at kernel level `level`, each playing 2 clips
 * (shared, or 2 of the scene's many: `varied`) at spread start times. */
static int clip_crowd_make(const bench_scene *s, rune_simd_level level, size_t workers, bool varied, crowd_ctx *c)
{
    int rc = !c->chars || bench_batch_create(workers, &c->batch);
    rune_character_desc cd = {.lib = s->lib, .root_joint = RUNE_NO_ROOT, .matrices = true, .simd = level};
    size_t clips = s->clip_count;
    for (size_t i = 0; !rc && i < c->count; i++) {
        uint32_t a = varied ? (uint32_t)(i % clips) : 0, b = varied ? (uint32_t)((i * 7 + 3) % clips) : 1;
        if (b == a)
            b = (uint32_t)((a + 1) % clips);
        rune_play_params pa = {.fade = 0, .weight = 1.0f, .speed = 1.0f, .time = 0.013f * (float)i};
        rune_play_params pb = {.fade = 0, .weight = 0.5f, .speed = 1.0f, .time = 0.029f * (float)i};
        rc = rune_character_create(&cd, &bench_counting, &c->chars[i], NULL) ||
             rune_character_play_clip(c->chars[i], a, &pa, NULL, NULL) ||
             rune_character_play_clip(c->chars[i], b, &pb, NULL, NULL);
    }
    return rc;
}

static int clip_crowd_row(const bench_plan *p, const bench_scene *s, size_t count, size_t workers, crowd_clips kind)
{
    static const char *const names[] = {"2 clips", "64 clips", "64 compressed clips"};
    static const char *const ids[] = {"", "varied_", "compressed_"};
    bool varied = kind != CROWD_SHARED;
    size_t clips = s->clip_count;
    crowd_ctx c = {NULL, calloc(count, sizeof(rune_character *)), count};
    long long before = atomic_load(&live_bytes);
    int rc = clip_crowd_make(s, p->level, workers, varied, &c);
    if (!rc) {
        double kb = (double)(atomic_load(&live_bytes) - before) / (double)count / 1000.0;
        bench_row row = bench_row_make("", "ms/frame", 0, 0);
        snprintf(row.id, sizeof row.id, "crowd_%s%zu_w%zu", ids[kind], count, workers);
        char bound[48] = "";
        if (kind == CROWD_COMPRESSED) { /* their bindings hold the decoding tables every play shares */
            size_t bytes = 0;
            for (size_t i = 0; i < clips; i++)
                bytes += rune_binding_bytes(s->bindings[i]);
            snprintf(bound, sizeof bound, " (bound: %.1f KB a clip)", (double)bytes / (double)clips / 1e3);
        }
        snprintf(row.label, sizeof row.label, "%zu x (2 clips + blend + matrices), %s%s, %.1f KB each, %zu worker%s",
                 count, names[kind], bound, kb, workers, workers == 1 ? "" : "s");
        bench_crowd_run(c.batch, c.chars, c.count, workers, p, &row);
        row.floor = crowd_floor_ms(p, rune_rig_joint_count(s->rig), count, workers, varied);
        row.bytes = 1000.0 * kb; /* crowd rows: what a character holds, for both sides */
        if (workers == 0 && !varied) { /* ozz's jobs on the same work, the caller alone */
            bench_row_anchor(&row, "ozz", bench_ozz_crowd(p, s, count));
            if (row.anchor_bytes > 0) {
                size_t used = strlen(row.label);
                snprintf(row.label + used, sizeof row.label - used, " (ozz %.1f KB)", row.anchor_bytes / 1000.0);
            }
        }
        if (row.anchor.value >= 0) { /* the same crowd at the anchor's level, made after this one is gone */
            crowd_free(&c);
            c = (crowd_ctx){NULL, calloc(count, sizeof(rune_character *)), count};
            bench_row matched = row;
            rc = clip_crowd_make(s, bench_anchor_level(p), workers, varied, &c);
            if (!rc)
                bench_crowd_run(c.batch, c.chars, c.count, workers, p, &matched);
            bench_row_matched(&row, p, rc ? -1.0 : matched.median);
        }
        bench_report_row(p->report, &row);
    }
    crowd_free(&c);
    return rc;
}

/* The clips of `s` compressed with the default bound, in a library of
 * their own on a copy of its rig. */
static int compressed_scene(const bench_scene *s, bench_scene *out)
{
    size_t n = rune_rig_joint_count(s->rig);
    rune_joint_desc *jd = calloc(n, sizeof *jd);
    int rc = !jd;
    for (size_t j = 0; !rc && j < n; j++) {
        jd[j].part = rune_rig_part(s->rig, j);
        jd[j].parent = rune_rig_parent(s->rig, j) >= 0 ? rune_rig_parent_part(s->rig, j) : NULL;
        jd[j].frame = rune_rig_frame(s->rig, j);
    }
    out->lib = NULL;
    rc = rc || rune_library_create(jd, n, NULL, &out->lib, NULL);
    free(jd);
    for (size_t i = 0; !rc && i < s->clip_count; i++) {
        rune_clip *packed;
        rc = rune_clip_compress(rune_binding_clip(s->bindings[i]), s->rig, NULL, NULL, &packed, NULL) ||
             rune_library_adopt_clip(out->lib, packed, NULL, NULL);
    }
    if (rc) {
        rune_library_destroy(out->lib);
        return 1;
    }
    out->rig = rune_library_rig(out->lib);
    out->bindings = rune_library_bindings(out->lib);
    out->clip_count = s->clip_count;
    return 0;
}

/* The graph of the graph crowd: a base layer walking a directional 2D
 * blend space in a sync group and cross-fading (0.25 s) to an idle clip and
 * back at exit times (the row's label says what share of the crowd is
 * mid-fade) -- and an upper-body override layer masked to one subtree. */
#define GRAPH_FADE_S 0.25f
#define GRAPH_CYCLE_S 2.5f

/* The crowd's graphs: "crowd" walks (a 2D blend space) and idles in
 * turn, cross-fading; "crowd_inertial" the same, inertializing;
 * "transition_crossfade" / "transition_inertialize" go from one state of
 * the walk to another at their first update over a blend that outlasts
 * any run, so every character stays in the middle of it; and
 * "transition_cut" makes the same switch at once: the destination alone,
 * the least any transition that evaluates it can cost. */
typedef enum crowd_graph {
    GRAPH_CROWD,
    GRAPH_CROWD_INERTIAL,
    GRAPH_TRANSITION_FADE,
    GRAPH_TRANSITION_INERTIAL,
    GRAPH_TRANSITION_CUT
} crowd_graph;

static int graph_crowd_library(const bench_scene *s, crowd_graph which, uint32_t *graph)
{
    static const char *const ids[] = {"crowd", "crowd_inertial", "transition_crossfade", "transition_inertialize",
                                      "transition_cut"};
    rune_library *lib = s->lib;
    if (rune_library_find_graph(lib, ids[which], graph, NULL) == RUNE_OK)
        return 0;
    uint32_t vx, vy, dirs;
    if (rune_library_find_motion(lib, "dirs", &dirs, NULL) == RUNE_OK) {
        if (rune_library_find_param(lib, "vx", &vx, NULL) || rune_library_find_param(lib, "vy", &vy, NULL))
            return 1;
    } else {
        if (rune_library_add_param(lib, "vx", &vx, NULL) || rune_library_add_param(lib, "vy", &vy, NULL))
            return 1;
        rune_motion_sample_desc smp[5] = {{-1, 0, 0, {0, 0}, 1},  {-1, 1, 0, {0, 1}, 1}, {-1, 2, 0, {1, 0}, 1},
                                          {-1, 3, 0, {0, -1}, 1}, {-1, 4, 0, {-1, 0}, 1}};
        rune_motion_node_desc node = {RUNE_MOTION_BLEND2D, vx, vy, RUNE_BLEND2D_DIRECTIONAL, smp, 5};
        if (rune_library_add_motion(lib, "dirs", RUNE_PRIORITY_MOVEMENT, &node, 1, &dirs, NULL))
            return 1;
    }
    const rune_motion *upper_motion = rune_library_clip_motion(lib, 5);
    const rune_motion *idle_motion = rune_library_clip_motion(lib, 6);
    if (!upper_motion || !idle_motion)
        return 1;
    bool endless = which >= GRAPH_TRANSITION_FADE;
    rune_state_desc base[2] = {
        {.motion = rune_library_motion(lib, dirs), .speed = 1, .sync_group = 0, .name = "Loco"},
        {.motion = idle_motion, .speed = 1, .sync_group = -1, .name = "Idle"}};
    if (endless) /* from the walk to the walk at another phase: both sides a blend space */
        base[1] = (rune_state_desc){.motion = rune_library_motion(lib, dirs), .speed = 1.2f, .sync_group = -1,
                                    .name = "Walk"};
    rune_blend_mode blend = which == GRAPH_CROWD_INERTIAL || which == GRAPH_TRANSITION_INERTIAL ? RUNE_BLEND_INERTIALIZE
                                                                                               : RUNE_BLEND_CROSSFADE;
    rune_transition_desc fades[2] = {
        {.from = 0, .to = 1, .duration = GRAPH_FADE_S, .has_exit_time = true, .exit_time = 0.75f, .interruptible = true,
         .blend = blend},
        {.from = 1, .to = 0, .duration = GRAPH_FADE_S, .has_exit_time = true, .exit_time = 0.5f, .interruptible = true,
         .blend = blend}};
    if (endless) /* Walk -> Loco only, at once, for longer than any run */
        fades[0] = (rune_transition_desc){.from = 1, .to = 0, .duration = which == GRAPH_TRANSITION_CUT ? 0.0f : 1e6f,
                                          .interruptible = true, .blend = blend};
    rune_state_desc upper = {.motion = upper_motion, .speed = 1, .sync_group = 0, .name = "Wave"};
    rune_mask_entry mask = {1, 1.0f, true}; /* joint 1 and its subtree: half the tree */
    rune_layer_desc layers[2] = {
        {.blend = RUNE_LAYER_OVERRIDE, .weight = 1, .states = base, .state_count = 2,
         .initial_state = endless ? 1 : 0, .transitions = fades, .transition_count = endless ? 1 : 2, .name = "base"},
        {.blend = RUNE_LAYER_OVERRIDE, .weight = 0.8f, .states = &upper, .state_count = 1, .mask = &mask,
         .mask_count = 1, .name = "upper"}};
    rune_param_desc params[2] = {{RUNE_PARAM_FLOAT, 0}, {RUNE_PARAM_FLOAT, 0}};
    const char *names[2] = {"vx", "vy"};
    rune_graph_desc d = {params, 2, layers, 2, names};
    return rune_library_add_graph(lib, ids[which], RUNE_PRIORITY_MOVEMENT, &d, graph, NULL) != RUNE_OK;
}

/* Per joint: at least 2 leaves of the blend space and the upper clip
 * sampled (70 flops each, as above), the fading share's idle clip too, the
 * upper layer laid over the base (45), local-to-model (152); the crowd
 * character's bytes less the matrices' read (224 - 64: streamed, they are
 * written, not fetched first) plus a layer pose written and read back
 * (64). */
static double graph_floor_ms(const bench_plan *p, size_t joints, size_t count, size_t workers, double fading)
{
    double per_joint_flops = (3.0 + fading) * 70.0 + 45.0 + 152.0, per_joint_bytes = 160.0 + 64.0;
    double n = (double)(joints * count), threads = (double)(workers + 1);
    double compute = bench_floor_ns(p->machine, per_joint_flops * n / threads, 0, BENCH_MEM);
    double moving = bench_floor_ns(p->machine, 0, per_joint_bytes * n, BENCH_MEM);
    return 1e-6 * (compute > moving ? compute : moving);
}

/* `count` characters running graph `which`, their parameters and phases
 * spread over the crowd; *blending: how many are in a transition. */
static int graph_crowd_make(const bench_plan *p, const bench_scene *s, crowd_graph which, size_t warmup_frames,
                            crowd_ctx *c, size_t *blending)
{
    uint32_t graph;
    int rc = !c->chars || graph_crowd_library(s, which, &graph);
    /* streamed matrices: a game's crowd reads them after every character
     * updated (skinning, an upload), not right after each update */
    rune_character_desc cd = {.lib = s->lib, .root_joint = 0, .matrices = true, .simd = p->level, .stream_matrices = true};
    *blending = 0;
    for (size_t i = 0; !rc && i < c->count; i++) {
        uint32_t h;
        rune_play_params pp = {.fade = 0.0f, .weight = 1.0f, .speed = 0.9f + 0.2f * (float)(i % 11) / 11.0f};
        /* a frame before the graph: the pose its first transition leaves */
        rc = rune_character_create(&cd, &bench_counting, &c->chars[i], NULL) ||
             rune_character_update(c->chars[i], BENCH_DT, NULL) ||
             rune_character_start_graph(c->chars[i], graph, &pp, &h, NULL);
        if (!rc) {
            float a = 0.37f * (float)i;
            rune_character_set_param(c->chars[i], h, 0, 0.8f * sinf(a));
            rune_character_set_param(c->chars[i], h, 1, 0.8f * cosf(a));
            /* spread the crowd over its cycle, in frame steps */
            int frames = 1 + (int)(i % 149) * (int)warmup_frames / 149;
            for (int f = 0; !rc && f < frames; f++)
                rc = rune_character_update(c->chars[i], BENCH_DT, NULL) != RUNE_OK;
            rune_graph_play_view v[2];
            rune_source_view view;
            float left, angle;
            *blending += (rune_character_source(c->chars[i], h, &view) && rune_graph_layer_plays(view.instance, 0, v) > 1) ||
                         rune__character_inertia(c->chars[i], &left, &angle);
        }
    }
    return rc;
}

static int graph_crowd_row(const bench_plan *p, const bench_scene *s, size_t count, size_t workers, crowd_graph which)
{
    crowd_ctx c = {NULL, calloc(count, sizeof(rune_character *)), count};
    size_t blending = 0;
    long long before = atomic_load(&live_bytes);
    int rc = bench_batch_create(workers, &c.batch) ||
             graph_crowd_make(p, s, which, (size_t)(GRAPH_CYCLE_S / BENCH_DT), &c, &blending);
    if (!rc) {
        bool inertial = which == GRAPH_CROWD_INERTIAL;
        double kb = (double)(atomic_load(&live_bytes) - before) / (double)count / 1000.0;
        bench_row row = bench_row_make("", "ms/frame", 0, 0);
        snprintf(row.id, sizeof row.id, "graph_crowd_%s%zu_w%zu", inertial ? "inertial_" : "", count, workers);
        snprintf(row.label, sizeof row.label,
                 "%zu x (2-layer graph, %.0f%% %s + root motion + streamed matrices), %.1f KB each, %zu worker%s",
                 count, 100.0 * (double)blending / (double)count, inertial ? "inertializing" : "cross-fading", kb,
                 workers, workers == 1 ? "" : "s");
        bench_crowd_run(c.batch, c.chars, c.count, workers, p, &row);
        row.floor = graph_floor_ms(p, rune_rig_joint_count(s->rig), count, workers,
                                   inertial ? 0.0 : (double)blending / (double)count);
        bench_report_row(p->report, &row);
    }
    crowd_free(&c);
    return rc;
}

/* 1,000 characters of the same graph, every one in the middle of a
 * transition between two states of the walk, cross-fading and
 * inertializing, and the same switch as a cut (the destination alone),
 * the caller alone. The crowds are made first and timed in alternated
 * rounds (the host's drift and the order of allocation touch them
 * alike); each row is the median round, the label gives the rounds'
 * spread, and the inertialized and cut rows take the cross-fade as their
 * reference. */
#define TRANSITION_ROUNDS 5
enum { TRANSITION_KINDS = 3 };
static int transition_rows(const bench_plan *p, const bench_scene *s)
{
    const size_t count = 1000;
    static const crowd_graph which[TRANSITION_KINDS] = {GRAPH_TRANSITION_FADE, GRAPH_TRANSITION_INERTIAL,
                                                        GRAPH_TRANSITION_CUT};
    static const char *const what[TRANSITION_KINDS] = {"cross-fading", "inertializing; naive: the cross-fade",
                                                       "cut to the destination; naive: the cross-fade"};
    crowd_ctx c[TRANSITION_KINDS];
    size_t blending[TRANSITION_KINDS] = {0};
    int rc = 0;
    for (int k = 0; k < TRANSITION_KINDS; k++)
        c[k] = (crowd_ctx){NULL, calloc(count, sizeof(rune_character *)), count};
    for (int k = 0; k < TRANSITION_KINDS && !rc; k++)
        rc = bench_batch_create(0, &c[k].batch) ||
             graph_crowd_make(p, s, which[k], 30, &c[k], &blending[k]);
    bench_row rows[TRANSITION_KINDS] = {bench_row_make("transition_crossfade", "ms/frame", 0, 0),
                                        bench_row_make("transition_inertialize", "ms/frame", 0, 0),
                                        bench_row_make("transition_cut", "ms/frame", 0, 0)};
    double medians[TRANSITION_KINDS][TRANSITION_ROUNDS];
    for (int r = 0; r < TRANSITION_ROUNDS && !rc; r++)
        for (int k = 0; k < TRANSITION_KINDS; k++) {
            bench_row round = rows[k];
            bench_crowd_run(c[k].batch, c[k].chars, count, 0, p, &round);
            medians[k][r] = round.median;
            rows[k].min = r == 0 || round.min < rows[k].min ? round.min : rows[k].min;
            rows[k].allocations += round.allocations;
        }
    for (int k = 0; k < TRANSITION_KINDS && !rc; k++) {
        bench_sort(medians[k], TRANSITION_ROUNDS);
        rows[k].median = medians[k][TRANSITION_ROUNDS / 2];
        snprintf(rows[k].label, sizeof rows[k].label,
                 "%zu x graph in a transition (%zu %s), 0 workers, %d alternated rounds %.3g-%.3g", count,
                 which[k] == GRAPH_TRANSITION_CUT ? count : blending[k], what[k], TRANSITION_ROUNDS, medians[k][0],
                 medians[k][TRANSITION_ROUNDS - 1]);
        rows[k].naive = k > 0 ? rows[0].median : -1.0;
        rows[k].floor = graph_floor_ms(p, rune_rig_joint_count(s->rig), count, 0, k == 0 ? 1.0 : 0.0);
        bench_report_row(p->report, &rows[k]);
    }
    for (int k = 0; k < TRANSITION_KINDS; k++)
        crowd_free(&c[k]);
    return rc;
}

int bench_graph_crowd_row(const bench_plan *p, const bench_scene *s, size_t count)
{
    bench_report_section(p->report, "graph crowd (rune_batch: the caller and --workers; single frames timed)");
    return graph_crowd_row(p, s, count, p->workers, GRAPH_CROWD);
}

int bench_crowd_rows(const bench_plan *p, const bench_scene *s, const bench_scene *varied)
{
    size_t count = p->quick ? 1000 : 10000;
    size_t workers = p->workers;
    int rc = 0;
    bench_report_section(p->report, "crowds (rune_batch: the caller, then with workers; 64-joint characters)");
    bench_scene packed;
    rc = compressed_scene(varied, &packed);
    bool have_packed = !rc;
    for (size_t w = 0; w <= workers && !rc; w += workers ? workers : 1) {
        rc |= clip_crowd_row(p, s, count, w, CROWD_SHARED);
        rc |= clip_crowd_row(p, varied, count, w, CROWD_VARIED);
        rc |= clip_crowd_row(p, &packed, count, w, CROWD_COMPRESSED);
    }
    if (have_packed)
        bench_scene_free(&packed);
    for (size_t n = 1000; n <= count && !rc; n *= 10)
        for (size_t w = 0; w <= workers && !rc; w += workers ? workers : 1)
            rc |= graph_crowd_row(p, s, n, w, GRAPH_CROWD);
    /* the largest crowd again, its transitions inertialized */
    rc |= rc ? 0 : graph_crowd_row(p, s, count, workers, GRAPH_CROWD_INERTIAL);
    rc |= rc ? 0 : transition_rows(p, s);
    return rc;
}
