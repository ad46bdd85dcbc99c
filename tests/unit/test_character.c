/* Unit tests of src/character: the same motion reached by different paths
 * gives the same pose (a clip as a track, a one-state graph, a one-sample
 * blend space; graph layer weights and masks against track weights;
 * graph cross-fades against two fading tracks; interruption), name
 * lookups, batches (same results for any worker count, no allocation per
 * frame with graphs and blend spaces in the crowd), and allocation
 * failures anywhere in building and starting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rune/character.h"
#include "counting_alloc.h"
#include "test_random.h"
#include "rig/rig_internal.h"

enum { JOINTS = 6, KEYS = 9 };

static const char *const part[JOINTS] = {"Root", "Spine", "Neck", "ArmL", "ArmR", "Head"};
static const char *const parent_of[JOINTS] = {"", "Root", "Spine", "Spine", "Spine", "Neck"};

/* Clip ids of the world. "c": every joint but Head, Spine at pose weight
 * .5 and ArmL with mask weight .3 (partial coverage), loop 1 s. "cm": the
 * same with each joint's pose weight times the mask weights of `mask`
 * (what a graph layer with that mask gives). "low": core, every joint.
 * "walk"/"walk2": Root moving 1 m/s. */
enum { CLIP_C, CLIP_CM, CLIP_LOW, CLIP_WALK, CLIP_WALK2, CLIPS };
static const float mask_weight[JOINTS] = {1.0f, 0.5f, 1.0f, 0.25f, 0.0f, 1.0f};

typedef struct world {
    rune_library *lib;
    uint32_t motion_c;  /* one-sample blend1d of "c" */
    uint32_t graph_c;   /* one layer, one state playing "c" */
    uint32_t graph_w;   /* one layer at weight .6 playing "c" */
    uint32_t graph_m;   /* one layer with the mask above, playing "c" */
    uint32_t graph_x;   /* A ("c") -> B ("c") -> C ("low") -> A, each on trigger "go" over 0.5 s */
    uint32_t crowd;     /* 2 layers: 2D blend space base with sync, masked upper-body override */
    uint32_t param_go, param_vx, param_vy;
} world;

static rune_quat random_rotation(uint32_t *seed)
{
    return rune_q_normalize(rune_q(test_random(seed), test_random(seed), test_random(seed), test_random(seed) + 1.5f));
}

