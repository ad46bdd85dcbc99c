/* `rune bench`: throughput of sampling, sample + mix, a 2D blend space with
 * an additive layer, model-space matrices, and crowds across all cores;
 * each against the plain scalar reference in the same run, as ratios
 * (absolute times on shared machines are noise, ratios much less so). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sysconf */
#include "bench.h"
#include "rune/import.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DT (1.0f / 60.0f)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef void (*bench_fn)(void *ctx);

/* Seconds per call: warm up, then run batches until `min_s` has passed;
 * *calls (when given) receives how many calls that took, warm-up included. */
static double per_call(bench_fn fn, void *ctx, double min_s, size_t *calls_out)
{
    for (int i = 0; i < 8; i++)
        fn(ctx);
    size_t calls = 0, batch = 16;
    double start = now(), elapsed = 0;
    while (elapsed < min_s) {
        for (size_t i = 0; i < batch; i++)
            fn(ctx);
        calls += batch;
        batch *= 2;
        elapsed = now() - start;
    }
    if (calls_out)
        *calls_out = calls + 8;
    return elapsed / (double)calls;
}

/* (a) sampling one clip */
typedef struct sample_ctx {
    const rune_binding *b;
    rune_sample_cache *cache;
    rune_pose pose;
    float t, length;
} sample_ctx;

static void step_time(sample_ctx *c)
{
    c->t += DT;
    if (c->t >= c->length)
        c->t -= c->length;
}

static void sample_fast(void *p)
{
    sample_ctx *c = p;
    step_time(c);
    rune_binding_sample_cached(c->b, c->cache, c->t, &c->pose);
}

static void sample_ref(void *p)
{
    sample_ctx *c = p;
    step_time(c);
    bench_ref_sample(c->b, c->t, &c->pose);
}

/* (b) sample + mix n clips */
typedef struct mix_ctx {
    rune_animator *anim;
    bench_ref_input in[8];
    size_t n;
    rune_pose scratch[8], out;
} mix_ctx;

static void mix_fast(void *p)
{
    mix_ctx *c = p;
    rune_animator_advance(c->anim, DT);
    rune_animator_evaluate(c->anim, NULL, 0, NULL);
    rune_animator_deliver(c->anim, NULL, NULL);
}

static void mix_ref(void *p)
{
    mix_ctx *c = p;
    for (size_t i = 0; i < c->n; i++)
        c->in[i].time += DT;
    bench_ref_sample_mix(c->in, c->n, c->scratch, &c->out);
}

static int mix_setup(mix_ctx *c, const rune_rig *rig, const rune_binding *const *bindings, size_t n,
                     rune_simd_level level)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    if (rune_animator_create(rig, 0, NULL, &c->anim, NULL) || rune_pose_init(&c->out, rune_rig_joint_count(rig), NULL, NULL))
        return 1;
    rune_animator_set_simd(c->anim, level);
    for (size_t i = 0; i < n; i++) {
        float w = 1.0f / (float)(i + 1);
        rune_play_params pp = {.fade = 0.0f, .weight = w, .speed = 1.0f, .time = 0.1f * (float)i};
        if (rune_animator_play(c->anim, bindings[i], &pp, NULL, NULL) ||
            rune_pose_init(&c->scratch[i], rune_rig_joint_count(rig), NULL, NULL))
            return 1;
        c->in[i] = (bench_ref_input){bindings[i], 0.1f * (float)i, w, rune_clip_priority(rune_binding_clip(bindings[i]))};
    }
    return 0;
}

static void mix_free(mix_ctx *c)
{
    rune_animator_destroy(c->anim);
    for (size_t i = 0; i < c->n; i++)
        rune_pose_release(&c->scratch[i]);
    rune_pose_release(&c->out);
}

/* (c) a 2D blend space of 5 clips plus an additive layer */
typedef struct blend_ctx {
    rune_graph_instance *inst;
    rune_pose out;
    float phase;
} blend_ctx;

