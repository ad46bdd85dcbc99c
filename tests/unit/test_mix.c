/* Unit tests of src/mix: per-joint priority composition, hemisphere
 * alignment, controls, the animator's final pass, signal delivery after
 * composition, and zero allocations per frame. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/mix.h"
#include "counting_alloc.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

static rune_pose one_joint(float tx, rune_quat r, float cov)
{
    rune_pose p;
    assert_int_equal(rune_pose_init(&p, 1, NULL, NULL), RUNE_OK);
    p.t[0] = rune_v3(tx, 0, 0);
    p.r[0] = r;
    p.coverage[0] = cov;
    return p;
}

static void test_high_priority_partial_coverage(void **state)
{
    (void)state;
    rune_pose low = one_joint(4, rune_q_identity(), 1), high = one_joint(8, rune_q_identity(), 0.25f), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_pose acc;
    assert_int_equal(rune_pose_init(&acc, 1, NULL, NULL), RUNE_OK);
    /* listed high first: ranks, not list order, decide */
    rune_contribution cs[] = {{&high, 1.0f, RUNE_PRIORITY_ACTION, NULL}, {&low, 1.0f, RUNE_PRIORITY_IDLE, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, order, &acc, NULL, &out);
    /* low rank: 4 with coverage 1; high rank share .25 overlays: 4 + (8-4)*.25 = 5 */
    near(out.t[0].x, 5, 1e-6f);
    near(out.coverage[0], 1, 1e-6f);
    rune_pose_release(&low);
    rune_pose_release(&high);
    rune_pose_release(&out);
    rune_pose_release(&acc);
}

