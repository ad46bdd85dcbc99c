/* Unit tests of model-space matrices (src/rig) and root-motion helpers
 * (src/root) against hand-built chains. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/root.h"
#include "root/root_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))
#define EPS 1e-6f

/* Root at (0,1,0); Arm offset (1,0,0) and turned 90deg about Z; Hand offset
 * (1,0,0) from Arm. */
static rune_rig *chain(void)
{
    const rune_joint_desc j[] = {
        {"Root", NULL, {{0, 1, 0}, {0, 0, 0, 1}}},
        {"Arm", "Root", {{1, 0, 0}, {0, 0, 0.70710678f, 0.70710678f}}},
        {"Hand", "Arm", {{1, 0, 0}, {0, 0, 0, 1}}},
    };
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 3, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

static void test_model_space_chain(void **state)
{
    (void)state;
    rune_rig *rig = chain();
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 3, NULL, NULL), RUNE_OK);
    rune_xform x[3];
    rune_mat4 m[3];
    /* rest: Arm at (0,1,0) + (1,0,0) = (1,1,0); Hand at Arm + Rz90 (1,0,0)
     * = (1,1,0) + (0,1,0) = (1,2,0) */
    rune_rig_model_xforms(rig, &pose, x);
    rune_rig_model_matrices(rig, &pose, m);
    near(x[1].t.x, 1, EPS);
    near(x[1].t.y, 1, EPS);
    near(x[2].t.x, 1, EPS);
    near(x[2].t.y, 2, EPS);
    near(m[2].m[12], 1, EPS);
    near(m[2].m[13], 2, EPS);
    /* Hand's x axis is Rz90 x = +y: column 0 is (0, 1, 0) */
    near(m[2].m[0], 0, EPS);
    near(m[2].m[1], 1, EPS);
    /* a motor translation (0,0,1) on Arm applies after its frame:
     * Arm = (1,1,0) + Rz90 (0,0,1) = (1,1,1); Hand = (1,1,1) + (0,1,0) */
    rune_pose_set_t(&pose, 1, rune_v3(0, 0, 1));
    rune_rig_model_matrices(rig, &pose, m);
    near(m[1].m[14], 1, EPS);
    near(m[2].m[12], 1, EPS);
    near(m[2].m[13], 2, EPS);
    near(m[2].m[14], 1, EPS);
    /* a motor rotation on Arm (90deg about Z again) turns Hand's offset to
     * -x: Hand = (1,1,1) + Rz180 (1,0,0) = (0,1,1) */
    rune_pose_set_r(&pose, 1, rune_q(0, 0, 0.70710678f, 0.70710678f));
    rune_rig_model_matrices(rig, &pose, m);
    near(m[2].m[12], 0, EPS);
    near(m[2].m[13], 1, EPS);
    /* the matrix path and the rigid path agree */
    rune_rig_model_xforms(rig, &pose, x);
    for (int j = 0; j < 3; j++) {
        rune_mat4 from_x = rune_mat4_from_xform(x[j]);
        for (int k = 0; k < 16; k++)
            near(from_x.m[k], m[j].m[k], 1e-5f);
    }
    rune_pose_release(&pose);
    rune_rig_destroy(rig);
}

static void test_skinning_at_rest_is_identity(void **state)
{
    (void)state;
    rune_rig *rig = chain();
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 3, NULL, NULL), RUNE_OK);
    rune_xform bind[3];
    rune_mat4 model[3], inv[3], skin[3];
    rune_rig_model_xforms(rig, &pose, bind);
    for (int j = 0; j < 3; j++)
        inv[j] = rune_mat4_from_xform(rune_xform_inverse(bind[j]));
    rune_rig_model_matrices(rig, &pose, model);
    rune_skinning_matrices(model, inv, 3, skin);
    rune_mat4 id = rune_mat4_identity();
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 16; k++)
            near(skin[j].m[k], id.m[k], 1e-5f);
    /* moved Root up by 1: every skinning matrix is a pure +1 y shift */
    rune_pose_set_t(&pose, 0, rune_v3(0, 1, 0));
    rune_rig_model_matrices(rig, &pose, model);
    rune_skinning_matrices(model, inv, 3, skin);
    for (int j = 0; j < 3; j++) {
        near(skin[j].m[13], 1, 1e-5f);
        near(skin[j].m[0], 1, 1e-5f);
    }
    rune_pose_release(&pose);
    rune_rig_destroy(rig);
}

