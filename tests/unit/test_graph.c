/* Unit tests of src/graph (and the rig's masks): mask resolution, the
 * event-based phase map of sync groups, graph validation, and that running
 * a graph allocates nothing per frame. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/graph.h"
#include "../../src/graph/graph_internal.h"
#include "counting_alloc.h"
#include "graph/graph_api_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))
#define J(part, parent) {part, parent, {{0, 0, 0}, {0, 0, 0, 1}}}

static void test_mask_resolution(void **state)
{
    (void)state;
    const rune_joint_desc joints[] = {J("Root", NULL), J("Spine", "Root"), J("Neck", "Spine"),
                                      J("Head", "Neck"), J("Jaw", "Head"), J("Leg", "Root")};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(joints, 6, NULL, &rig, NULL), RUNE_OK);
    /* Spine .8 propagating; Head .3 propagating (overrides for its subtree);
     * Neck .1 not propagating */
    const rune_mask_entry e[] = {{1, 0.8f, true}, {3, 0.3f, true}, {2, 0.1f, false}};
    float w[6];
    rune_mask_resolve(rig, e, 3, w);
    near(w[0], 0, 0);    /* Root: nothing above */
    near(w[1], 0.8f, 0); /* Spine: own */
    near(w[2], 0.1f, 0); /* Neck: own entry overrides the inherited .8 */
    near(w[3], 0.3f, 0); /* Head: own */
    near(w[4], 0.3f, 0); /* Jaw: nearest propagating ancestor is Head */
    near(w[5], 0, 0);    /* Leg: no applicable entry */
    /* a joint under a non-propagating entry looks through it */
    const rune_mask_entry e2[] = {{1, 0.8f, true}, {2, 0.1f, false}};
    rune_mask_resolve(rig, e2, 2, w);
    near(w[3], 0.8f, 0);
    rune_rig_destroy(rig);
}