static void blend_run(void *p)
{
    blend_ctx *c = p;
    c->phase += DT;
    rune_graph_set_param(c->inst, 0, 0.8f * sinf(c->phase));
    rune_graph_set_param(c->inst, 1, 0.8f * cosf(0.7f * c->phase));
    rune_graph_update(c->inst, DT, NULL, 0);
    rune_graph_evaluate(c->inst, &c->out);
}

/* (d) local to model matrices */
typedef struct matrix_ctx {
    const rune_rig *rig;
    const rune_pose *pose;
    rune_mat4 *out;
} matrix_ctx;

static void matrices_run(void *p)
{
    matrix_ctx *c = p;
    rune_rig_model_matrices(c->rig, c->pose, c->out);
}

/* (e) crowds */
typedef struct crowd_ctx {
    rune_batch *batch;
    rune_character **chars;
    size_t count;
} crowd_ctx;

static void crowd_run(void *p)
{
    crowd_ctx *c = p;
    rune_batch_run(c->batch, c->chars, c->count, DT);
}

static void row(const char *what, size_t joints, double fast, double ref)
{
    if (ref > 0)
        printf("  %-44s %8.2f ns/joint  %11.0f /s   reference %8.2f ns/joint   ratio %5.2fx\n", what,
               1e9 * fast / (double)joints, 1.0 / fast, 1e9 * ref / (double)joints, ref / fast);
    else
        printf("  %-44s %8.2f ns/joint  %11.0f /s\n", what, 1e9 * fast / (double)joints, 1.0 / fast);
}

static int bench_sampling(const char *label, const rune_binding *b, size_t joints, double min_s)
{
    sample_ctx c = {b, NULL, {0}, 0.0f, rune_clip_length(rune_binding_clip(b))};
    if (rune_binding_sampler_create(b, RUNE_SIMD_AUTO, NULL, &c.cache, NULL) ||
        rune_pose_init(&c.pose, joints, NULL, NULL))
        return 1;
    double fast = per_call(sample_fast, &c, min_s, NULL), ref = per_call(sample_ref, &c, min_s, NULL);
    char what[96];
    snprintf(what, sizeof what, "(a) sample 1 clip, %s [%s]", label, rune_simd_name(rune_sample_cache_level(c.cache)));
    row(what, joints, fast, ref);
    rune_sample_cache_destroy(c.cache);
    rune_pose_release(&c.pose);
    return 0;
}

static int bench_mix(const char *label, const rune_rig *rig, const rune_binding *const *bindings, size_t n,
                     rune_simd_level level, double min_s, double *ratio)
{
    mix_ctx c;
    if (mix_setup(&c, rig, bindings, n, level))
        return 1;
    double fast = per_call(mix_fast, &c, min_s, NULL), ref = per_call(mix_ref, &c, min_s, NULL);
    char what[96];
    snprintf(what, sizeof what, "(b) sample + mix %zu clips, %s [%s]", n, label,
             rune_simd_name(rune_simd_resolve(level)));
    row(what, rune_rig_joint_count(rig), fast, ref);
    if (ratio)
        *ratio = ref / fast;
    mix_free(&c);
    return 0;
}

static int bench_blend(const bench_scene *s, double min_s)
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
    if (!rc)
        row("(c) 2D blend of 5 clips + additive layer", rune_rig_joint_count(s->rig), per_call(blend_run, &c, min_s, NULL), 0);
    rune_pose_release(&c.out);
    rune_graph_instance_destroy(c.inst);
    rune_graph_destroy(g);
    rune_motion_destroy(m2d);
    rune_motion_destroy(madd);
    return rc;
}

/* An allocator that counts, to show the crowd's frames allocate nothing. */
static _Atomic size_t crowd_allocs;

static void *counting_alloc(void *user, size_t size)
{
    (void)user;
    atomic_fetch_add(&crowd_allocs, 1);
    return malloc(size);
}

static void counting_free(void *user, void *p, size_t size)
{
    (void)user;
    (void)size;
    free(p);
}