static void test_root_strip_and_axis(void **state)
{
    (void)state;
    /* frame turned 90deg about X: model +Y is local R_x(-90) y = -z */
    rune_xform f = {{0, 0, 0}, {0.70710678f, 0, 0, 0.70710678f}};
    rune_vec3 up = rune_root_up_axis(f);
    near(up.z, -1, EPS);
    rune_pose p;
    assert_int_equal(rune_pose_init(&p, 1, NULL, NULL), RUNE_OK);
    rune_pose_set_t(&p, 0, rune_v3(1, 2, 3));
    rune_pose_set_r(&p, 0, rune_q_axis_angle(rune_v3(0, 0, 1), 0.5f)); /* twist about local z = model y */
    rune_root_strip(&p, 0, f);
    /* only the component along the up axis stays: (0, 0, 3) */
    near(p.tx[0], 0, EPS);
    near(p.ty[0], 0, EPS);
    near(p.tz[0], 3, EPS);
    near(fabsf(p.qw[0]), 1, EPS); /* a pure twist is removed entirely */
    rune_pose_release(&p);
}

/* Travel converts through the rest frames and scales of the
 * joint and its ancestors. Root scale (1, 2, 3) turned 90 deg about Z,
 * child scale 0.5: local (1, 1, 0) -> (.5, .5, 0) -> scaled (.5, 1, 0) ->
 * R_z(90) (.5, 1, 0) = (-1, .5, 0): dx -1, dz 0. A (0, 0, 2) travel:
 * (0, 0, 1) -> (0, 0, 3) -> dz 3. Outside the rig: zero. */
static void test_root_rig_space(void **state)
{
    (void)state;
    rune_joint_desc j[2] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0.70710678f, 0.70710678f}}, {1, 2, 3}, true},
                            {"Hips", "Root", {{0, 1, 0}, {0, 0, 0, 1}}, {0.5f, 0.5f, 0.5f}, true}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 2, NULL, &rig, NULL), RUNE_OK);
    rune_root_delta d = rune_root_rig_to_model(rig, 1, (rune_root_travel){{1, 1, 0}, 0.25f});
    near(d.dx, -1, EPS);
    near(d.dz, 0, EPS);
    near(d.yaw, 0.25f, 0);
    d = rune_root_rig_to_model(rig, 1, (rune_root_travel){{0, 0, 2}, 0});
    near(d.dx, 0, EPS);
    near(d.dz, 3, EPS);
    rune_quat r = rune_root_rest_rotation(rig, 1);
    near(r.z, 0.70710678f, EPS);
    near(r.w, 0.70710678f, EPS);
    d = rune_root_rig_to_model(rig, 2, (rune_root_travel){{1, 1, 1}, 1});
    near(d.dx, 0, 0);
    near(d.yaw, 0, 0);
    rune_rig_destroy(rig);
}

/* A memo gives the bits the memo-less call gives, across loop crossings,
 * a speed change, a backward step and a change of up axis (which empties
 * it); and a whole cycle travels end minus start: a clip walking 2 units
 * along x in 1 s (keys at 0, 0.5 and 1, the middle one eased) and turning
 * 60 degrees about y crosses 3 boundaries in 3 s and reports 6 units and
 * 180 degrees. */