static rune_clip *marker_clip(const char *id, float length, const rune_marker_desc *m, size_t n)
{
    rune_key_pose_desc p = {"", "Root", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    rune_keyframe_desc kf[2] = {{0.0f, &p, 1}, {length, &p, 1}};
    rune_sequence_desc d = {id, 0, true, 0, kf, 2, m, n};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static void test_sync_map_time(void **state)
{
    (void)state;
    const rune_marker_desc wm[] = {{0.125f, "left", ""}, {0.375f, "right", ""}, {0.625f, "left", ""},
                                   {0.875f, "right", ""}};
    const rune_marker_desc rm[] = {{0.2f, "left", ""}, {0.9f, "right", ""}};
    rune_clip *walk = marker_clip("walk", 1.0f, wm, 4), *run = marker_clip("run", 1.4f, rm, 2);
    float t;
    /* .6: after the 1st right (.375), before left (.625): u = .9 ->
     * run right .9 .. left 1.6: .9 + .9 * .7 = 1.53 -> .13 */
    assert_true(rune__sync_map_time(walk, 0.6f, run, &t));
    near(t, 0.13f, 1e-5f);
    /* .7: after the 2nd left: u = .3 -> .2 + .3 * .7 = .41 */
    assert_true(rune__sync_map_time(walk, 0.7f, run, &t));
    near(t, 0.41f, 1e-5f);
    /* .05: before the first event: between last cycle's right (-.125) and
     * left (.125): u = (.05 + .125) / .25 = .7. That right is the 2nd
     * occurrence -> run's only right (.9 - 1.4 = -.5 .. left .2):
     * -.5 + .7 * .7 = -.01 -> wrapped 1.39 */
    assert_true(rune__sync_map_time(walk, 0.05f, run, &t));
    near(t, 1.39f, 1e-5f);
    /* reverse: run .55 (between left .2 and right .9, u = .5) -> walk's
     * 1st left .125 .. right .375: .25 */
    assert_true(rune__sync_map_time(run, 0.55f, walk, &t));
    near(t, 0.25f, 1e-5f);
    /* no shared names: no map */
    const rune_marker_desc other[] = {{0.5f, "clap", ""}};
    rune_clip *clap = marker_clip("clap", 1.0f, other, 1);
    assert_false(rune__sync_map_time(walk, 0.5f, clap, &t));
    rune_clip_destroy(clap);
    rune_clip_destroy(walk);
    rune_clip_destroy(run);
}

typedef struct world {
    rune_rig *rig;
    rune_clip *clip[2];
    rune_binding *bind[2];
    rune_motion *motion[2];
} world;

static void make_world(world *w, const rune_allocator *a)
{
    const rune_joint_desc joints[] = {J("Root", NULL), J("Arm", "Root")};
    assert_int_equal(rune_rig_create(joints, 2, a, &w->rig, NULL), RUNE_OK);
    for (int i = 0; i < 2; i++) {
        rune_key_pose_desc p0 = {"Root", "Arm", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        rune_key_pose_desc p1 = p0;
        p1.t.x = (float)(i + 1);
        rune_keyframe_desc kf[2] = {{0.0f, &p0, 1}, {1.0f, &p1, 1}};
        rune_marker_desc m[1] = {{0.5f, "tick", ""}};
        rune_sequence_desc d = {i ? "b" : "a", 0, true, 0, kf, 2, m, 1};
        assert_int_equal(rune_clip_compile(&d, a, &w->clip[i], NULL), RUNE_OK);
        assert_int_equal(rune_binding_create(w->rig, w->clip[i], 0, a, &w->bind[i], NULL), RUNE_OK);
        rune_motion_sample_desc s = {-1, (uint32_t)i, 0, {0, 0}, 1};
        rune_motion_node_desc n = {RUNE_MOTION_CLIP, 0, 0, 0, &s, 1};
        assert_int_equal(rune_motion_create(&n, 1, 1, 2, a, &w->motion[i], NULL), RUNE_OK);
    }
}

static void free_world(world *w)
{
    for (int i = 0; i < 2; i++) {
        rune_motion_destroy(w->motion[i]);
        rune_binding_destroy(w->bind[i]);
        rune_clip_destroy(w->clip[i]);
    }
    rune_rig_destroy(w->rig);
}

static void test_graph_validation(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_param_desc params[1] = {{RUNE_PARAM_FLOAT, 0}};
    rune_state_desc states[2] = {{w.motion[0], 1, -1, "Idle"}, {w.motion[1], 1, -1, "Walk"}};
    rune_condition_desc trig_on_float = {0, RUNE_COND_TRIGGERED, 0};
    rune_transition_desc t = {0, 1, 0.1f, false, 0, true, &trig_on_float, 1};
    rune_layer_desc layer = {RUNE_LAYER_OVERRIDE, 1, states, 2, 0, &t, 1, NULL, 0, "base"};
    const char *names[1] = {"speed"};
    rune_graph_desc d = {params, 1, &layer, 1, names};
    rune_graph *g;
    rune_error err;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "layers[0].transitions[0].conditions[0]: only triggers"));
    t.condition_count = 0;
    t.to = 5;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "layers[0].transitions[0].to"));
    t.to = 1;
    rune_mask_entry m = {9, 1, false};
    layer.mask = &m;
    layer.mask_count = 1;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "layers[0].mask[0]"));
    layer.mask = NULL;
    layer.initial_state = 2;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, &err), RUNE_E_INVALID);
    layer.initial_state = 0;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, &err), RUNE_OK);
    /* names are looked up once; a misspelt one is an error with a hint */
    uint32_t i = 99;
    assert_int_equal(rune_graph_find_param(g, "speed", &i, &err), RUNE_OK);
    assert_int_equal(i, 0);
    assert_int_equal(rune_graph_find_layer(g, "base", &i, &err), RUNE_OK);
    assert_int_equal(i, 0);
    assert_int_equal(rune_graph_find_state(g, 0, "Walk", &i, &err), RUNE_OK);
    assert_int_equal(i, 1);
    assert_int_equal(rune_graph_find_param(g, "sped", &i, &err), RUNE_E_NOT_FOUND);
    assert_string_equal(err.message, "no parameter \"sped\" in the graph (did you mean \"speed\"?)");
    assert_int_equal(rune_graph_find_state(g, 0, "Jump", &i, &err), RUNE_E_NOT_FOUND);
    assert_string_equal(err.message, "no state \"Jump\" in the graph");
    assert_int_equal(rune_graph_find_state(g, 3, "Walk", &i, &err), RUNE_E_NOT_FOUND);
    assert_string_equal(rune_graph_state_name(g, 0, 1), "Walk");
    assert_string_equal(rune_graph_layer_name(g, 0), "base");
    rune_graph_destroy(g);
    free_world(&w);
}

