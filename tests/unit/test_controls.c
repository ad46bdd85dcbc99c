/* Unit tests of the solver controls on poses (src/mix/control_*.c): on
 * thousands of random rigs (random rest frames, rotations, uniform rest
 * scales) a reachable target is reached in the rig's own model matrices
 * to 1e-5 of the chain's length with bone lengths unchanged; weight 0
 * leaves the pose bit for bit; weight w slerps each moved joint; controls
 * run in priority order on each other's results; checks name the field;
 * the animator smooths goals and allocates nothing per frame. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/mix.h"
#include "counting_alloc.h"
#include "test_random.h"
#include "mix/mix_internal.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static rune_quat random_rotation(uint32_t *seed)
{
    return rune_q_normalize(rune_q(test_random(seed), test_random(seed), test_random(seed), test_random(seed) + 0.01f));
}

static rune_vec3 random_point(uint32_t *seed, float s)
{
    return rune_v3(s * test_random(seed), s * test_random(seed), s * test_random(seed));
}

static double dist(rune_vec3 a, rune_vec3 b)
{
    rune_vec3 d = rune_v3_sub(a, b);
    return sqrt((double)rune_v3_dot(d, d));
}

static rune_vec3 model_pos(const rune_mat4 *m, size_t j) { return rune_v3(m[j].m[12], m[j].m[13], m[j].m[14]); }

/* A rig: Root / Hip / Knee / Ankle / Toe, every rest frame random. */
typedef struct leg {
    rune_rig *rig;
    rune_pose pose;
    rune_mat4 m[5];
    void *scratch;
} leg;

static void make_leg(leg *l, uint32_t *seed, bool scaled)
{
    static const char *parts[5] = {"Root", "Hip", "Knee", "Ankle", "Toe"};
    rune_joint_desc j[5];
    for (int i = 0; i < 5; i++) {
        float s = scaled ? 0.5f + 0.75f * (test_random(seed) + 1.0f) : 1.0f;
        j[i] = (rune_joint_desc){parts[i], i ? parts[i - 1] : NULL,
                                 {random_point(seed, 1), random_rotation(seed)}, rune_v3(s, s, s), scaled};
    }
    assert_int_equal(rune_rig_create(j, 5, NULL, &l->rig, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&l->pose, 5, NULL, NULL), RUNE_OK);
    for (size_t i = 0; i < 5; i++)
        rune_pose_set(&l->pose, i, i == 0 ? random_point(seed, 1) : rune_v3(0, 0, 0), random_rotation(seed), 1.0f);
    l->scratch = calloc(1, rune_controls_scratch_bytes(l->rig));
}

static void free_leg(leg *l)
{
    free(l->scratch);
    rune_pose_release(&l->pose);
    rune_rig_destroy(l->rig);
}

/* Every channel of two poses bit for bit (the blocks' alignment slack
 * aside). */
static void same_pose(const rune_pose *a, const rune_pose *b)
{
    const float *x[11] = {a->tx, a->ty, a->tz, a->qx, a->qy, a->qz, a->qw, a->sx, a->sy, a->sz, a->coverage};
    const float *y[11] = {b->tx, b->ty, b->tz, b->qx, b->qy, b->qz, b->qw, b->sx, b->sy, b->sz, b->coverage};
    for (int c = 0; c < 11; c++)
        assert_memory_equal(x[c], y[c], a->stride * sizeof(float));
}

static void apply(leg *l, const rune_control *cs, size_t n)
{
    size_t order[4];
    rune_controls_apply(l->rig, cs, n, order, l->scratch, &l->pose);
    rune_rig_model_matrices(l->rig, &l->pose, l->m);
}