static void test_equal_priority_mean(void **state)
{
    (void)state;
    rune_quat y90 = rune_q(0, 0.70710678f, 0, 0.70710678f);
    rune_pose a = one_joint(2, rune_q_identity(), 1), b = one_joint(6, y90, 1), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_pose acc;
    assert_int_equal(rune_pose_init(&acc, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&a, 1.0f, 2, NULL}, {&b, 1.0f, 2, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, order, &acc, NULL, &out);
    /* one mean: (2 + 6) / 2 = 4; coverage min(1, 2) = 1;
     * rotation: normalize((0,0,0,1) + (0,.7071,0,.7071)) = 45 deg about Y */
    near(out.t[0].x, 4, 1e-6f);
    near(out.coverage[0], 1, 0);
    near(out.r[0].y, 0.38268343f, 1e-6f);
    near(out.r[0].w, 0.92387953f, 1e-6f);
    /* weights .75 and .25 (shares): t = (.75*2 + .25*6) / 1 = 3 */
    cs[0].weight = 0.75f;
    cs[1].weight = 0.25f;
    rune_mix_compose(cs, 2, order, &acc, NULL, &out);
    near(out.t[0].x, 3, 1e-6f);
    rune_pose_release(&a);
    rune_pose_release(&b);
    rune_pose_release(&out);
    rune_pose_release(&acc);
}

static void test_opposite_sign_quaternions(void **state)
{
    (void)state;
    rune_quat q = rune_q(0, 0.38268343f, 0, 0.92387953f);
    rune_pose a = one_joint(0, q, 1), b = one_joint(0, rune_q_negate(q), 1), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_pose acc;
    assert_int_equal(rune_pose_init(&acc, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&a, 1.0f, 0, NULL}, {&b, 1.0f, 0, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, order, &acc, NULL, &out);
    /* q and -q are one rotation: the mean is q, not a cancelled zero */
    near(fabsf(rune_q_dot(out.r[0], q)), 1, 1e-6f);
    rune_pose_release(&a);
    rune_pose_release(&b);
    rune_pose_release(&out);
    rune_pose_release(&acc);
}

static void test_uncovered_joint_does_not_reset(void **state)
{
    (void)state;
    rune_pose low = one_joint(4, rune_q_identity(), 1), high = one_joint(0, rune_q_identity(), 0), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_pose acc;
    assert_int_equal(rune_pose_init(&acc, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&low, 1.0f, 0, NULL}, {&high, 1.0f, 6, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, order, &acc, NULL, &out);
    near(out.t[0].x, 4, 0); /* the identity storage of the unkeyed joint is ignored */
    rune_pose_release(&low);
    rune_pose_release(&high);
    rune_pose_release(&out);
    rune_pose_release(&acc);
}

static void test_controls_in_priority_order(void **state)
{
    (void)state;
    rune_pose p = one_joint(0, rune_q_identity(), 0);
    rune_control cs[] = {
        {1, 0, 5, RUNE_CONTROL_OVERRIDE, {{10, 0, 0}, {0, 0, 0, 1}}, 0.5f, true, false},
        {2, 0, 1, RUNE_CONTROL_OFFSET, {{2, 0, 0}, {0, 0, 0, 1}}, 1.0f, false, false},
    };
    size_t order[2];
    rune_controls_apply(cs, 2, order, &p);
    /* priority 1 first: 0 + 2 = 2 (coverage 0 -> 1); then priority 5:
     * 2 + (10 - 2) * .5 = 6 */
    near(p.t[0].x, 6, 1e-6f);
    near(p.coverage[0], 1, 1e-6f);
    rune_pose_release(&p);
}

typedef struct scene {
    rune_rig *rig;
    rune_clip *clip;
    rune_binding *binding;
} scene;

static void make_scene(scene *s, const rune_allocator *alloc, bool loop)
{
    static const rune_joint_desc joints[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}},
                                             {"Arm", "Root", {{0, 1, 0}, {0, 0, 0, 1}}}};
    static rune_key_pose_desc p0[1], p1[1];
    p0[0] = (rune_key_pose_desc){"Root", "Arm", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    p1[0] = p0[0];
    p1[0].t.x = 1;
    static rune_keyframe_desc kf[2];
    kf[0] = (rune_keyframe_desc){0.0f, p0, 1};
    kf[1] = (rune_keyframe_desc){1.0f, p1, 1};
    static const rune_marker_desc m[] = {{0.5f, "Mid", ""}};
    rune_sequence_desc d = {"c", 0, loop, 0, kf, 2, m, 1};
    assert_int_equal(rune_rig_create(joints, 2, alloc, &s->rig, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compile(&d, alloc, &s->clip, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(s->rig, s->clip, 0, alloc, &s->binding, NULL), RUNE_OK);
}

static void free_scene(scene *s)
{
    rune_binding_destroy(s->binding);
    rune_clip_destroy(s->clip);
    rune_rig_destroy(s->rig);
}

typedef struct seen {
    rune_animator *anim;
    float arm_x_at_marker;
    int markers, stops;
} seen;

static void on_signal(void *user, const rune_event *e)
{
    seen *s = user;
    if (e->kind == RUNE_EVENT_MARKER) {
        s->markers++;
        s->arm_x_at_marker = rune_animator_pose(s->anim)->t[1].x;
    }
    s->stops += e->kind == RUNE_EVENT_STOPPED;
}

static void test_signal_sees_new_pose(void **state)
{
    (void)state;
    scene s;
    make_scene(&s, NULL, false);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, NULL, &a, NULL), RUNE_OK);
    rune_play_params p = {0.0f, 1.0f, 1.0f, 0.0f};
    assert_int_equal(rune_animator_play(a, s.binding, &p, NULL, NULL), RUNE_OK);
    seen sn = {a, -1, 0, 0};
    rune_animator_advance(a, 0.25f);
    assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.markers, 0);
    rune_animator_advance(a, 0.25f); /* crosses Mid at .5 */
    assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.markers, 1);
    near(sn.arm_x_at_marker, 0.5f, 1e-6f); /* the pose of this frame, not the last */
    rune_animator_destroy(a);
    free_scene(&s);
}

static void test_final_pass_after_last_track(void **state)
{
    (void)state;
    scene s;
    make_scene(&s, NULL, true);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, NULL, &a, NULL), RUNE_OK);
    rune_play_params p = {0.0f, 1.0f, 1.0f, 0.0f};
    uint32_t h;
    assert_int_equal(rune_animator_play(a, s.binding, &p, &h, NULL), RUNE_OK);
    seen sn = {a, 0, 0, 0};
    rune_animator_advance(a, 0.5f);
    rune_animator_evaluate(a, NULL, 0, NULL);
    near(rune_animator_pose(a)->t[1].x, 0.5f, 1e-6f);
    assert_true(rune_animator_stop(a, h, 0.0f));
    rune_animator_advance(a, 0.1f); /* weight already 0: removed, stopped signal */
    assert_int_equal(rune_animator_track_count(a), 0);
    size_t passes = rune_animator_passes(a);
    rune_animator_evaluate(a, NULL, 0, NULL);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.stops, 1);
    assert_int_equal(rune_animator_passes(a), passes + 1); /* the final pass ran */
    near(rune_animator_pose(a)->t[1].x, 0, 0);            /* not frozen at .5 */
    near(rune_animator_pose(a)->coverage[1], 0, 0);
    rune_animator_evaluate(a, NULL, 0, NULL);
    assert_int_equal(rune_animator_passes(a), passes + 1); /* then idle */
    assert_false(rune_animator_stop(a, h, 0.0f));
    rune_animator_destroy(a);
    free_scene(&s);
}