static void test_graph_frames_allocate_nothing(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    world w;
    make_world(&w, &ca.iface);
    rune_param_desc params[1] = {{RUNE_PARAM_TRIGGER, 0}};
    rune_state_desc states[2] = {{w.motion[0], 1, 0, NULL}, {w.motion[1], 1, 0, NULL}};
    rune_condition_desc go = {0, RUNE_COND_TRIGGERED, 0};
    rune_transition_desc ts[2] = {{0, 1, 0.3f, false, 0, true, &go, 1}, {1, 0, 0.3f, true, 0.5f, true, NULL, 0}};
    rune_layer_desc layers[2] = {{RUNE_LAYER_OVERRIDE, 1, states, 2, 0, ts, 2, NULL, 0, NULL},
                                 {RUNE_LAYER_ADDITIVE, 0.5f, states, 2, 1, NULL, 0, NULL, 0, NULL}};
    rune_graph_desc d = {params, 1, layers, 2, NULL};
    rune_graph *g;
    rune_graph_instance *inst;
    assert_int_equal(rune_graph_create(&d, w.rig, &ca.iface, &g, NULL), RUNE_OK);
    const rune_binding *binds[2] = {w.bind[0], w.bind[1]};
    assert_int_equal(rune_graph_instance_create(g, binds, &ca.iface, &inst, NULL), RUNE_OK);
    rune_signal_queue q;
    assert_int_equal(rune_signal_queue_init(&q, 64, &ca.iface, NULL), RUNE_OK);
    rune_pose out;
    assert_int_equal(rune_pose_init(&out, 2, &ca.iface, NULL), RUNE_OK);
    size_t before = ca.allocs;
    size_t transitions = 0;
    for (int f = 0; f < 1000; f++) {
        if (f % 37 == 0)
            rune_graph_trigger(inst, 0);
        if (f % 101 == 0)
            rune_graph_travel(inst, 0, (uint32_t)(f / 101 % 2));
        bool was = rune_graph_in_transition(inst, 0);
        rune_graph_update(inst, 1.0f / 60.0f, &q, 1);
        transitions += !was && rune_graph_in_transition(inst, 0);
        rune_graph_evaluate(inst, &out);
        for (size_t j = 0; j < 2; j++)
            assert_true(isfinite(out.tx[j]) && isfinite(out.qw[j]) && isfinite(out.coverage[j]));
        rune_signal_queue_clear(&q);
    }
    assert_int_equal(ca.allocs, before);
    assert_true(transitions > 10); /* the loop really cross-faded */
    rune_pose_release(&out);
    rune_signal_queue_release(&q);
    rune_graph_instance_destroy(inst);
    rune_graph_destroy(g);
    free_world(&w);
    assert_int_equal(ca.live_bytes, 0);
}

/* Sync groups are handled each on its own: layers 0 and 2 share group 7
 * (layer 0 leads at weight 1 against 0.5), layer 1 is alone in group 3
 * and a state of layer 0 is in none. Worked by hand for one 0.1 s update
 * of 1 s clips: A advances 0.1 cycle at speed 1; C would reach 0.2 at
 * speed 2 but adopts A's phase (both clips tick at 0.5, so the event map
 * gives the same phase); B keeps its own 0.3 at speed 3. The graph lists
 * its groups once, in the order of their first state. */