static void test_reach_on_random_rigs(void **state)
{
    (void)state;
    uint32_t seed = 5;
    int reached = 0;
    for (int i = 0; i < 4000; i++) {
        leg l;
        make_leg(&l, &seed, i % 2 == 1);
        rune_rig_model_matrices(l.rig, &l.pose, l.m);
        rune_vec3 hip = model_pos(l.m, 1), knee = model_pos(l.m, 2), ankle = model_pos(l.m, 3),
                  toe = model_pos(l.m, 4);
        double l1 = dist(knee, hip), l2 = dist(ankle, knee), l3 = dist(toe, ankle), len = l1 + l2;
        /* a target within the chain's reach, away from its limits */
        float r = (float)(fabs(l1 - l2) + (0.05 + 0.9 * (test_random(&seed) + 1.0) / 2.0) * (len - fabs(l1 - l2)));
        rune_vec3 dir = rune_v3_sub(random_point(&seed, 1), rune_v3(0, 0, 0));
        float dl = sqrtf(rune_v3_dot(dir, dir));
        rune_control c = rune_control_defaults(i % 3 == 2 ? RUNE_CONTROL_POSITION : RUNE_CONTROL_TWO_BONE);
        c.id = 1;
        c.joint = 3;
        c.target = rune_v3_add(hip, rune_v3_scale(dir, r / (dl > 1e-3f ? dl : 1.0f)));
        c.has_pole = i % 4 == 0;
        c.pole = random_point(&seed, 3);
        assert_int_equal(rune_control_check(l.rig, &c, NULL), RUNE_OK);
        apply(&l, &c, 1);
        for (int k = 0; k < 5; k++)
            for (int e = 0; e < 16; e++)
                assert_true(isfinite(l.m[k].m[e]));
        if (dl > 1e-3f) {
            near(dist(model_pos(l.m, 3), c.target), 0, 1e-5 * len);
            reached++;
        }
        /* bones keep their lengths; the root of the chain stays */
        near(dist(model_pos(l.m, 2), model_pos(l.m, 1)), l1, 2e-6 * len);
        near(dist(model_pos(l.m, 3), model_pos(l.m, 2)), l2, 2e-6 * len);
        near(dist(model_pos(l.m, 4), model_pos(l.m, 3)), l3, 2e-6 * (l3 + len));
        near(dist(model_pos(l.m, 1), hip), 0, 1e-6 * len);
        free_leg(&l);
    }
    assert_true(reached > 3900);
}

static void test_chain_and_aim_on_random_rigs(void **state)
{
    (void)state;
    uint32_t seed = 9;
    for (int i = 0; i < 2000; i++) {
        leg l;
        make_leg(&l, &seed, i % 2 == 1);
        rune_rig_model_matrices(l.rig, &l.pose, l.m);
        double len = dist(model_pos(l.m, 2), model_pos(l.m, 1)) + dist(model_pos(l.m, 3), model_pos(l.m, 2)) +
                     dist(model_pos(l.m, 4), model_pos(l.m, 3));
        rune_vec3 hip = model_pos(l.m, 1);
        /* a chain from the hip to the toe, toward a point the toe can reach */
        rune_control c = rune_control_defaults(RUNE_CONTROL_CHAIN);
        c.id = 1, c.joint = 4, c.root = 1, c.iterations = 200, c.tolerance = 1e-6f;
        rune_vec3 d = random_point(&seed, 1);
        float dl = sqrtf(rune_v3_dot(d, d));
        c.target = rune_v3_add(hip, rune_v3_scale(d, (float)(0.6 * len) / (dl > 1e-3f ? dl : 1.0f)));
        rune_control aim = rune_control_defaults(RUNE_CONTROL_AIM);
        aim.id = 2, aim.joint = 4, aim.priority = 1, aim.target = random_point(&seed, 4);
        aim.forward = random_point(&seed, 1);
        aim.up = rune_v3_cross(aim.forward, random_point(&seed, 1));
        bool aim_ok = rune_control_check(l.rig, &aim, NULL) == RUNE_OK;
        assert_int_equal(rune_control_check(l.rig, &c, NULL), RUNE_OK);
        rune_control both[2] = {aim, c}; /* the chain listed after the aim runs before it: priority */
        if (aim_ok)
            apply(&l, both, 2);
        else
            apply(&l, &c, 1);
        for (int k = 0; k < 5; k++)
            for (int e = 0; e < 16; e++)
                assert_true(isfinite(l.m[k].m[e]));
        if (dl > 1e-3f)
            near(dist(model_pos(l.m, 4), c.target), 0, 1e-4 * len);
        if (aim_ok) {
            /* the toe's forward axis looks at the aim target, from the
             * toe where the chain put it */
            rune_vec3 to = rune_v3_sub(aim.target, model_pos(l.m, 4));
            float tl = sqrtf(rune_v3_dot(to, to));
            const float *m = l.m[4].m;
            float fl = sqrtf(rune_v3_dot(aim.forward, aim.forward));
            rune_vec3 f = rune_v3((m[0] * aim.forward.x + m[4] * aim.forward.y + m[8] * aim.forward.z) / fl,
                                  (m[1] * aim.forward.x + m[5] * aim.forward.y + m[9] * aim.forward.z) / fl,
                                  (m[2] * aim.forward.x + m[6] * aim.forward.y + m[10] * aim.forward.z) / fl);
            float sl = sqrtf(rune_v3_dot(f, f));
            if (tl > 1e-2f)
                near(rune_v3_dot(f, to) / (sl * tl), 1, 1e-5);
        }
        free_leg(&l);
    }
}