static int bench_crowd(const bench_scene *s, size_t rigs, size_t workers, double min_s)
{
    const rune_allocator counting = {counting_alloc, counting_free, NULL};
    crowd_ctx c = {NULL, calloc(rigs, sizeof(rune_character *)), rigs};
    int rc = !c.chars || rune_batch_create(workers, &counting, &c.batch, NULL);
    rune_character_desc cd = {.lib = s->lib, .root_joint = RUNE_NO_ROOT};
    for (size_t i = 0; !rc && i < rigs; i++) {
        rc = rune_character_create(&cd, &counting, &c.chars[i], NULL);
        for (size_t k = 0; !rc && k < 3; k++) {
            rune_play_params pp = {.fade = 0.0f, .weight = 1.0f / (float)(k + 1), .speed = 1.0f,
                                   .time = 0.013f * (float)i};
            rc = rune_character_play_clip(c.chars[i], (uint32_t)k, &pp, NULL, NULL);
        }
    }
    if (!rc) {
        crowd_run(&c); /* warm-up: the first frame sizes the mixer's scratch */
        size_t before = atomic_load(&crowd_allocs);
        size_t frames = 0;
        double t = per_call(crowd_run, &c, min_s, &frames);
        printf("  (e) %zu rigs x (b), %zu worker%s + caller: %8.2f ms per frame  %10.0f rigs/s  %6.2f ns/joint"
               "  (%zu allocations in %zu frames)\n",
               rigs, workers, workers == 1 ? "" : "s", 1e3 * t, (double)rigs / t,
               1e9 * t / (double)(rigs * rune_rig_joint_count(s->rig)), atomic_load(&crowd_allocs) - before, frames);
    }
    for (size_t i = 0; c.chars && i < rigs; i++)
        rune_character_destroy(c.chars[i]);
    free(c.chars);
    rune_batch_destroy(c.batch);
    return rc;
}

/* (g) crowds of characters that each run a 2-layer graph (a directional
 * 2D blend space base layer in a sync group, an upper-body override layer
 * masked to one subtree) with root motion extraction */
static int graph_crowd_library(const bench_scene *s, uint32_t *graph)
{
    rune_library *lib = s->lib;
    if (rune_library_find_graph(lib, "crowd", graph, NULL) == RUNE_OK)
        return 0;
    uint32_t vx, vy, dirs;
    if (rune_library_add_param(lib, "vx", &vx, NULL) || rune_library_add_param(lib, "vy", &vy, NULL))
        return 1;
    rune_motion_sample_desc smp[5] = {{-1, 0, 0, {0, 0}, 1},  {-1, 1, 0, {0, 1}, 1}, {-1, 2, 0, {1, 0}, 1},
                                      {-1, 3, 0, {0, -1}, 1}, {-1, 4, 0, {-1, 0}, 1}};
    rune_motion_node_desc node = {RUNE_MOTION_BLEND2D, vx, vy, RUNE_BLEND2D_DIRECTIONAL, smp, 5};
    if (rune_library_add_motion(lib, "dirs", RUNE_PRIORITY_MOVEMENT, &node, 1, &dirs, NULL))
        return 1;
    const rune_motion *upper_motion = rune_library_clip_motion(lib, 5);
    if (!upper_motion)
        return 1;
    rune_state_desc base = {.motion = rune_library_motion(lib, dirs), .speed = 1, .sync_group = 0, .name = "Loco"};
    rune_state_desc upper = {.motion = upper_motion, .speed = 1, .sync_group = 0, .name = "Wave"};
    rune_mask_entry mask = {1, 1.0f, true}; /* joint 1 and its subtree: half the tree */
    rune_layer_desc layers[2] = {
        {.blend = RUNE_LAYER_OVERRIDE, .weight = 1, .states = &base, .state_count = 1, .name = "base"},
        {.blend = RUNE_LAYER_OVERRIDE, .weight = 0.8f, .states = &upper, .state_count = 1, .mask = &mask,
         .mask_count = 1, .name = "upper"}};
    rune_param_desc params[2] = {{RUNE_PARAM_FLOAT, 0}, {RUNE_PARAM_FLOAT, 0}};
    const char *names[2] = {"vx", "vy"};
    rune_graph_desc d = {params, 2, layers, 2, names};
    return rune_library_add_graph(lib, "crowd", RUNE_PRIORITY_MOVEMENT, &d, graph, NULL) != RUNE_OK;
}