static void test_sync_groups_each_their_own(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_state_desc s0[2] = {{w.motion[0], 1, 7, "A"}, {w.motion[1], 1, -1, "Idle"}};
    rune_state_desc s1[1] = {{w.motion[1], 3, 3, "B"}};
    rune_state_desc s2[1] = {{w.motion[0], 2, 7, "C"}};
    rune_layer_desc layers[3] = {{RUNE_LAYER_OVERRIDE, 1, s0, 2, 0, NULL, 0, NULL, 0, NULL},
                                 {RUNE_LAYER_OVERRIDE, 1, s1, 1, 0, NULL, 0, NULL, 0, NULL},
                                 {RUNE_LAYER_OVERRIDE, 0.5f, s2, 1, 0, NULL, 0, NULL, 0, NULL}};
    rune_param_desc params[1] = {{RUNE_PARAM_FLOAT, 0}}; /* the world's motions take one */
    rune_graph_desc d = {params, 1, layers, 3, NULL};
    rune_graph *g;
    rune_graph_instance *inst;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, NULL), RUNE_OK);
    assert_int_equal(g->sync_group_count, 2);
    assert_int_equal(g->sync_groups[0], 7);
    assert_int_equal(g->sync_groups[1], 3);
    const rune_binding *binds[2] = {w.bind[0], w.bind[1]};
    assert_int_equal(rune_graph_instance_create(g, binds, NULL, &inst, NULL), RUNE_OK);
    rune_signal_queue q;
    assert_int_equal(rune_signal_queue_init(&q, 16, NULL, NULL), RUNE_OK);
    rune_graph_update(inst, 0.1f, &q, 1);
    static const double expect[3] = {0.1, 0.3, 0.1};
    for (uint32_t li = 0; li < 3; li++) {
        rune_graph_play_view v[2];
        assert_int_equal(rune_graph_layer_plays(inst, li, v), 1);
        near(v[0].to, expect[li], 1e-6f);
    }
    rune_signal_queue_release(&q);
    rune_graph_instance_destroy(inst);
    rune_graph_destroy(g);
    free_world(&w);
}

/* One override layer (weight `weight`) of states A and B, the world's
 * two clips, with a `fade` s interruptible transition each way on one
 * trigger (parameter 0). */
static void trigger_graph(world *w, float fade, float weight, rune_graph **g, rune_graph_instance **inst)
{
    make_world(w, NULL);
    rune_param_desc params[1] = {{RUNE_PARAM_TRIGGER, 0}};
    rune_state_desc states[2] = {{w->motion[0], 1, -1, "A"}, {w->motion[1], 1, -1, "B"}};
    rune_condition_desc go = {0, RUNE_COND_TRIGGERED, 0};
    rune_transition_desc ts[2] = {{0, 1, fade, false, 0, true, &go, 1}, {1, 0, fade, false, 0, true, &go, 1}};
    rune_layer_desc layer = {RUNE_LAYER_OVERRIDE, weight, states, 2, 0, ts, 2, NULL, 0, NULL};
    rune_graph_desc d = {params, 1, &layer, 1, NULL};
    assert_int_equal(rune_graph_create(&d, w->rig, NULL, g, NULL), RUNE_OK);
    const rune_binding *binds[2] = {w->bind[0], w->bind[1]};
    assert_int_equal(rune_graph_instance_create(*g, binds, NULL, inst, NULL), RUNE_OK);
}

/* trigger_graph's world, graph and instance, and a pose of its rig to
 * evaluate into. */
typedef struct trigger_case {
    world w;
    rune_graph *g;
    rune_graph_instance *inst;
    rune_pose out;
} trigger_case;

static void trigger_case_open(trigger_case *c, float fade, float weight)
{
    trigger_graph(&c->w, fade, weight, &c->g, &c->inst);
    assert_int_equal(rune_pose_init(&c->out, 2, NULL, NULL), RUNE_OK);
}