static void test_weights(void **state)
{
    (void)state;
    uint32_t seed = 21;
    leg l, full;
    make_leg(&l, &seed, false);
    seed = 21;
    make_leg(&full, &seed, false);
    rune_pose input;
    assert_int_equal(rune_pose_init(&input, 5, NULL, NULL), RUNE_OK);
    rune_pose_copy(&input, &l.pose);
    rune_control c = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    c.id = 1, c.joint = 3, c.target = rune_v3(0.2f, 0.1f, 0.3f), c.weight = 0.0f;
    apply(&l, &c, 1);
    /* weight 0: the input, bit for bit */
    same_pose(&l.pose, &input);
    c.weight = 1.0f;
    apply(&full, &c, 1);
    c.weight = 0.5f;
    apply(&l, &c, 1);
    /* weight .5: each moved joint half way (slerp) from its input rotation */
    for (size_t j = 1; j <= 2; j++) {
        rune_quat want = rune_q_slerp(rune_pose_r(&input, j), rune_pose_r(&full.pose, j), 0.5f);
        rune_quat got = rune_pose_r(&l.pose, j);
        near(fabsf(rune_q_dot(want, got)), 1, 1e-6);
    }
    /* translations never move; the end's local rotation neither (no target_r) */
    for (size_t j = 0; j < 5; j++) {
        near(l.pose.tx[j], input.tx[j], 0);
        near(l.pose.ty[j], input.ty[j], 0);
    }
    near(fabsf(rune_q_dot(rune_pose_r(&l.pose, 3), rune_pose_r(&input, 3))), 1, 0);
    rune_pose_release(&input);
    free_leg(&l);
    free_leg(&full);
}

static void test_rotation_and_transform(void **state)
{
    (void)state;
    uint32_t seed = 33;
    leg l;
    make_leg(&l, &seed, true);
    rune_quat want = rune_q_normalize(rune_q(0.1f, 0.7f, -0.2f, 0.6f));
    rune_control c = rune_control_defaults(RUNE_CONTROL_ROTATION);
    c.id = 1, c.joint = 3, c.target_r = want;
    apply(&l, &c, 1);
    /* the ankle's model rotation is target_r (the rig's scale is uniform) */
    rune_xform x[5];
    rune_rig_model_xforms(l.rig, &l.pose, x);
    near(fabsf(rune_q_dot(x[3].r, want)), 1, 1e-6);
    /* transform = position (two-bone) and then rotation */
    rune_rig_model_matrices(l.rig, &l.pose, l.m);
    rune_vec3 hip = model_pos(l.m, 1), ankle = model_pos(l.m, 3);
    c = rune_control_defaults(RUNE_CONTROL_TRANSFORM);
    c.id = 2, c.joint = 3, c.target_r = rune_q_identity();
    c.target = rune_v3_add(hip, rune_v3_scale(rune_v3_sub(ankle, hip), 0.8f));
    apply(&l, &c, 1);
    rune_rig_model_xforms(l.rig, &l.pose, x);
    near(fabsf(x[3].r.w), 1, 1e-6);
    near(dist(model_pos(l.m, 3), c.target), 0, 1e-5);
    /* position with the grandparent as root is the two-bone solver */
    rune_control a = rune_control_defaults(RUNE_CONTROL_POSITION), b = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    a.id = b.id = 3, a.joint = b.joint = 3, a.root = 1;
    a.target = b.target = rune_v3_add(hip, rune_v3(0.1f, -0.2f, 0.05f));
    rune_pose saved;
    assert_int_equal(rune_pose_init(&saved, 5, NULL, NULL), RUNE_OK);
    rune_pose_copy(&saved, &l.pose);
    apply(&l, &a, 1);
    rune_pose after_a;
    assert_int_equal(rune_pose_init(&after_a, 5, NULL, NULL), RUNE_OK);
    rune_pose_copy(&after_a, &l.pose);
    rune_pose_copy(&l.pose, &saved);
    apply(&l, &b, 1);
    same_pose(&after_a, &l.pose);
    rune_pose_release(&saved);
    rune_pose_release(&after_a);
    free_leg(&l);
}

static void expect_refused(const rune_rig *rig, const rune_control *c, const char *text)
{
    rune_error err;
    assert_int_equal(rune_control_check(rig, c, &err), RUNE_E_INVALID);
    if (!strstr(err.message, text)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err.message, text);
        fail();
    }
}