static void test_root_memo_same_bits(void **state)
{
    (void)state;
    const rune_joint_desc j[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 1, NULL, &rig, NULL), RUNE_OK);
    rune_key_pose_desc k[3];
    for (int i = 0; i < 3; i++)
        k[i] = (rune_key_pose_desc){"", "Root", {(float)i, 0.1f * (float)i, 0}, {0, 0, 0, 1}, 1, 0,
                                    i == 1 ? RUNE_EASE_QUAD : RUNE_EASE_LINEAR, RUNE_EASE_IN};
    k[1].r = rune_q_axis_angle(rune_v3(0, 1, 0), 0.5f);
    k[2].r = rune_q_axis_angle(rune_v3(0, 1, 0), 1.0471976f);
    rune_keyframe_desc kf[3] = {{0.0f, &k[0], 1}, {0.5f, &k[1], 1}, {1.0f, &k[2], 1}};
    rune_sequence_desc d = {"walk", 0, true, 0, kf, 3, NULL, 0};
    rune_clip *clip;
    rune_binding *b;
    assert_int_equal(rune_clip_compile(&d, NULL, &clip, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(rig, clip, NULL, NULL, &b, NULL), RUNE_OK);
    rune_vec3 y = rune_v3(0, 1, 0), z = rune_v3(0, 0, 1);
    rune_root_travel whole = rune_root_clip_travel(b, 0, y, 0.25, 3.25);
    near(whole.t.x, 6, 1e-5f);
    near(whole.t.y, 0.6f, 1e-5f);
    near(whole.yaw, 3.14159265f, 1e-5f);
    rune_root_memo memo;
    rune_root_memo_reset(&memo);
    double from = 0.0;
    for (int f = 0; f < 240; f++) {
        double to = from + (f == 100 ? -0.3 : f < 120 ? 0.0371 : 0.0613);
        rune_vec3 up = (f / 40) % 2 ? z : y;
        rune_root_travel a = rune_root_clip_travel(b, 0, up, from, to);
        rune_root_travel m = rune_root_clip_travel_memo(b, 0, up, from, to, &memo);
        assert_memory_equal(&a, &m, sizeof a);
        from = to;
    }
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

/* The twist angle every quadrant: a root turning about y by 0.7 rad a
 * second (keys 1 s apart, 0.7 rad each, so the arc between keys is a
 * slerp at a constant rate) is sampled over 8 s, its heading running
 * through 5.6 rad -- the quaternion's w changes sign, its y does not --
 * and every step of 0.013 s reports 0.7 x 0.013 rad of yaw, going
 * forward and back, with the memo and without. */
static void test_root_yaw_every_quadrant(void **state)
{
    (void)state;
    const rune_joint_desc j[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 1, NULL, &rig, NULL), RUNE_OK);
    enum { KEYS = 9 };
    rune_key_pose_desc k[KEYS];
    rune_keyframe_desc kf[KEYS];
    for (int i = 0; i < KEYS; i++) {
        k[i] = (rune_key_pose_desc){"", "Root", {0, 0, 0}, rune_q_axis_angle(rune_v3(0, 1, 0), 0.7f * (float)i), 1, 0,
                                    RUNE_EASE_LINEAR, RUNE_EASE_IN};
        kf[i] = (rune_keyframe_desc){(float)i, &k[i], 1};
    }
    rune_sequence_desc d = {"turn", 0, false, 0, kf, KEYS, NULL, 0};
    rune_clip *clip;
    rune_binding *b;
    assert_int_equal(rune_clip_compile(&d, NULL, &clip, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(rig, clip, NULL, NULL, &b, NULL), RUNE_OK);
    rune_root_memo memo;
    rune_root_memo_reset(&memo);
    rune_vec3 y = rune_v3(0, 1, 0);
    const double step = 0.013;
    for (int dir = 1; dir >= -1; dir -= 2)
        for (int i = 0; i < 600; i++) {
            double from = dir > 0 ? step * i : 8.0 - step * i, to = from + dir * step;
            rune_root_travel plain = rune_root_clip_travel(b, 0, y, from, to);
            rune_root_travel kept = rune_root_clip_travel_memo(b, 0, y, from, to, &memo);
            near(plain.yaw, 0.7 * dir * step, 2e-6f);
            assert_memory_equal(&plain, &kept, sizeof plain);
        }
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

/* A play's travel takes the end of each frame's interval from its
 * sampler's row where the frame's sample left it on one (sample_cache.c's
 * row plan: a time-major clip, here three joints keyed together), else
 * from the clip: either way the bits the clip's own root track gives.
 * Variants: plain covers (lean rows), key weights (full rows), an eased
 * root key (the row needs the exact sampler: the clip's path). The play
 * runs forward at two speeds across loop boundaries, backward, and from a
 * seek, sampled each frame before its travel is asked for. */
static void test_root_play_travel_from_rows(void **state)
{
    (void)state;
    const rune_joint_desc j[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}},
                                 {"Spine", "Root", {{0, 1, 0}, {0, 0, 0, 1}}},
                                 {"Head", "Spine", {{0, 1, 0}, {0, 0, 0, 1}}}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(j, 3, NULL, &rig, NULL), RUNE_OK);
    enum { KEYS = 8 };
    for (int variant = 0; variant < 3; variant++) {
        rune_key_pose_desc k[KEYS][3];
        rune_keyframe_desc kf[KEYS];
        for (int i = 0; i < KEYS; i++) {
            float a = 0.3f * (float)i;
            k[i][0] = (rune_key_pose_desc){"", "Root", {0.4f * (float)i, 0.02f * (float)(i % 3), 0.1f * sinf(a)},
                                           rune_q_axis_angle(rune_v3(0, 1, 0), 0.25f * (float)i), 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN};
            k[i][1] = (rune_key_pose_desc){"Root", "Spine", {0, 1, 0},
                                           rune_q_axis_angle(rune_v3(1, 0, 0), 0.2f * sinf(a)), 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN};
            k[i][2] = (rune_key_pose_desc){"Spine", "Head", {0, 1, 0},
                                           rune_q_axis_angle(rune_v3(0, 0, 1), 0.1f * cosf(a)), 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN};
            if (variant == 1)
                k[i][1].weight = 0.5f + 0.05f * (float)i;
            if (variant == 2 && i == 3)
                k[i][0].easing = RUNE_EASE_CUBIC;
            kf[i] = (rune_keyframe_desc){0.1f * (float)i, k[i], 3};
        }
        rune_sequence_desc d = {"walk", 0, true, 0, kf, KEYS, NULL, 0};
        rune_clip *clip;
        rune_binding *b;
        assert_int_equal(rune_clip_compile(&d, NULL, &clip, NULL), RUNE_OK);
        assert_int_equal(rune_binding_create(rig, clip, NULL, NULL, &b, NULL), RUNE_OK);
        rune_motion_sample_desc leaf = {-1, 0, 0, {0, 0}, 1.0f};
        rune_motion_node_desc node = {RUNE_MOTION_CLIP, 0, 0, 0, &leaf, 1};
        rune_motion *m;
        rune_motion_player *p;
        const rune_binding *binds[1] = {b};
        assert_int_equal(rune_motion_create(&node, 1, 0, 1, NULL, &m, NULL), RUNE_OK);
        assert_int_equal(rune_motion_player_create_live(m, binds, NULL, &p, NULL), RUNE_OK);
        rune_pose pose;
        assert_int_equal(rune_pose_init_rig(&pose, rig, NULL, NULL), RUNE_OK);
        rune_root_memo memo;
        rune_root_memo_reset(&memo);
        rune_vec3 y = rune_v3(0, 1, 0);
        rune_motion_player_set_params(p, NULL);
        for (int f = 0; f < 200; f++) {
            if (f == 150)
                rune_motion_player_set_progress(p, 0.3183);
            double from = rune_motion_player_progress(p);
            float speed = f < 60 ? 1.0f : f < 100 ? 2.7f : f < 150 ? -0.8f : 1.3f;
            rune_motion_player_advance(p, 1.0f / 60.0f, speed, NULL, 0);
            double to = rune_motion_player_progress(p);
            rune_motion_player_sample(p, &pose);
            rune_root_travel played = {{0, 0, 0}, 0};
            rune_root_motion_travel(p, 0, y, from, to, 1.0f, &memo, &played);
            rune_root_travel clipped = rune_root_clip_travel(b, 0, y, rune_motion_player_leaf_clock(p, 0, from),
                                                             rune_motion_player_leaf_clock(p, 0, to));
            assert_true(played.t.x == clipped.t.x && played.t.y == clipped.t.y && played.t.z == clipped.t.z);
            assert_true(played.yaw == clipped.yaw);
        }
        rune_pose_release(&pose);
        rune_motion_player_destroy(p);
        rune_motion_destroy(m);
        rune_binding_destroy(b);
        rune_clip_destroy(clip);
    }
    rune_rig_destroy(rig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_space_chain),
        cmocka_unit_test(test_skinning_at_rest_is_identity),
        cmocka_unit_test(test_root_strip_and_axis),
        cmocka_unit_test(test_root_rig_space),
        cmocka_unit_test(test_root_memo_same_bits),
        cmocka_unit_test(test_root_yaw_every_quadrant),
        cmocka_unit_test(test_root_play_travel_from_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