static void trigger_case_close(trigger_case *c)
{
    rune_pose_release(&c->out);
    rune_graph_instance_destroy(c->inst);
    rune_graph_destroy(c->g);
    free_world(&c->w);
}

/* What tools read of a layer (rune_graph_layer_view_of): the state, the
 * state faded from and how far, and a fade that starts from the frozen
 * pose of an interrupted transition. Worked by hand: a 0.3 s transition
 * A -> B on a trigger, interruptible; a second trigger mid-way sends B
 * back to A from the frozen pose. */
static void test_layer_view(void **state)
{
    (void)state;
    world w;
    rune_graph *g;
    rune_graph_instance *inst;
    trigger_graph(&w, 0.3f, 0.8f, &g, &inst);
    rune_graph_update(inst, 0.1f, NULL, 0);
    rune_graph_layer_view v = rune_graph_layer_view_of(inst, 0);
    assert_int_equal(v.state, 0); /* A, not fading */
    assert_int_equal(v.from_state, -1);
    assert_true(v.alpha == 1.0f && !v.interrupted);
    assert_true(fabsf(v.weight - 0.8f) < 1e-6f);
    rune_graph_trigger(inst, 0);
    rune_graph_update(inst, 0.1f, NULL, 0); /* A -> B starts at the end of this update */
    v = rune_graph_layer_view_of(inst, 0);
    assert_int_equal(v.state, 1);
    assert_int_equal(v.from_state, 0);
    assert_true(v.alpha == 0.0f && !v.interrupted);
    rune_graph_update(inst, 0.1f, NULL, 0); /* 0.1 s of 0.3 into the fade */
    v = rune_graph_layer_view_of(inst, 0);
    assert_true(v.alpha > 0.0f && v.alpha < 1.0f && v.from_state == 0 && !v.interrupted);
    rune_graph_trigger(inst, 0);
    rune_graph_update(inst, 0.05f, NULL, 0); /* interrupted: B -> A from the frozen pose */
    v = rune_graph_layer_view_of(inst, 0);
    assert_int_equal(v.state, 0);
    assert_int_equal(v.from_state, -1);
    assert_true(v.interrupted && v.alpha < 1.0f);
    rune_graph_update(inst, 1.0f, NULL, 0); /* the fade is over */
    v = rune_graph_layer_view_of(inst, 0);
    assert_true(v.alpha == 1.0f && !v.interrupted && v.from_state == -1);
    rune_graph_instance_destroy(inst);
    rune_graph_destroy(g);
    free_world(&w);
}

/* A fade interrupted before any evaluation has blended it (updates
 * without evaluations between: a character the game updates but does not
 * pose this frame) freezes the fade's pose at the interruption, not an
 * older fade's or an unset one (docs/semantics.md). Worked by hand: A
 * moves Arm 0 -> 1 in 1 s, B 0 -> 2; A -> B on a trigger at A's 0.5 s
 * (0.4 s fade); 0.2 s later A is at 0.7 (x 0.7), B at 0.2 (x 0.4), alpha
 * 0.5, and a trigger sends B back to A: frozen x = 0.5 x 0.7 + 0.5 x 0.4
 * = 0.55, which the next evaluation shows at alpha 0. */
static void test_interrupt_before_evaluate(void **state)
{
    (void)state;
    trigger_case c;
    trigger_case_open(&c, 0.4f, 1.0f);
    rune_graph_update(c.inst, 0.25f, NULL, 0);
    rune_graph_evaluate(c.inst, &c.out); /* A steady: laid straight, no layer pose kept */
    near(c.out.tx[1], 0.25f, 1e-6f);
    rune_graph_trigger(c.inst, 0);
    rune_graph_update(c.inst, 0.25f, NULL, 0); /* A -> B at A's 0.5 */
    rune_graph_trigger(c.inst, 0);
    rune_graph_update(c.inst, 0.2f, NULL, 0); /* B -> A interrupts at alpha 0.5 */
    rune_graph_layer_view v = rune_graph_layer_view_of(c.inst, 0);
    assert_true(v.interrupted && v.state == 0);
    rune_graph_evaluate(c.inst, &c.out);
    near(c.out.tx[1], 0.55f, 1e-6f);
    near(c.out.coverage[1], 1.0f, 0.0f);
    /* 0.2 s on, halfway from the frozen 0.55 to the new A at 0.2 */
    rune_graph_update(c.inst, 0.2f, NULL, 0);
    rune_graph_evaluate(c.inst, &c.out);
    near(c.out.tx[1], 0.5f * 0.55f + 0.5f * 0.2f, 1e-6f);
    trigger_case_close(&c);
}