static void test_checks(void **state)
{
    (void)state;
    uint32_t seed = 2;
    leg l;
    make_leg(&l, &seed, false);
    rune_control c = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    c.joint = 9;
    expect_refused(l.rig, &c, "joint: 9 is outside the rig");
    c.joint = 1;
    expect_refused(l.rig, &c, "joint: Root/Hip has no grandparent");
    c.joint = 3;
    c.target.x = NAN;
    expect_refused(l.rig, &c, "target: not finite");
    c.target.x = 0;
    c.soften = 1.5f;
    expect_refused(l.rig, &c, "soften: outside 0..1");
    c = rune_control_defaults(RUNE_CONTROL_CHAIN);
    c.joint = 2;
    expect_refused(l.rig, &c, "root: missing");
    c.root = 3;
    expect_refused(l.rig, &c, "root: Knee/Ankle is not an ancestor of Hip/Knee");
    c.root = 0;
    c.iterations = 0;
    expect_refused(l.rig, &c, "iterations: outside 1..1000");
    c = rune_control_defaults(RUNE_CONTROL_AIM);
    c.joint = 2;
    c.forward = rune_v3(0, 0, 0);
    expect_refused(l.rig, &c, "forward: zero");
    c.forward = rune_v3(0, 2, 0);
    expect_refused(l.rig, &c, "up: parallel to forward");
    c = rune_control_defaults(RUNE_CONTROL_ROTATION);
    c.joint = 2;
    c.target_r = rune_q(0, 0, 0, 0);
    expect_refused(l.rig, &c, "target_r: not a finite");
    c.target_r = rune_q_identity();
    c.smooth_time = -1;
    expect_refused(l.rig, &c, "smooth_time: outside");
    free_leg(&l);
    /* a chain of zero length at rest */
    rune_joint_desc j[3] = {{"A", NULL, {{0, 0, 0}, {0, 0, 0, 1}}},
                            {"B", "A", {{0, 0, 0}, {0, 0, 0, 1}}},
                            {"C", "B", {{0, 1, 0}, {0, 0, 0, 1}}}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 3, NULL, &rig, NULL), RUNE_OK);
    c = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    c.joint = 2;
    expect_refused(rig, &c, "joint: the chain to B/C has a bone of zero length at rest");
    c = rune_control_defaults(RUNE_CONTROL_CHAIN);
    c.joint = 1, c.root = 0;
    expect_refused(rig, &c, "root: the chain from A has zero length at rest");
    rune_rig_destroy(rig);
}

static void test_animator_smoothing_and_allocations(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    uint32_t seed = 4;
    leg l;
    make_leg(&l, &seed, false);
    rune_animator *a;
    rune_error err;
    assert_int_equal(rune_animator_create(l.rig, 0, &ca.iface, &a, NULL), RUNE_OK);
    rune_control c = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    c.id = 7, c.joint = 3, c.target = rune_v3(0, 0, 0), c.smooth_time = 1.0f;
    assert_int_equal(rune_animator_set_control(a, &c, &err), RUNE_OK);
    rune_control bad = c;
    bad.joint = 1;
    assert_int_equal(rune_animator_set_control(a, &bad, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "control 7: joint: "));
    rune_control look = rune_control_defaults(RUNE_CONTROL_AIM);
    look.id = 8, look.joint = 4, look.target = rune_v3(1, 2, 3);
    assert_int_equal(rune_animator_set_control(a, &look, &err), RUNE_OK);
    rune_animator_advance(a, 0.1f);
    assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    /* a new goal 1 away along x: after 0.5 s the smoothed goal is at
     * 1 - 2/e (rune_ik_spring, omega 2) */
    c.target = rune_v3(1, 0, 0);
    assert_int_equal(rune_animator_set_control(a, &c, &err), RUNE_OK);
    size_t before = ca.allocs;
    for (int f = 0; f < 10; f++) {
        rune_animator_advance(a, 0.05f);
        assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    }
    rune_control_state st;
    assert_true(rune_animator_control_state(a, 7, &st));
    near(st.target.x, 0.264241118, 1e-5);
    near(st.target.y, 0, 1e-7);
    assert_true(isfinite(st.error));
    for (int f = 0; f < 500; f++) {
        rune_animator_advance(a, 1.0f / 60.0f);
        assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    }
    assert_int_equal(ca.allocs, before); /* nothing per frame */
    assert_true(rune_animator_control_state(a, 7, &st));
    near(st.target.x, 1, 1e-4);
    /* removing the last control still composes once more, back to rest */
    assert_true(rune_animator_remove_control(a, 7));
    assert_true(rune_animator_remove_control(a, 8));
    assert_false(rune_animator_control_state(a, 7, &st));
    size_t passes = rune_animator_passes(a);
    rune_animator_evaluate(a, NULL, 0, NULL);
    assert_int_equal(rune_animator_passes(a), passes + 1);
    near(rune_animator_pose(a)->coverage[2], 0, 0);
    rune_animator_destroy(a);
    free_leg(&l);
    assert_int_equal(ca.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_on_random_rigs),
        cmocka_unit_test(test_chain_and_aim_on_random_rigs),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_rotation_and_transform),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_animator_smoothing_and_allocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