static int bench_graph_crowd(const bench_scene *s, size_t count, size_t workers, double min_s)
{
    const rune_allocator counting = {counting_alloc, counting_free, NULL};
    uint32_t graph;
    crowd_ctx c = {NULL, calloc(count, sizeof(rune_character *)), count};
    int rc = !c.chars || graph_crowd_library(s, &graph) || rune_batch_create(workers, &counting, &c.batch, NULL);
    rune_character_desc cd = {.lib = s->lib, .root_joint = 0};
    for (size_t i = 0; !rc && i < count; i++) {
        uint32_t h;
        rune_play_params pp = {.fade = 0.0f, .weight = 1.0f, .speed = 0.9f + 0.2f * (float)(i % 11) / 11.0f};
        rc = rune_character_create(&cd, &counting, &c.chars[i], NULL) ||
             rune_character_start_graph(c.chars[i], graph, &pp, &h, NULL);
        if (!rc) {
            float a = 0.37f * (float)i;
            rune_character_set_param(c.chars[i], h, 0, 0.8f * sinf(a));
            rune_character_set_param(c.chars[i], h, 1, 0.8f * cosf(a));
        }
    }
    if (!rc) {
        crowd_run(&c); /* warm-up */
        size_t before = atomic_load(&crowd_allocs), frames = 0;
        double t = per_call(crowd_run, &c, min_s, &frames);
        printf("  (g) %zu characters x 2-layer graph + root motion, %zu worker%s + caller: %8.2f ms per frame"
               "  %6.2f ns/joint  (%zu allocations in %zu frames)\n",
               count, workers, workers == 1 ? "" : "s", 1e3 * t,
               1e9 * t / (double)(count * rune_rig_joint_count(s->rig)), atomic_load(&crowd_allocs) - before, frames);
    }
    for (size_t i = 0; c.chars && i < count; i++)
        rune_character_destroy(c.chars[i]);
    free(c.chars);
    rune_batch_destroy(c.batch);
    return rc;
}

static const char usage[] =
    "usage: rune bench [--quick]\n"
    "  Prints throughput figures (docs/performance.md): sampling, sample + mix, a 2D blend\n"
    "  space with an additive layer, local-to-model matrices, crowds, CMU mocap, cost growth;\n"
    "  each against a scalar reference measured in the same run.\n"
    "  --quick   shorter runs and smaller crowds\n";