/* A fade evaluated against its three means through poses -- each play
 * sampled into a pose, their mean at 1 - alpha and alpha, that laid over
 * a reset pose at the layer's weight -- which the layer mixes a chunk at
 * a time without the sides' poses (rune_mix_fade_layer): the same bits in
 * the result and in the layer's pose an interruption freezes, fading from
 * a play and then from that frozen pose. */
static void check_fade_against_poses(rune_graph_instance *inst, const rune_pose *out, float weight)
{
    const layer_run *l = &inst->layers[0];
    rune_pose a, b, last, expect;
    rune_pose *made[] = {&a, &b, &last, &expect};
    for (int i = 0; i < 4; i++)
        assert_int_equal(rune_pose_init(made[i], out->count, NULL, NULL), RUNE_OK);
    float alpha = rune__graph_alpha(l);
    if (l->frozen)
        rune_pose_copy(&a, &l->pose[LP_FROZEN]);
    else
        rune_motion_player_sample(inst->slots[l->src].player, &a);
    rune_motion_player_sample(inst->slots[l->cur].player, &b);
    rune_contribution both[2] = {{&a, 1.0f - alpha, 0, NULL}, {&b, alpha, 0, NULL}};
    rune_mix_mean(both, 2, RUNE_SIMD_AUTO, &last);
    rune_mix_layer(&expect, &last, NULL, NULL, weight, RUNE_SIMD_AUTO);
    assert_memory_equal(last.tx, l->pose[LP_LAST].tx, 7 * last.stride * sizeof(float)); /* tx .. qw */
    assert_memory_equal(last.coverage, l->pose[LP_LAST].coverage, last.stride * sizeof(float));
    assert_memory_equal(expect.tx, out->tx, 7 * out->stride * sizeof(float));
    assert_memory_equal(expect.coverage, out->coverage, out->stride * sizeof(float));
    for (int i = 0; i < 4; i++)
        rune_pose_release(made[i]);
}

static void test_fade_matches_poses(void **state)
{
    (void)state;
    trigger_case c;
    trigger_case_open(&c, 0.4f, 0.8f);
    rune_graph_update(c.inst, 0.25f, NULL, 0);
    rune_graph_trigger(c.inst, 0);
    rune_graph_update(c.inst, 0.1f, NULL, 0); /* A -> B fires */
    rune_graph_update(c.inst, 0.1f, NULL, 0); /* alpha 0.25 */
    rune_graph_evaluate(c.inst, &c.out);
    assert_false(c.inst->layers[0].frozen);
    near(rune__graph_alpha(&c.inst->layers[0]), 0.25f, 1e-6f);
    check_fade_against_poses(c.inst, &c.out, 0.8f);
    rune_graph_trigger(c.inst, 0);
    rune_graph_update(c.inst, 0.1f, NULL, 0); /* B -> A from the frozen pose */
    rune_graph_update(c.inst, 0.15f, NULL, 0); /* alpha 0.375 */
    rune_graph_evaluate(c.inst, &c.out);
    assert_true(c.inst->layers[0].frozen && c.inst->layers[0].fading);
    near(rune__graph_alpha(&c.inst->layers[0]), 0.375f, 1e-6f);
    check_fade_against_poses(c.inst, &c.out, 0.8f);
    near(c.out.coverage[1], 0.8f, 1e-6f);
    trigger_case_close(&c);
}