static void test_no_allocation_per_frame(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    scene s;
    make_scene(&s, &ca.iface, true);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, &ca.iface, &a, NULL), RUNE_OK);
    uint32_t h[5];
    for (int i = 0; i < 5; i++) {
        rune_play_params p = {0.1f, 0.5f, 1.0f + 0.1f * (float)i, 0.0f};
        assert_int_equal(rune_animator_play(a, s.binding, &p, &h[i], NULL), RUNE_OK);
    }
    rune_control c = {1, 1, 0, RUNE_CONTROL_OFFSET, {{0, 0, 0}, {0, 0.1f, 0, 0.995f}}, 1.0f, false, false};
    assert_int_equal(rune_animator_set_control(a, &c, NULL), RUNE_OK);
    /* warm-up frame */
    rune_animator_advance(a, 1.0f / 60.0f);
    rune_animator_evaluate(a, NULL, 0, NULL);
    rune_animator_deliver(a, NULL, NULL);
    size_t before = ca.allocs;
    for (int f = 0; f < 1000; f++) {
        if (f == 500) {
            rune_adjust_params adj = {true, 1.0f, 0.2f, true, -1.0f};
            rune_animator_adjust(a, h[2], &adj);
        }
        rune_animator_advance(a, 1.0f / 60.0f);
        rune_animator_evaluate(a, NULL, 0, NULL);
        rune_animator_deliver(a, NULL, NULL);
    }
    assert_int_equal(ca.allocs, before);
    rune_animator_destroy(a);
    free_scene(&s);
    assert_int_equal(ca.live_bytes, 0);
}

/* Batch evaluation: the same poses whatever the worker count, and no
 * allocation per frame. */
static void test_batch_deterministic(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    scene s;
    make_scene(&s, &ca.iface, true);
    enum { RIGS = 37 };
    rune_animator *sets[3][RIGS];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < RIGS; i++) {
            assert_int_equal(rune_animator_create(s.rig, 0, &ca.iface, &sets[k][i], NULL), RUNE_OK);
            rune_play_params p = {0.1f, 1.0f, 0.5f + 0.01f * (float)i, 0.0f};
            assert_int_equal(rune_animator_play(sets[k][i], s.binding, &p, NULL, NULL), RUNE_OK);
        }
    rune_batch *b[3];
    const size_t workers[3] = {0, 1, 3};
    for (int k = 0; k < 3; k++)
        assert_int_equal(rune_batch_create(workers[k], &ca.iface, &b[k], NULL), RUNE_OK);
    for (int k = 0; k < 3; k++) /* warm-up frame: first-evaluate scratch */
        rune_batch_run(b[k], sets[k], RIGS, 1.0f / 60.0f);
    size_t before = ca.allocs;
    for (int f = 1; f < 50; f++)
        for (int k = 0; k < 3; k++) {
            rune_batch_run(b[k], sets[k], RIGS, 1.0f / 60.0f);
            for (int i = 0; i < RIGS; i++)
                rune_animator_deliver(sets[k][i], NULL, NULL);
        }
    assert_int_equal(ca.allocs, before);
    for (int i = 0; i < RIGS; i++) {
        const rune_pose *p0 = rune_animator_pose(sets[0][i]);
        for (int k = 1; k < 3; k++) {
            const rune_pose *pk = rune_animator_pose(sets[k][i]);
            assert_memory_equal(p0->t, pk->t, p0->count * sizeof *p0->t);
            assert_memory_equal(p0->r, pk->r, p0->count * sizeof *p0->r);
        }
        /* and they moved: 50 frames at speed >= .5 */
        assert_true(p0->t[1].x > 0.3f);
    }
    for (int k = 0; k < 3; k++) {
        rune_batch_destroy(b[k]);
        for (int i = 0; i < RIGS; i++)
            rune_animator_destroy(sets[k][i]);
    }
    free_scene(&s);
    assert_int_equal(ca.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_high_priority_partial_coverage),
        cmocka_unit_test(test_equal_priority_mean),
        cmocka_unit_test(test_opposite_sign_quaternions),
        cmocka_unit_test(test_uncovered_joint_does_not_reset),
        cmocka_unit_test(test_controls_in_priority_order),
        cmocka_unit_test(test_signal_sees_new_pose),
        cmocka_unit_test(test_final_pass_after_last_track),
        cmocka_unit_test(test_no_allocation_per_frame),
        cmocka_unit_test(test_batch_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