int rune_bench_main(int argc, char **argv)
{
    bool quick = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
            continue;
        }
        fprintf(stderr, "rune bench: unknown argument \"%s\" (see rune bench --help)\n", argv[i]);
        return 2;
    }
    double min_s = quick ? 0.03 : 0.25;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("rune bench%s: kernel %s, %ld cores; figures per frame (dt 1/60 s), ratio = reference / rune in this run\n",
           quick ? " --quick" : "", rune_simd_name(rune_simd_best()), cores);
    bench_scene s;
    if (bench_scene_make(&s, 64, 8)) {
        fprintf(stderr, "rune bench: cannot build the synthetic scene\n");
        return 2;
    }
    int rc = 0;
    double ratio_b = 0;
    printf("synthetic rig: 64 joints, clips with 30 Hz keys over 2 s on every joint\n");
    rc |= bench_sampling("64 joints", s.bindings[0], 64, min_s);
    rc |= bench_mix("64 joints", s.rig, s.bindings, 3, RUNE_SIMD_AUTO, min_s, &ratio_b);
    /* the same work on each kernel build: the scalar one is the fallback
     * (and the same results, see tests/unit/test_mix.c) */
    for (rune_simd_level l = RUNE_SIMD_SCALAR; l < rune_simd_best(); l++)
        rc |= bench_mix("64 joints", s.rig, s.bindings, 3, l, min_s, NULL);
    rc |= bench_blend(&s, min_s);
    {
        rune_pose pose;
        rune_mat4 *mats = calloc(64, sizeof *mats);
        rc |= !mats || rune_pose_init(&pose, 64, NULL, NULL);
        if (!rc) {
            rune_binding_sample(s.bindings[0], 0.5f, &pose);
            matrix_ctx mc = {s.rig, &pose, mats};
            row("(d) local-to-model matrices", 64, per_call(matrices_run, &mc, min_s, NULL), 0);
            rune_pose_release(&pose);
        }
        free(mats);
    }
    size_t rigs = quick ? 1000 : 10000;
    rc |= bench_crowd(&s, rigs, 0, min_s);
    if (cores > 1)
        rc |= bench_crowd(&s, rigs, (size_t)cores - 1, min_s);
    printf("  (f) (b) against the scalar reference: %.2fx\n", ratio_b);
    for (size_t n = 1000; n <= (quick ? 1000u : 10000u); n *= 10) {
        rc |= bench_graph_crowd(&s, n, 0, min_s);
        if (cores > 1)
            rc |= bench_graph_crowd(&s, n, 1, min_s);
    }

    const char *bvh = "/usr/share/assimp/models/BVH/01_01.bvh";
    rune_import *imp = NULL;
    if (!rune_import_file(bvh, NULL, &imp, NULL) && imp->clip_count > 0) {
        rune_rig *rig = NULL;
        rune_clip *clip = NULL;
        rune_binding *b = NULL;
        if (!rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL) &&
            !rune_clip_compile(&imp->clips[0], NULL, &clip, NULL) && !rune_binding_create(rig, clip, 0, NULL, &b, NULL)) {
            printf("CMU mocap %s: %zu joints, %.1f s at 120 Hz\n", bvh, imp->joint_count, rune_clip_length(clip));
            const rune_binding *three[3] = {b, b, b};
            rc |= bench_sampling("CMU 01_01", b, imp->joint_count, min_s);
            rc |= bench_mix("CMU 01_01", rig, three, 3, RUNE_SIMD_AUTO, min_s, NULL);
        }
        rune_binding_destroy(b);
        rune_clip_destroy(clip);
        rune_rig_destroy(rig);
    } else {
        printf("(CMU mocap not found at %s: install assimp-testmodels)\n", bvh);
    }
    rune_import_destroy(imp);

    printf("cost growth, (b) per frame [ns/joint, ratio to reference]:\n          ");
    const size_t joint_counts[3] = {16, 64, 256}, clip_counts[3] = {1, 3, 8};
    for (int c = 0; c < 3; c++)
        printf("   %zu clip%s             ", clip_counts[c], clip_counts[c] > 1 ? "s" : " ");
    printf("\n");
    for (int j = 0; j < 3 && !rc; j++) {
        bench_scene g;
        if (bench_scene_make(&g, joint_counts[j], 8)) {
            rc = 1;
            break;
        }
        printf("  %3zu joints", joint_counts[j]);
        for (int c = 0; c < 3; c++) {
            mix_ctx m;
            if (mix_setup(&m, g.rig, g.bindings, clip_counts[c], RUNE_SIMD_AUTO)) {
                rc = 1;
                break;
            }
            double fast = per_call(mix_fast, &m, min_s / 2, NULL), ref = per_call(mix_ref, &m, min_s / 2, NULL);
            printf("   %7.2f ns  %5.2fx     ", 1e9 * fast / (double)joint_counts[j], ref / fast);
            mix_free(&m);
        }
        printf("\n");
        bench_scene_free(&g);
    }
    bench_scene_free(&s);
    return rc ? 2 : 0;
}