/* An instance makes only what its graph can use: a state's second play
 * slot only where a transition can enter the state while it plays (here
 * A -> A), a layer's poses only where a lasting transition can fade it
 * (the second layer, B with no transitions, has none), and of a fading
 * override layer of unscaled clips only its pose and the frozen pose. The self
 * cross-fade, worked by hand: A moves x 0 -> 1 in 1 s; at A's 0.6 a
 * trigger restarts A with a 0.4 s fade: that frame shows 0.6 (alpha 0);
 * 0.2 s on the source is at 0.8, the new play at 0.2, alpha 0.5: 0.5. */
static void test_self_transition_and_what_is_made(void **state)
{
    (void)state;
    world w;
    make_world(&w, NULL);
    rune_param_desc params[1] = {{RUNE_PARAM_TRIGGER, 0}};
    rune_state_desc states[2] = {{w.motion[0], 1, -1, "A"}, {w.motion[1], 1, -1, "B"}};
    rune_condition_desc go = {0, RUNE_COND_TRIGGERED, 0};
    rune_transition_desc again = {0, 0, 0.4f, false, 0, true, &go, 1};
    rune_layer_desc layers[2] = {{RUNE_LAYER_OVERRIDE, 1, &states[0], 1, 0, &again, 1, NULL, 0, NULL},
                                 {RUNE_LAYER_OVERRIDE, 0, &states[1], 1, 0, NULL, 0, NULL, 0, NULL}};
    rune_graph_desc d = {params, 1, layers, 2, NULL};
    rune_graph *g;
    rune_graph_instance *inst;
    assert_int_equal(rune_graph_create(&d, w.rig, NULL, &g, NULL), RUNE_OK);
    const rune_binding *binds[2] = {w.bind[0], w.bind[1]};
    assert_int_equal(rune_graph_instance_create(g, binds, NULL, &inst, NULL), RUNE_OK);
    assert_non_null(inst->slots[0].player); /* A, and its second slot for A -> A */
    assert_non_null(inst->slots[1].player);
    assert_non_null(inst->slots[2].player); /* B, entered by no transition */
    assert_null(inst->slots[3].player);
    /* the fading override layer: its pose and the frozen one; its sides
     * (unscaled clips, no curves) are mixed on the stack, and only an
     * additive layer has references */
    for (int k = 0; k < LP_COUNT; k++)
        assert_true((inst->layers[0].pose[k].block != NULL) == (k == LP_LAST || k == LP_FROZEN));
    for (int k = 0; k < LP_COUNT; k++)
        assert_null(inst->layers[1].pose[k].block);
    rune_pose out;
    assert_int_equal(rune_pose_init(&out, 2, NULL, NULL), RUNE_OK);
    rune_graph_update(inst, 0.5f, NULL, 0);
    rune_graph_evaluate(inst, &out);
    near(out.tx[1], 0.5f, 1e-6f);
    rune_graph_trigger(inst, 0);
    rune_graph_update(inst, 0.1f, NULL, 0);
    rune_graph_evaluate(inst, &out);
    near(out.tx[1], 0.6f, 1e-6f);
    rune_graph_update(inst, 0.2f, NULL, 0);
    rune_graph_evaluate(inst, &out);
    near(out.tx[1], 0.5f * 0.8f + 0.5f * 0.2f, 1e-6f);
    rune_graph_instance_reset(inst); /* skips what was never made */
    rune_pose_release(&out);
    rune_graph_instance_destroy(inst);
    rune_graph_destroy(g);
    free_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mask_resolution),
        cmocka_unit_test(test_sync_map_time),
        cmocka_unit_test(test_sync_groups_each_their_own),
        cmocka_unit_test(test_graph_validation),
        cmocka_unit_test(test_graph_frames_allocate_nothing),
        cmocka_unit_test(test_layer_view),
        cmocka_unit_test(test_interrupt_before_evaluate),
        cmocka_unit_test(test_self_transition_and_what_is_made),
        cmocka_unit_test(test_fade_matches_poses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