static void add_clip(world *w, const char *id, int which, const rune_allocator *alloc)
{
    (void)alloc;
    uint32_t seed = 17u + (uint32_t)which * 101u;
    rune_key_pose_desc poses[KEYS][JOINTS];
    rune_keyframe_desc kf[KEYS];
    rune_curve_key_desc curves[KEYS][2];
    for (int k = 0; k < KEYS; k++) {
        size_t n = 0;
        for (int j = 0; j < JOINTS; j++) {
            bool keyed = which == CLIP_LOW || ((which == CLIP_C || which == CLIP_CM) && j != 5) ||
                         ((which == CLIP_WALK || which == CLIP_WALK2) && j == 0);
            if (!keyed)
                continue;
            rune_key_pose_desc *p = &poses[k][n++];
            *p = (rune_key_pose_desc){parent_of[j], part[j], rune_v3(test_random(&seed), test_random(&seed), 0.0f),
                                      random_rotation(&seed), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
            if (j == 1)
                p->weight = 0.5f;
            if (j == 3)
                p->mask_weight = 0.3f;
            if (which == CLIP_CM)
                p->weight *= mask_weight[j];
            if (which == CLIP_WALK || which == CLIP_WALK2) {
                p->t = rune_v3(which == CLIP_WALK2 ? 0.5f : 0.0f, 0.0f, (float)k / (KEYS - 1));
                p->r = rune_q_identity();
            }
        }
        kf[k] = (rune_keyframe_desc){(float)k / (KEYS - 1), poses[k], n};
        /* float curves: "c" and "cm" key smile (at weight .5) and blink,
         * "low" smile and jaw; a graph mask is per joint, so "cm" keeps
         * the curves of "c" (its own seed: "cm" draws the same values) */
        uint32_t cs = 991u + (uint32_t)k * 7u + (which == CLIP_LOW ? 50u : 0u);
        rune_curve_key_desc *ck = curves[k];
        size_t nc = 0;
        if (which == CLIP_C || which == CLIP_CM) {
            ck[nc++] = (rune_curve_key_desc){"smile", test_random(&cs), 0.5f, 0.0f, RUNE_EASE_SINE, RUNE_EASE_INOUT};
            ck[nc++] = (rune_curve_key_desc){"blink", test_random(&cs), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        } else if (which == CLIP_LOW) {
            ck[nc++] = (rune_curve_key_desc){"smile", test_random(&cs), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
            ck[nc++] = (rune_curve_key_desc){"jaw", test_random(&cs), 1.0f, 0.2f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        }
        kf[k].curves = ck;
        kf[k].curve_count = nc;
    }
    /* "cm" uses "c"'s random values: same seed */
    if (which == CLIP_CM) {
        uint32_t s2 = 17u + CLIP_C * 101u;
        for (int k = 0; k < KEYS; k++)
            for (size_t i = 0; i < kf[k].pose_count; i++) {
                poses[k][i].t = rune_v3(test_random(&s2), test_random(&s2), 0.0f);
                poses[k][i].r = random_rotation(&s2);
            }
    }
    rune_sequence_desc d = {id, 1, true, which == CLIP_LOW ? RUNE_PRIORITY_CORE : RUNE_PRIORITY_MOVEMENT,
                            kf, KEYS, NULL, 0};
    uint32_t index;
    assert_int_equal(rune_library_add_clip(w->lib, &d, &index, NULL), RUNE_OK);
    assert_int_equal(index, (uint32_t)which);
}

static uint32_t add_graph(world *w, const char *id, const rune_layer_desc *layers, size_t n, rune_param_desc *params,
                          const char **names)
{
    uint32_t g;
    rune_graph_desc d = {params, rune_library_param_count(w->lib), layers, n, names};
    rune_error err;
    if (rune_library_add_graph(w->lib, id, RUNE_PRIORITY_MOVEMENT, &d, &g, &err))
        fail_msg("%s", err.message);
    return g;
}

static void make_world(world *w, const rune_allocator *alloc)
{
    rune_joint_desc joints[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        joints[j] = (rune_joint_desc){part[j], parent_of[j], {{0.0f, 0.2f, 0.0f}, {0, 0, 0, 1}}};
    assert_int_equal(rune_library_create(joints, JOINTS, alloc, &w->lib, NULL), RUNE_OK);
    assert_int_equal(rune_library_add_param(w->lib, "go", &w->param_go, NULL), RUNE_OK);
    assert_int_equal(rune_library_add_param(w->lib, "vx", &w->param_vx, NULL), RUNE_OK);
    assert_int_equal(rune_library_add_param(w->lib, "vy", &w->param_vy, NULL), RUNE_OK);
    add_clip(w, "c", CLIP_C, alloc);
    add_clip(w, "cm", CLIP_CM, alloc);
    add_clip(w, "low", CLIP_LOW, alloc);
    add_clip(w, "walk", CLIP_WALK, alloc);
    add_clip(w, "walk2", CLIP_WALK2, alloc);
    rune_motion_sample_desc one = {-1, CLIP_C, 0.0f, {0, 0}, 1.0f};
    rune_motion_node_desc n1 = {RUNE_MOTION_BLEND1D, 1, 0, RUNE_BLEND2D_CARTESIAN, &one, 1};
    assert_int_equal(rune_library_add_motion(w->lib, "c1d", RUNE_PRIORITY_MOVEMENT, &n1, 1, &w->motion_c, NULL),
                     RUNE_OK);
    rune_motion_sample_desc dirs[3] = {{-1, CLIP_LOW, 0, {0, 0}, 1}, {-1, CLIP_WALK, 0, {0, 1}, 1},
                                       {-1, CLIP_WALK2, 0, {1, 0}, 1}};
    rune_motion_node_desc n2 = {RUNE_MOTION_BLEND2D, 1, 2, RUNE_BLEND2D_DIRECTIONAL, dirs, 3};
    uint32_t loco;
    assert_int_equal(rune_library_add_motion(w->lib, "loco", RUNE_PRIORITY_MOVEMENT, &n2, 1, &loco, NULL), RUNE_OK);

    rune_param_desc params[3] = {{RUNE_PARAM_TRIGGER, 0}, {RUNE_PARAM_FLOAT, 0}, {RUNE_PARAM_FLOAT, 0}};
    const char *names[3] = {"go", "vx", "vy"};
    const rune_motion *mc = rune_library_clip_motion(w->lib, CLIP_C), *ml = rune_library_clip_motion(w->lib, CLIP_LOW);
    rune_state_desc sc = {mc, 1.0f, -1, "C"};
    rune_layer_desc one_layer = {RUNE_LAYER_OVERRIDE, 1.0f, &sc, 1, 0, NULL, 0, NULL, 0, "base"};
    w->graph_c = add_graph(w, "g_c", &one_layer, 1, params, names);
    one_layer.weight = 0.6f;
    w->graph_w = add_graph(w, "g_w", &one_layer, 1, params, names);
    rune_mask_entry mask[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        mask[j] = (rune_mask_entry){j, mask_weight[j], false};
    one_layer.weight = 1.0f;
    one_layer.mask = mask;
    one_layer.mask_count = JOINTS;
    w->graph_m = add_graph(w, "g_m", &one_layer, 1, params, names);

    rune_state_desc xs[3] = {{mc, 1.0f, -1, "A"}, {mc, 1.0f, -1, "B"}, {ml, 1.0f, -1, "C"}};
    rune_condition_desc go = {0, RUNE_COND_TRIGGERED, 0};
    rune_transition_desc xt[3] = {{0, 1, 0.5f, false, 0, true, &go, 1}, {1, 2, 0.5f, false, 0, true, &go, 1},
                                  {2, 0, 0.5f, false, 0, true, &go, 1}};
    rune_layer_desc xl = {RUNE_LAYER_OVERRIDE, 1.0f, xs, 3, 0, xt, 3, NULL, 0, "base"};
    w->graph_x = add_graph(w, "g_x", &xl, 1, params, names);

    rune_state_desc base = {rune_library_motion(w->lib, loco), 1.0f, 0, "Loco"};
    rune_state_desc upper = {mc, 1.0f, 0, "Wave"};
    rune_mask_entry arms = {1, 1.0f, true};
    rune_layer_desc crowd[2] = {{RUNE_LAYER_OVERRIDE, 1.0f, &base, 1, 0, NULL, 0, NULL, 0, "base"},
                                {RUNE_LAYER_OVERRIDE, 0.8f, &upper, 1, 0, NULL, 0, &arms, 1, "upper"}};
    w->crowd = add_graph(w, "crowd", crowd, 2, params, names);
}

/* Worst difference of two poses (rotations compared as rotations). */
static float pose_difference(const rune_pose *a, const rune_pose *b)
{
    float d = 0.0f;
    for (size_t j = 0; j < a->count; j++) {
        d = fmaxf(d, fabsf(a->tx[j] - b->tx[j]));
        d = fmaxf(d, fabsf(a->ty[j] - b->ty[j]));
        d = fmaxf(d, fabsf(a->tz[j] - b->tz[j]));
        float same = 0.0f, flip = 0.0f;
        const float qa[4] = {a->qx[j], a->qy[j], a->qz[j], a->qw[j]}, qb[4] = {b->qx[j], b->qy[j], b->qz[j], b->qw[j]};
        for (int k = 0; k < 4; k++) {
            same = fmaxf(same, fabsf(qa[k] - qb[k]));
            flip = fmaxf(flip, fabsf(qa[k] + qb[k]));
        }
        d = fmaxf(d, fminf(same, flip));
        d = fmaxf(d, fabsf(a->coverage[j] - b->coverage[j]));
    }
    assert_int_equal(a->curve_count, b->curve_count);
    for (size_t c = 0; c < a->curve_count; c++) {
        d = fmaxf(d, fabsf(a->curve[c] - b->curve[c]));
        d = fmaxf(d, fabsf(a->curve_cov[c] - b->curve_cov[c]));
    }
    return d;
}

static rune_character *new_character(const world *w, const rune_allocator *alloc)
{
    rune_character *ch;
    rune_character_desc d = {.lib = w->lib, .root_joint = RUNE_NO_ROOT};
    assert_int_equal(rune_character_create(&d, alloc, &ch, NULL), RUNE_OK);
    return ch;
}

/* Three paths to the same motion over a lower track: "c" as a track at
 * movement, a one-state graph playing it, and a one-sample blend space
 * playing it; also a graph layer at weight .6 against the track at weight
 * .6, and a masked layer against the clip whose pose weights carry the
 * mask. Every frame, the same pose. */
static void test_equivalent_paths(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    enum { PATHS = 6 };
    rune_character *ch[PATHS];
    rune_play_params full = {.fade = 0.0f, .weight = 1.0f, .speed = 1.0f};
    rune_play_params partial = full;
    partial.weight = 0.6f;
    for (int i = 0; i < PATHS; i++) {
        ch[i] = new_character(&w, NULL);
        /* the lower track: half weight at core */
        rune_play_params low = {.fade = 0.0f, .weight = 0.5f, .speed = 0.7f};
        assert_int_equal(rune_character_play_clip(ch[i], CLIP_LOW, &low, NULL, NULL), RUNE_OK);
    }
    assert_int_equal(rune_character_play_clip(ch[0], CLIP_C, &full, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_start_graph(ch[1], w.graph_c, &full, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_play_motion(ch[2], w.motion_c, &full, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_play_clip(ch[3], CLIP_C, &partial, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_start_graph(ch[4], w.graph_w, &full, NULL, NULL), RUNE_OK);
    /* the masked layer against "cm", on a fifth: compare with ch[5] */
    rune_character *masked = new_character(&w, NULL);
    rune_play_params low = {.fade = 0.0f, .weight = 0.5f, .speed = 0.7f};
    assert_int_equal(rune_character_play_clip(masked, CLIP_LOW, &low, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_start_graph(masked, w.graph_m, &full, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_character_play_clip(ch[5], CLIP_CM, &full, NULL, NULL), RUNE_OK);
    float worst = 0.0f;
    for (int f = 0; f < 90; f++) {
        for (int i = 0; i < PATHS; i++)
            assert_int_equal(rune_character_update(ch[i], 1.0f / 30.0f, NULL), RUNE_OK);
        assert_int_equal(rune_character_update(masked, 1.0f / 30.0f, NULL), RUNE_OK);
        worst = fmaxf(worst, pose_difference(rune_character_pose(ch[0]), rune_character_pose(ch[1])));
        worst = fmaxf(worst, pose_difference(rune_character_pose(ch[0]), rune_character_pose(ch[2])));
        worst = fmaxf(worst, pose_difference(rune_character_pose(ch[3]), rune_character_pose(ch[4])));
        worst = fmaxf(worst, pose_difference(rune_character_pose(ch[5]), rune_character_pose(masked)));
    }
    print_message("track / graph / blend space / weighted / masked paths differ by %.3g\n", worst);
    assert_true(worst <= 5e-7f);
    /* the paths did differ from the lower track alone: partial coverage */
    const rune_pose *p = rune_character_pose(ch[0]);
    assert_true(p->coverage[1] > 0.5f && p->coverage[1] < 1.0f);
    /* and the curves: smile is keyed by both ranks at share .5 each (the
     * core track's weight, "c"'s key weight): 1 - .5 x .5; jaw only by the
     * core track, at mask weight .2: .5 x .8 */
    uint32_t smile, jaw;
    assert_int_equal(rune_library_find_curve(w.lib, "smile", &smile, NULL), RUNE_OK);
    assert_int_equal(rune_library_find_curve(w.lib, "jaw", &jaw, NULL), RUNE_OK);
    const float *values, *coverage;
    assert_int_equal(rune_character_curves(ch[0], &values, &coverage), 3);
    assert_true(fabsf(coverage[smile] - 0.75f) < 1e-6f);
    assert_true(fabsf(coverage[jaw] - 0.4f) < 1e-6f);
    assert_true(rune_character_curve(ch[0], jaw) == values[jaw]);
    for (int i = 0; i < PATHS; i++)
        rune_character_destroy(ch[i]);
    rune_character_destroy(masked);
    rune_library_destroy(w.lib);
}

/* A graph cross-fade A -> B (both playing "c") against the same as two
 * tracks: A stopped with a .5 s fade while B starts with a .5 s fade, one
 * frame after the trigger (the transition fires in the update after its
 * advance, showing alpha 0 that frame). A cross-fade of a clip with
 * itself at another phase is a weighted mean of the two. Then B -> C
 * interrupts the fade: the frame it fires shows the last pose unchanged. */
static void test_crossfade_matches_tracks(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_character *g = new_character(&w, NULL), *t = new_character(&w, NULL);
    rune_play_params full = {.fade = 0.0f, .weight = 1.0f, .speed = 1.0f};
    uint32_t inst, a, b;
    assert_int_equal(rune_character_start_graph(g, w.graph_x, &full, &inst, NULL), RUNE_OK);
    assert_int_equal(rune_character_play_clip(t, CLIP_C, &full, &a, NULL), RUNE_OK);
    const float dt = 1.0f / 20.0f;
    float worst = 0.0f;
    for (int f = 0; f < 30; f++) {
        if (f == 7)
            assert_true(rune_character_trigger(g, inst, w.param_go));
        if (f == 8) {
            rune_play_params fade = full;
            fade.fade = 0.5f;
            assert_true(rune_character_stop(t, a, 0.5f));
            assert_int_equal(rune_character_play_clip(t, CLIP_C, &fade, &b, NULL), RUNE_OK);
        }
        assert_int_equal(rune_character_update(g, dt, NULL), RUNE_OK);
        assert_int_equal(rune_character_update(t, dt, NULL), RUNE_OK);
        worst = fmaxf(worst, pose_difference(rune_character_pose(g), rune_character_pose(t)));
    }
    print_message("graph cross-fade against two fading tracks: %.3g\n", worst);
    assert_true(worst <= 5e-7f);
    /* interruption: B -> C, and C -> A while that fades: the frame it
     * fires shows the last evaluated pose exactly */
    rune_source_view view;
    assert_true(rune_character_source(g, inst, &view));
    const rune_graph_instance *gi = view.instance;
    assert_int_equal(rune_graph_current_state(gi, 0), 1);
    assert_true(rune_character_trigger(g, inst, w.param_go));
    for (int f = 0; f < 3; f++)
        assert_int_equal(rune_character_update(g, dt, NULL), RUNE_OK);
    assert_int_equal(rune_graph_current_state(gi, 0), 2);
    assert_true(rune_graph_in_transition(gi, 0));
    rune_pose before;
    assert_int_equal(rune_pose_init_rig(&before, rune_library_rig(w.lib), NULL, NULL), RUNE_OK);
    rune_pose_copy(&before, rune_character_pose(g));
    assert_true(rune_character_trigger(g, inst, w.param_go));
    assert_int_equal(rune_character_update(g, dt, NULL), RUNE_OK);
    assert_int_equal(rune_graph_current_state(gi, 0), 0);
    assert_true(pose_difference(&before, rune_character_pose(g)) <= 1e-6f); /* a float rounding or two */
    assert_int_equal(rune_character_update(g, dt, NULL), RUNE_OK);
    assert_true(pose_difference(&before, rune_character_pose(g)) > 1e-3f); /* then it moves on */
    rune_pose_release(&before);
    rune_character_destroy(g);
    rune_character_destroy(t);
    rune_library_destroy(w.lib);
}

/* Name lookups: found once, misspelt names are errors with a hint. */
static void test_lookups(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    uint32_t i;
    int32_t j;
    rune_error err;
    assert_int_equal(rune_library_find_clip(w.lib, "walk2", &i, &err), RUNE_OK);
    assert_int_equal(i, CLIP_WALK2);
    assert_int_equal(rune_library_find_clip(w.lib, "wlak", &i, &err), RUNE_E_NOT_FOUND);
    assert_string_equal(err.message, "no clip \"wlak\" in the library (did you mean \"walk\"?)");
    assert_int_equal(rune_library_find_motion(w.lib, "loco", &i, &err), RUNE_OK);
    assert_int_equal(rune_library_find_graph(w.lib, "crowd", &i, &err), RUNE_OK);
    assert_int_equal(i, w.crowd);
    assert_int_equal(rune_library_find_graph(w.lib, "crow", &i, &err), RUNE_E_NOT_FOUND);
    assert_non_null(strstr(err.message, "did you mean \"crowd\""));
    assert_int_equal(rune_library_find_param(w.lib, "vy", &i, &err), RUNE_OK);
    assert_int_equal(i, w.param_vy);
    assert_int_equal(rune_library_find_joint(w.lib, "Spine/ArmL", &j, &err), RUNE_OK);
    assert_int_equal(j, 3);
    assert_int_equal(rune_library_find_joint(w.lib, "Spine/ArmX", &j, &err), RUNE_E_NOT_FOUND);
    assert_non_null(strstr(err.message, "did you mean \"Spine/Arm"));
    const rune_graph *g = rune_library_graph(w.lib, w.crowd);
    assert_int_equal(rune_graph_find_layer(g, "upper", &i, &err), RUNE_OK);
    assert_int_equal(i, 1);
    assert_int_equal(rune_graph_find_state(g, 1, "Wave", &i, &err), RUNE_OK);
    /* ids are unique among clips and motions */
    rune_sequence_desc dup = {"loco", 0, false, 0, NULL, 0, NULL, 0};
    assert_int_equal(rune_library_add_clip(w.lib, &dup, NULL, &err), RUNE_E_INVALID);
    /* calls naming a handle that is not live change nothing */
    rune_character *ch = new_character(&w, NULL);
    rune_adjust_params adj = {true, 1.0f, 0.0f, false, 0.0f};
    assert_false(rune_character_adjust(ch, 12345, &adj));
    assert_false(rune_character_stop(ch, 12345, 0.1f));
    assert_false(rune_character_set_param(ch, 12345, 0, 1.0f));
    assert_false(rune_character_trigger(ch, 12345, 0));
    rune_character_destroy(ch);
    rune_library_destroy(w.lib);
}

/* Starts the crowd's plays on character i: the 2-layer graph, and the
 * first time a motion track on every third and a clip track on every
 * fifth. */
static void start_crowd(const world *w, rune_character *ch, int i, uint32_t *graph, bool first)
{
    rune_play_params p = {.fade = 0.2f, .weight = 1.0f, .speed = 1.0f + 0.01f * (float)i};
    assert_int_equal(rune_character_start_graph(ch, w->crowd, &p, graph, NULL), RUNE_OK);
    assert_true(rune_character_set_param(ch, *graph, w->param_vx, 0.3f));
    assert_true(rune_character_set_param(ch, *graph, w->param_vy, 0.8f));
    if (first && i % 3 == 0) {
        uint32_t m;
        rune_play_params mp = {.fade = 0.1f, .weight = 0.5f, .speed = 1.0f, .has_priority = true,
                               .priority = RUNE_PRIORITY_ACTION};
        assert_int_equal(rune_character_play_motion(ch, w->motion_c, &mp, &m, NULL), RUNE_OK);
    }
    if (first && i % 5 == 0)
        assert_int_equal(rune_character_play_clip(ch, CLIP_LOW, NULL, NULL, NULL), RUNE_OK);
}

/* A character playing one graph samples it straight into its own pose and
 * composes it there (rune_mix_compose in place); beside a clip track of
 * weight 0 the graph goes through its own pose and the mixer copies it
 * over. The 2-layer crowd graph fading in with root motion: the same pose
 * and the same root travel every frame, both ways. */
static void test_sole_graph_in_place(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_character *ch[2];
    rune_character_desc d = {.lib = w.lib, .root_joint = 0};
    rune_play_params zero = {.fade = 0.0f, .weight = 0.0f, .speed = 1.0f, .has_priority = true,
                             .priority = RUNE_PRIORITY_CORE};
    for (int i = 0; i < 2; i++) {
        uint32_t g;
        assert_int_equal(rune_character_create(&d, NULL, &ch[i], NULL), RUNE_OK);
        start_crowd(&w, ch[i], 0, &g, false);
    }
    assert_int_equal(rune_character_play_clip(ch[1], CLIP_LOW, &zero, NULL, NULL), RUNE_OK);
    float worst = 0.0f, travel = 0.0f;
    for (int f = 0; f < 40; f++) {
        for (int i = 0; i < 2; i++)
            assert_int_equal(rune_character_update(ch[i], 1.0f / 30.0f, NULL), RUNE_OK);
        worst = fmaxf(worst, pose_difference(rune_character_pose(ch[0]), rune_character_pose(ch[1])));
        rune_root_delta a = rune_character_root_delta(ch[0]), b = rune_character_root_delta(ch[1]);
        worst = fmaxf(worst, fmaxf(fabsf(a.dx - b.dx), fmaxf(fabsf(a.dz - b.dz), fabsf(a.yaw - b.yaw))));
        travel += fabsf(a.dx) + fabsf(a.dz);
    }
    print_message("sole graph in place against through its pose: %.3g\n", worst);
    assert_true(worst <= 1e-7f);
    assert_true(travel > 1e-3f); /* the root did travel */
    for (int i = 0; i < 2; i++)
        rune_character_destroy(ch[i]);
    rune_library_destroy(w.lib);
}

/* A character's first frame grows the mixer's scratch; when that fails
 * the frame does nothing: RUNE_E_NOMEM, the pose still the last frame's
 * (here the rest pose: a sole graph samples into the character's own
 * pose, so the scratch is grown before it does), no play advanced -- the
 * next frame gives what a character that never failed gives on its first. */
static void test_sole_graph_out_of_memory(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    counting_alloc ca;
    counting_alloc_init(&ca);
    rune_character *ch[2];
    rune_character_desc d = {.lib = w.lib, .root_joint = 0};
    for (int i = 0; i < 2; i++) {
        uint32_t g;
        assert_int_equal(rune_character_create(&d, &ca.iface, &ch[i], NULL), RUNE_OK);
        start_crowd(&w, ch[i], 0, &g, false);
    }
    const rune_pose *p = rune_character_pose(ch[0]);
    size_t lanes = 7 * p->stride; /* translation and rotation lanes, side by side */
    float *before = malloc((lanes + p->count) * sizeof *before);
    memcpy(before, p->tx, lanes * sizeof *before);
    memcpy(before + lanes, p->coverage, p->count * sizeof *before);
    ca.fail_at = ca.attempts + 1;
    rune_error err;
    assert_int_equal(rune_character_update(ch[0], 1.0f / 30.0f, &err), RUNE_E_NOMEM);
    assert_memory_equal(p->tx, before, lanes * sizeof *before);
    assert_memory_equal(p->coverage, before + lanes, p->count * sizeof *before);
    ca.fail_at = 0;
    for (int i = 0; i < 2; i++)
        assert_int_equal(rune_character_update(ch[i], 1.0f / 30.0f, NULL), RUNE_OK);
    assert_true(pose_difference(rune_character_pose(ch[0]), rune_character_pose(ch[1])) == 0.0f);
    free(before);
    for (int i = 0; i < 2; i++)
        rune_character_destroy(ch[i]);
    rune_library_destroy(w.lib);
    assert_int_equal(ca.live_bytes, 0);
}

/* A crowd through batches of 0, 1 and 3 workers (the last with streamed
 * matrices): the same poses, matrices and root travel, and after warm-up
 * no allocation per frame, even while graphs are
 * stopped and started again (their instances are reused). */
static void test_batch_crowd(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    world w;
    make_world(&w, &ca.iface);
    enum { CROWD = 37 };
    rune_character *sets[3][CROWD];
    uint32_t graphs[3][CROWD];
    rune_character_desc d = {.lib = w.lib, .root_joint = 0, .matrices = true};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < CROWD; i++) {
            d.stream_matrices = k == 2; /* the same bits written either way */
            assert_int_equal(rune_character_create(&d, &ca.iface, &sets[k][i], NULL), RUNE_OK);
            start_crowd(&w, sets[k][i], i, &graphs[k][i], true);
        }
    rune_batch *b[3];
    const size_t workers[3] = {0, 1, 3};
    for (int k = 0; k < 3; k++)
        assert_int_equal(rune_batch_create(workers[k], &ca.iface, &b[k], NULL), RUNE_OK);
    /* warm-up: every character stops its graph once and starts it again */
    for (int f = 0; f < 40; f++)
        for (int k = 0; k < 3; k++) {
            if (f == 10)
                for (int i = 0; i < CROWD; i++)
                    rune_character_stop(sets[k][i], graphs[k][i], 0.1f);
            if (f == 20)
                for (int i = 0; i < CROWD; i++)
                    start_crowd(&w, sets[k][i], i, &graphs[k][i], false);
            assert_int_equal(rune_batch_run(b[k], sets[k], CROWD, 1.0f / 60.0f), 0);
            for (int i = 0; i < CROWD; i++)
                rune_character_deliver(sets[k][i], NULL, NULL);
        }
    size_t before = ca.allocs;
    float travel = 0.0f;
    for (int f = 40; f < 120; f++)
        for (int k = 0; k < 3; k++) {
            if (f == 60)
                for (int i = 0; i < CROWD; i++)
                    rune_character_stop(sets[k][i], graphs[k][i], 0.1f);
            if (f == 80)
                for (int i = 0; i < CROWD; i++)
                    start_crowd(&w, sets[k][i], i, &graphs[k][i], false);
            assert_int_equal(rune_batch_run(b[k], sets[k], CROWD, 1.0f / 60.0f), 0);
            for (int i = 0; i < CROWD; i++) {
                rune_character_deliver(sets[k][i], NULL, NULL);
                if (k == 0 && i == 1)
                    travel += rune_character_root_delta(sets[k][i]).dz;
            }
        }
    assert_int_equal(ca.allocs, before);
    assert_true(travel > 0.1f); /* the blend space walked */
    for (int i = 0; i < CROWD; i++) {
        const rune_pose *p0 = rune_character_pose(sets[0][i]);
        const rune_mat4 *m0 = rune_character_model_matrices(sets[0][i]);
        assert_true(((uintptr_t)m0 & 63u) == 0); /* a matrix a line */
        for (int k = 1; k < 3; k++) {
            const rune_pose *pk = rune_character_pose(sets[k][i]);
            /* every channel, bit for bit: they are one block from tx on */
            assert_memory_equal(p0->tx, pk->tx, 11 * p0->stride * sizeof(float));
            assert_memory_equal(m0, rune_character_model_matrices(sets[k][i]), JOINTS * sizeof *m0);
            rune_root_delta r0 = rune_character_root_delta(sets[0][i]), rk = rune_character_root_delta(sets[k][i]);
            assert_memory_equal(&r0, &rk, sizeof r0);
        }
    }
    for (int k = 0; k < 3; k++) {
        rune_batch_destroy(b[k]);
        for (int i = 0; i < CROWD; i++)
            rune_character_destroy(sets[k][i]);
    }
    rune_library_destroy(w.lib);
    assert_int_equal(ca.live_bytes, 0);
}

/* Fails allocation k of building the world, creating a character and
 * starting every kind of play, for every k until it all succeeds: each
 * failure is an error (never a crash) and destroying frees everything. */
/* A mesh's skinning matrices from the character: this frame's, and with
 * `previous` the frame before's (the first frame's previous is its
 * current); a sole clip playing, so its run samples straight into the
 * character's pose, which the previous frame's matrices must not follow. */
static void test_previous_skinning(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_character *ch = new_character(&w, NULL);
    rune_play_params full = {.fade = 0.0f, .weight = 1.0f, .speed = 1.0f};
    assert_int_equal(rune_character_play_clip(ch, CLIP_C, &full, NULL, NULL), RUNE_OK);
    int32_t joints[JOINTS];
    rune_mat4 inverse[JOINTS], now[JOINTS], before[JOINTS], kept[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        joints[j] = JOINTS - 1 - j, inverse[j] = rune_mat4_identity(); /* binds in another order */
    rune_mesh mesh = {0};
    mesh.bind_count = JOINTS, mesh.bind_joints = joints, mesh.inverse_binds = inverse;
    assert_int_equal(rune_character_update(ch, 1.0f / 30.0f, NULL), RUNE_OK);
    assert_true(rune_character_skinning_matrices(ch, &mesh, false, now));
    assert_true(rune_character_skinning_matrices(ch, &mesh, true, before));
    assert_memory_equal(now, before, sizeof now); /* nothing kept yet: the current frame */
    for (int f = 0; f < 10; f++) {
        memcpy(kept, now, sizeof now);
        assert_int_equal(rune_character_update(ch, 1.0f / 30.0f, NULL), RUNE_OK);
        assert_true(rune_character_skinning_matrices(ch, &mesh, false, now));
        assert_true(rune_character_skinning_matrices(ch, &mesh, true, before));
        assert_memory_equal(before, kept, sizeof kept);
        const rune_mat4 *model = rune_character_model_matrices(ch);
        assert_memory_equal(&now[0], &model[JOINTS - 1], sizeof now[0]);
    }
    assert_true(memcmp(now, before, sizeof now) != 0); /* the clip moves */
    /* skipping a frame's matrices: the next update makes them */
    memcpy(kept, now, sizeof now);
    assert_int_equal(rune_character_update(ch, 1.0f / 30.0f, NULL), RUNE_OK);
    assert_int_equal(rune_character_update(ch, 1.0f / 30.0f, NULL), RUNE_OK);
    assert_true(rune_character_skinning_matrices(ch, &mesh, true, before));
    assert_true(memcmp(before, kept, sizeof kept) != 0);
    joints[0] = JOINTS;
    assert_false(rune_character_skinning_matrices(ch, &mesh, false, now));
    rune_character_destroy(ch);
    rune_library_destroy(w.lib);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    size_t k = 1;
    for (;; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_library *lib = NULL;
        rune_character *ch = NULL;
        rune_joint_desc joints[2] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}, {"Arm", "Root", {{0, 1, 0}, {0, 0, 0, 1}}}};
        rune_key_pose_desc pose = {"Root", "Arm", {1, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        rune_keyframe_desc kf[2] = {{0, &pose, 1}, {1, &pose, 1}};
        rune_sequence_desc clip = {"c", 0, true, 0, kf, 2, NULL, 0};
        rune_motion_sample_desc sm = {-1, 0, 0, {0, 0}, 1};
        rune_motion_node_desc node = {RUNE_MOTION_BLEND1D, 0, 0, RUNE_BLEND2D_CARTESIAN, &sm, 1};
        rune_param_desc pd = {RUNE_PARAM_FLOAT, 0};
        const char *pn = "x";
        uint32_t p, m, g;
        rune_status st = rune_library_create(joints, 2, &ca.iface, &lib, NULL);
        if (!st)
            st = rune_library_add_param(lib, "x", &p, NULL);
        if (!st)
            st = rune_library_add_clip(lib, &clip, NULL, NULL);
        if (!st)
            st = rune_library_add_motion(lib, "m", 0, &node, 1, &m, NULL);
        const rune_motion *cm = st ? NULL : rune_library_clip_motion(lib, 0);
        if (!st && !cm)
            st = RUNE_E_NOMEM;
        if (!st) {
            rune_state_desc s = {cm, 1, -1, "S"};
            rune_layer_desc l = {RUNE_LAYER_OVERRIDE, 1, &s, 1, 0, NULL, 0, NULL, 0, "L"};
            rune_graph_desc gd = {&pd, 1, &l, 1, &pn};
            st = rune_library_add_graph(lib, "g", 0, &gd, &g, NULL);
        }
        rune_character_desc cd = {.lib = lib, .root_joint = 0, .matrices = true};
        if (!st)
            st = rune_character_create(&cd, &ca.iface, &ch, NULL);
        if (!st)
            st = rune_character_play_clip(ch, 0, NULL, NULL, NULL);
        if (!st)
            st = rune_character_play_motion(ch, m, NULL, NULL, NULL);
        if (!st)
            st = rune_character_start_graph(ch, g, NULL, NULL, NULL);
        for (int f = 0; !st && f < 3; f++)
            st = rune_character_update(ch, 0.1f, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_character_destroy(ch);
        rune_library_destroy(lib);
        if (ca.live_bytes)
            counting_alloc_report(&ca);
        assert_int_equal(ca.live_bytes, 0);
        if (st == RUNE_OK && ca.attempts < k)
            break;
    }
    assert_true(k > 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equivalent_paths),
        cmocka_unit_test(test_previous_skinning),
        cmocka_unit_test(test_crossfade_matches_tracks),
        cmocka_unit_test(test_sole_graph_in_place),
        cmocka_unit_test(test_sole_graph_out_of_memory),
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_batch_crowd),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
