/* Unit tests of humanoid retargeting (src/rig/humanoid.c, retarget_pose.c,
 * retarget_feet.c) on skeletons built here by hand, so that every
 * expected value follows from their geometry (docs/semantics.md,
 * "Retargeting"):
 *   - the profile is found from the hierarchy in four naming conventions
 *     (Mixamo/CMU, Unreal, Motion Analysis -- where LeftShoulder is the
 *     upper arm -- and Poser), each bone mapped to its namesake;
 *   - a T-pose source played on an arms-down target: every limb points
 *     where the source's does (the rests' stances do not matter);
 *   - a splayed-leg rest's retarget pose has straight legs; a T-pose wider
 *     than tall stands along its body, not its arm span;
 *   - a Z-up source in centimetres drives a Y-up target in metres: its
 *     walk goes forward, scaled by the legs' ratio, the feet on the floor;
 *   - the explicit map overrides the profile; foot IK can be turned off. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/rig.h"
#include "rig/rig_internal.h"
#include "rig/retarget_internal.h"
#include "base/alloc.h"
#include "counting_alloc.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

enum { HIPS, SPINE, CHEST, NECK, HEAD, HEAD_END, CLAV_L, ARM_L, FORE_L, HAND_L, HAND_END_L, CLAV_R, ARM_R, FORE_R,
       HAND_R, HAND_END_R, THIGH_L, SHIN_L, FOOT_L, TOE_L, TOE_END_L, THIGH_R, SHIN_R, FOOT_R, TOE_R, TOE_END_R, N };

static const int parent_of[N] = {-1, HIPS, SPINE, CHEST, NECK, HEAD, CHEST, CLAV_L, ARM_L, FORE_L, HAND_L, CHEST,
                                 CLAV_R, ARM_R, FORE_R, HAND_R, HIPS, THIGH_L, SHIN_L, FOOT_L, TOE_L, HIPS,
                                 THIGH_R, SHIN_R, FOOT_R, TOE_R};

static const char *const mixamo[N] = {
    "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Neck", "mixamorig:Head",
    "mixamorig:HeadTop_End", "mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm",
    "mixamorig:LeftHand", "mixamorig:LeftHandEnd", "mixamorig:RightShoulder", "mixamorig:RightArm",
    "mixamorig:RightForeArm", "mixamorig:RightHand", "mixamorig:RightHandEnd", "mixamorig:LeftUpLeg",
    "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase", "mixamorig:LeftToe_End",
    "mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot", "mixamorig:RightToeBase",
    "mixamorig:RightToe_End"};
static const char *const unreal[N] = {
    "pelvis", "spine_01", "spine_02", "neck_01", "head", "head_end", "clavicle_l", "upperarm_l", "lowerarm_l",
    "hand_l", "hand_end_l", "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r", "hand_end_r", "thigh_l", "calf_l",
    "foot_l", "ball_l", "ball_end_l", "thigh_r", "calf_r", "foot_r", "ball_r", "ball_end_r"};
static const char *const motion_analysis[N] = {
    "Hips", "Ab", "Chest", "Neck", "Head", "HeadEnd", "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist",
    "LeftWristEnd", "RightCollar", "RightShoulder", "RightElbow", "RightWrist", "RightWristEnd", "LeftHip",
    "LeftKnee", "LeftAnkle", "LeftToes", "LeftToesEnd", "RightHip", "RightKnee", "RightAnkle", "RightToes",
    "RightToesEnd"};
static const char *const poser[N] = {
    "hip", "abdomen", "chest", "neck", "head", "headEnd", "lCollar", "lShldr", "lForeArm", "lHand", "lHandEnd",
    "rCollar", "rShldr", "rForeArm", "rHand", "rHandEnd", "lThigh", "lShin", "lFoot", "lToe", "lToeEnd", "rThigh",
    "rShin", "rFoot", "rToe", "rToeEnd"};

/* How a test body stands at rest. */
typedef struct shape {
    const char *const *names;
    float arms_down; /* radians below horizontal */
    float splay;     /* legs, radians outward */
    float arm_scale; /* arm bones' length factor */
    float scale;     /* every length */
    bool z_up;       /* modelled Z-up (forward -Y), else Y-up (forward +Z) */
    bool mocap;      /* the hips at the origin (a capture skeleton), else standing on y = 0 */
} shape;

/* Rest positions, Y-up, metres, facing +Z, left +X. */
static void positions(const shape *s, rune_vec3 *p)
{
    float ca = cosf(s->arms_down), sa = sinf(s->arms_down), a = s->arm_scale;
    float cl = cosf(s->splay), sl = sinf(s->splay);
    p[HIPS] = rune_v3(0, 0.98f, 0);
    p[SPINE] = rune_v3(0, 1.08f, 0), p[CHEST] = rune_v3(0, 1.30f, 0), p[NECK] = rune_v3(0, 1.50f, 0);
    p[HEAD] = rune_v3(0, 1.60f, 0.01f), p[HEAD_END] = rune_v3(0, 1.80f, 0.01f);
    for (int side = 0; side < 2; side++) {
        float x = side ? -1.0f : 1.0f;
        int o = side ? CLAV_R - CLAV_L : 0, l = side ? THIGH_R - THIGH_L : 0;
        p[CLAV_L + o] = rune_v3(x * 0.03f, 1.45f, 0);
        p[ARM_L + o] = rune_v3(x * 0.18f, 1.45f, 0);
        rune_vec3 dir = rune_v3(x * ca, -sa, 0);
        p[FORE_L + o] = rune_v3_add(p[ARM_L + o], rune_v3_scale(dir, 0.28f * a));
        p[HAND_L + o] = rune_v3_add(p[FORE_L + o], rune_v3_scale(dir, 0.25f * a));
        p[HAND_END_L + o] = rune_v3_add(p[HAND_L + o], rune_v3_scale(dir, 0.08f * a));
        rune_vec3 leg = rune_v3(x * sl, -cl, 0);
        p[THIGH_L + l] = rune_v3(x * 0.09f, 0.93f, 0);
        p[SHIN_L + l] = rune_v3_add(p[THIGH_L + l], rune_v3_scale(leg, 0.43f));
        p[FOOT_L + l] = rune_v3_add(p[SHIN_L + l], rune_v3_scale(leg, 0.42f));
        p[TOE_L + l] = rune_v3_add(p[FOOT_L + l], rune_v3(0, -0.07f, 0.13f));
        p[TOE_END_L + l] = rune_v3_add(p[TOE_L + l], rune_v3(0, 0, 0.06f));
    }
    float drop = s->mocap ? p[HIPS].y : p[TOE_L].y; /* hang from the origin, or stand on y = 0 (the toes) */
    for (int j = 0; j < N; j++) {
        p[j].y -= drop;
        p[j] = rune_v3_scale(p[j], s->scale);
        if (s->z_up) /* +Y -> +Z, +Z -> -Y */
            p[j] = rune_v3(p[j].x, -p[j].z, p[j].y);
    }
}

/* The rig: frames translations only (every rest rotation the identity). */
static rune_rig *make_body(const shape *s)
{
    rune_vec3 p[N];
    positions(s, p);
    rune_joint_desc d[N];
    for (int j = 0; j < N; j++) {
        int q = parent_of[j];
        d[j] = (rune_joint_desc){s->names[j], q >= 0 ? s->names[q] : NULL,
                                 {q >= 0 ? rune_v3_sub(p[j], p[q]) : p[j], rune_q_identity()}, rune_v3(1, 1, 1),
                                 false};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(d, N, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

static const shape t_pose = {mixamo, 0.0f, 0.0f, 1.0f, 1.0f, false, true};

static rune_retarget *map(const rune_rig *src, const rune_rig *dst, const rune_retarget_pair *pairs, size_t count,
                          bool no_foot_ik)
{
    rune_retarget *rt;
    rune_error err;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, pairs, count, no_foot_ik}, NULL, &rt, &err),
                     RUNE_OK);
    return rt;
}

static void test_conventions_map_bone_to_bone(void **state)
{
    (void)state;
    const char *const *const schemes[] = {mixamo, unreal, motion_analysis, poser};
    static const char *const bone[N] = {"hips", "spine", "chest", "neck", "head", NULL, "left_clavicle",
                                        "left_upper_arm", "left_forearm", "left_hand", NULL, "right_clavicle",
                                        "right_upper_arm", "right_forearm", "right_hand", NULL, "left_thigh",
                                        "left_shin", "left_foot", "left_toes", NULL, "right_thigh", "right_shin",
                                        "right_foot", "right_toes", NULL};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            shape sa = {schemes[a], 0.0f, 0.1f, 1.0f, 1.0f, false, true};
            shape sb = {schemes[b], 1.2f, 0.0f, 1.0f, 1.0f, false, false}; /* arms down, standing */
            rune_rig *src = make_body(&sa), *dst = make_body(&sb);
            rune_retarget *rt = map(src, dst, NULL, 0, false);
            rune_retarget_info in = rune_retarget_describe(rt);
            assert_true(in.humanoid);
            assert_int_equal(in.profile_mapped, 21);
            assert_int_equal(in.profile_bones, 21);
            assert_true(in.confidence > 0.8f);
            for (int j = 0; j < N; j++) {
                int32_t t = rune_rig_find(dst, schemes[b][j]);
                if (!bone[j])
                    continue;
                assert_int_equal(rune_retarget_source_of(rt, (size_t)t), rune_rig_find(src, schemes[a][j]));
                assert_string_equal(rune_retarget_bone(rt, (size_t)t), bone[j]);
            }
            rune_retarget_destroy(rt);
            rune_rig_destroy(src);
            rune_rig_destroy(dst);
        }
}

/* A clip of the source rig: its rest, then (time 1) the left arm swung
 * 40 degrees forward, the right elbow bent 60 degrees, the left thigh
 * raised 30 degrees; (time 2) the hips carried 0.5 m forward and 0.1 m
 * down. Rotations about the model axes (every rest rotation is the
 * identity, so a local rotation is a model one). */
static rune_clip *make_motion(const shape *s)
{
    rune_quat swing = rune_q_axis_angle(rune_v3(0, 1, 0), -0.7f); /* +X arm toward +Z */
    rune_quat bend = rune_q_axis_angle(rune_v3(0, 1, 0), 1.05f);  /* -X forearm toward +Z */
    rune_quat raise = rune_q_axis_angle(rune_v3(1, 0, 0), -0.52f); /* thigh toward +Z */
    /* the hips' keys: where they stand (a capture skeleton's clip carries
     * their height), less the rest frame the key composes with */
    rune_vec3 hips[3], p[N], standing[N];
    shape on_feet = *s;
    on_feet.mocap = false;
    positions(s, p);
    positions(&on_feet, standing);
    rune_vec3 fwd = s->z_up ? rune_v3(0, -1, 0) : rune_v3(0, 0, 1), up = s->z_up ? rune_v3(0, 0, 1) : rune_v3(0, 1, 0);
    if (s->z_up) {
        rune_quat to_z = rune_q_axis_angle(rune_v3(1, 0, 0), 1.5707963f);
        swing = rune_q_mul(rune_q_mul(to_z, swing), rune_q_conjugate(to_z));
        bend = rune_q_mul(rune_q_mul(to_z, bend), rune_q_conjugate(to_z));
        raise = rune_q_mul(rune_q_mul(to_z, raise), rune_q_conjugate(to_z));
    }
    hips[0] = hips[1] = rune_v3_sub(standing[HIPS], p[HIPS]);
    hips[2] = rune_v3_add(hips[0], rune_v3_scale(rune_v3_sub(rune_v3_scale(fwd, 0.5f), rune_v3_scale(up, 0.1f)),
                                                 s->scale));
    static rune_key_pose_desc poses[3][4];
    rune_keyframe_desc kf[3];
    for (int k = 0; k < 3; k++) {
        rune_quat id = rune_q_identity();
        poses[k][0] = (rune_key_pose_desc){"", s->names[HIPS], hips[k], id, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN,
                                           rune_v3(1, 1, 1), false};
        poses[k][1] = (rune_key_pose_desc){s->names[CLAV_L], s->names[ARM_L], rune_v3(0, 0, 0), k ? swing : id, 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN, rune_v3(1, 1, 1), false};
        poses[k][2] = (rune_key_pose_desc){s->names[ARM_R], s->names[FORE_R], rune_v3(0, 0, 0), k ? bend : id, 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN, rune_v3(1, 1, 1), false};
        poses[k][3] = (rune_key_pose_desc){s->names[HIPS], s->names[THIGH_L], rune_v3(0, 0, 0), k ? raise : id, 1, 0,
                                           RUNE_EASE_LINEAR, RUNE_EASE_IN, rune_v3(1, 1, 1), false};
        kf[k] = (rune_keyframe_desc){(float)k, poses[k], 4, NULL, 0};
    }
    rune_sequence_desc d = {"motion", 1, false, 0, kf, 3, NULL, 0, 0};
    rune_clip *clip;
    assert_int_equal(rune_clip_compile(&d, NULL, &clip, NULL), RUNE_OK);
    return clip;
}

static rune_vec3 at(const rune_mat4 *m, int j) { return rune_v3(m[j].m[12], m[j].m[13], m[j].m[14]); }

static rune_vec3 direction(const rune_mat4 *m, int from, int to)
{
    rune_vec3 d = rune_v3_sub(at(m, to), at(m, from));
    return rune_v3_scale(d, 1.0f / sqrtf(rune_v3_dot(d, d)));
}

/* Samples the clip on the source and, retargeted, on the target at time t. */
static void pose_both(const rune_rig *src, const rune_rig *dst, const rune_clip *clip, const rune_retarget *rt, float t,
                      rune_mat4 *ms, rune_mat4 *mt)
{
    rune_binding *bs, *bt;
    rune_pose ps, pt;
    assert_int_equal(rune_binding_create(src, clip, NULL, NULL, &bs, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(dst, clip, rt, NULL, &bt, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&ps, N, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&pt, N, NULL, NULL), RUNE_OK);
    rune_binding_sample(bs, t, &ps);
    rune_binding_sample(bt, t, &pt);
    rune_rig_model_matrices(src, &ps, ms);
    rune_rig_model_matrices(dst, &pt, mt);
    rune_pose_release(&ps), rune_pose_release(&pt);
    rune_binding_destroy(bs), rune_binding_destroy(bt);
}

static void test_t_pose_onto_arms_down(void **state)
{
    (void)state;
    shape down = {unreal, 1.2f, 0.0f, 1.1f, 1.0f, false, false};
    rune_rig *src = make_body(&t_pose), *dst = make_body(&down);
    rune_clip *clip = make_motion(&t_pose);
    rune_retarget *rt = map(src, dst, NULL, 0, true);
    static const int limbs[][2] = {{ARM_L, FORE_L}, {FORE_L, HAND_L}, {ARM_R, FORE_R}, {FORE_R, HAND_R},
                                   {THIGH_L, SHIN_L}, {SHIN_L, FOOT_L}, {THIGH_R, SHIN_R}, {SHIN_R, FOOT_R}};
    rune_mat4 ms[N], mt[N];
    for (float t = 0.0f; t <= 1.0f; t += 0.25f) {
        pose_both(src, dst, clip, rt, t, ms, mt);
        for (size_t i = 0; i < sizeof limbs / sizeof *limbs; i++) {
            rune_vec3 a = direction(ms, limbs[i][0], limbs[i][1]), b = direction(mt, limbs[i][0], limbs[i][1]);
            near(rune_v3_dot(a, b), 1.0, 1e-5);
        }
    }
    /* at rest the target's arms are out, as the source's: not its own rest's */
    pose_both(src, dst, clip, rt, 0.0f, ms, mt);
    near(direction(mt, ARM_L, FORE_L).x, 1.0, 1e-5);
    rune_retarget_destroy(rt);
    rune_clip_destroy(clip);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

static void test_splayed_legs_stand_straight(void **state)
{
    (void)state;
    shape splayed = {poser, 0.0f, 0.35f, 1.0f, 1.0f, false, true};
    rune_rig *rig = make_body(&splayed);
    rune_pose pose;
    rune_mat4 rest[N], m[N];
    assert_int_equal(rune_pose_init(&pose, N, NULL, NULL), RUNE_OK);
    rune_rig_model_matrices(rig, &pose, rest);
    rune_humanoid h;
    bool found;
    const rune_allocator *a = rune__alloc_or_default(NULL);
    assert_int_equal(rune__humanoid_find(rig, rest, a, &h, &found), RUNE_OK);
    assert_true(found);
    rune_quat rot[N];
    retarget_stance st = {rot, 0, false, 0, 0, {0, 0, 0}, 0};
    assert_int_equal(rune__retarget_pose(rig, &h, a, &st, NULL), RUNE_OK);
    /* the stance's model rotations, applied to the rest: every rest
     * rotation is the identity, so a joint's model rotation turns the
     * bones below it as they are at rest */
    for (int j = 0; j < N; j++) {
        int q = parent_of[j];
        m[j] = rest[j];
        if (q >= 0) {
            rune_vec3 bone = rune_q_rotate(rot[q], rune_v3_sub(at(rest, j), at(rest, q)));
            rune_vec3 p = rune_v3_add(at(m, q), bone);
            m[j].m[12] = p.x, m[j].m[13] = p.y, m[j].m[14] = p.z;
        }
    }
    for (int side = 0; side < 2; side++) {
        int l = side ? THIGH_R - THIGH_L : 0;
        near(direction(m, THIGH_L + l, SHIN_L + l).y, -1.0, 1e-5);
        near(direction(m, SHIN_L + l, FOOT_L + l).y, -1.0, 1e-5);
    }
    /* the legs' length: the hips over the thighs (0.05) and 0.43 + 0.42 */
    near(st.legs, 0.05 + 0.43 + 0.42, 1e-5);
    rune_pose_release(&pose);
    rune_rig_destroy(rig);
}

static void test_wider_than_tall(void **state)
{
    (void)state;
    shape wide = {mixamo, 0.0f, 0.0f, 3.5f, 1.0f, false, false}; /* arm span 4.3 m on a 1.8 m body */
    rune_rig *src = make_body(&t_pose), *dst = make_body(&wide);
    rune_pose pose;
    rune_mat4 rest[N];
    assert_int_equal(rune_pose_init(&pose, N, NULL, NULL), RUNE_OK);
    rune_rig_model_matrices(dst, &pose, rest);
    assert_true(rest[HAND_END_L].m[12] - rest[HAND_END_R].m[12] > 2.0f * rest[HEAD_END].m[13]);
    rune_humanoid h;
    bool found;
    assert_int_equal(rune__humanoid_find(dst, rest, rune__alloc_or_default(NULL), &h, &found), RUNE_OK);
    assert_true(found);
    near(h.up.y, 1.0, 1e-6);
    near(h.left.x, 1.0, 1e-6);
    near(h.forward.z, 1.0, 1e-6);
    /* travel scales by the legs' ratio, 1 here, whatever the arms */
    rune_retarget *rt = map(src, dst, NULL, 0, false);
    near(rune_retarget_describe(rt).scale, 1.0, 1e-5);
    rune_retarget_destroy(rt);
    rune_pose_release(&pose);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

static void test_z_up_centimetres_onto_y_up_metres(void **state)
{
    (void)state;
    shape zcm = {motion_analysis, 0.0f, 0.1f, 1.0f, 100.0f, true, true};
    shape target = {mixamo, 1.2f, 0.0f, 1.0f, 1.1f, false, false}; /* 10 % taller */
    rune_rig *src = make_body(&zcm), *dst = make_body(&target);
    rune_clip *clip = make_motion(&zcm);
    rune_retarget *rt = map(src, dst, NULL, 0, true);
    rune_retarget_info in = rune_retarget_describe(rt);
    near(in.scale, 1.1 / 100.0, 1e-6);
    rune_mat4 ms[N], mt[N], m0[N];
    pose_both(src, dst, clip, rt, 0.0f, ms, m0);
    /* standing, the source's toes on its floor: the target's on its own */
    near(m0[TOE_L].m[13], 0.0, 1e-4);
    near(m0[TOE_R].m[13], 0.0, 1e-4);
    pose_both(src, dst, clip, rt, 2.0f, ms, mt);
    /* 0.5 m forward (-Y there), 0.1 m down: 0.55 m forward (+Z), 0.11 m down here */
    near(mt[HIPS].m[14] - m0[HIPS].m[14], 0.55, 1e-4);
    near(mt[HIPS].m[13] - m0[HIPS].m[13], -0.11, 1e-4);
    near(mt[HIPS].m[12] - m0[HIPS].m[12], 0.0, 1e-4);
    rune_retarget_destroy(rt);
    rune_clip_destroy(clip);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

static void test_map_overrides_and_options(void **state)
{
    (void)state;
    shape other = {unreal, 1.2f, 0.0f, 1.0f, 1.0f, false, false};
    rune_rig *src = make_body(&t_pose), *dst = make_body(&other);
    const rune_retarget_pair pairs[] = {{"mixamorig:RightArm", "upperarm_l"}, {"mixamorig:LeftArm", NULL}};
    rune_retarget *rt = map(src, dst, pairs, 2, true);
    int32_t t = rune_rig_find(dst, "upperarm_l");
    assert_int_equal(rune_retarget_source_of(rt, (size_t)t), rune_rig_find(src, "mixamorig:RightArm"));
    assert_int_equal(rune_retarget_how(rt, (size_t)t), RUNE_RETARGET_EXPLICIT);
    assert_int_equal(rune_retarget_source_of(rt, (size_t)rune_rig_find(dst, "upperarm_r")), -1);
    assert_int_equal(rune_retarget_target_of(rt, (size_t)rune_rig_find(src, "mixamorig:LeftArm")), -1);
    rune_retarget_info in = rune_retarget_describe(rt);
    assert_false(in.foot_ik);
    assert_int_equal(in.profile_mapped, 19); /* both upper arms off the profile */
    rune_retarget_destroy(rt);
    rt = map(src, dst, NULL, 0, false);
    assert_true(rune_retarget_describe(rt).foot_ik);
    assert_int_equal(rune_retarget_how(rt, (size_t)t), RUNE_RETARGET_HUMANOID);
    rune_retarget_destroy(rt);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

/* Bodies at the ends of float range, and one whose arms fold onto its
 * chest: mappings made or refused, never a NaN in a pose. */
static void test_extreme_bodies(void **state)
{
    (void)state;
    const float scales[] = {1e-18f, 1e-6f, 1e6f, 1e18f};
    for (size_t i = 0; i < 4; i++) {
        shape a = t_pose, b = {unreal, 1.2f, 0.0f, 1.0f, scales[i], false, false};
        a.scale = scales[i];
        rune_rig *src = make_body(&a), *dst = make_body(&b);
        rune_clip *clip = make_motion(&a);
        rune_retarget *rt;
        assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, NULL),
                         RUNE_OK);
        rune_mat4 ms[N], mt[N];
        for (float t = 0.0f; t <= 2.0f; t += 0.5f) {
            pose_both(src, dst, clip, rt, t, ms, mt);
            for (int j = 0; j < N; j++)
                for (int c = 0; c < 16; c++)
                    assert_true(isfinite(mt[j].m[c]));
        }
        rune_retarget_destroy(rt);
        rune_clip_destroy(clip);
        rune_rig_destroy(src);
        rune_rig_destroy(dst);
    }
    shape folded = {poser, -1.5707963f, 0.0f, 0.0f, 1.0f, false, false}; /* arms of length 0 */
    rune_rig *src = make_body(&t_pose), *dst = make_body(&folded);
    rune_retarget *rt;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    assert_false(rune_retarget_describe(rt).humanoid); /* no arms: matched by name */
    rune_retarget_destroy(rt);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

/* Every allocation of a humanoid mapping and its bake failing in turn:
 * RUNE_E_NOMEM, nothing leaked (with foot IK: contacts, scratch poses). */
static void test_allocation_failures(void **state)
{
    (void)state;
    shape other = {unreal, 1.2f, 0.0f, 1.0f, 1.1f, false, false};
    rune_rig *src = make_body(&t_pose), *dst = make_body(&other);
    rune_clip *clip = make_motion(&t_pose);
    size_t worked = 0;
    for (size_t k = 1; k < 200; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_retarget *rt = NULL;
        rune_binding *b = NULL;
        rune_status st = rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, &ca.iface, &rt, NULL);
        if (!st && !(st = rune_binding_create(dst, clip, rt, &ca.iface, &b, NULL))) {
            rune_binding_destroy(b);
            worked++;
        } else {
            assert_int_equal(st, RUNE_E_NOMEM);
        }
        rune_retarget_destroy(rt);
        if (ca.live_bytes)
            counting_alloc_report(&ca);
        assert_int_equal(ca.live_bytes, 0);
    }
    assert_true(worked > 0); /* the loop went past the last allocation */
    rune_clip_destroy(clip);
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conventions_map_bone_to_bone), cmocka_unit_test(test_t_pose_onto_arms_down),
        cmocka_unit_test(test_splayed_legs_stand_straight),  cmocka_unit_test(test_wider_than_tall),
        cmocka_unit_test(test_z_up_centimetres_onto_y_up_metres), cmocka_unit_test(test_map_overrides_and_options),
        cmocka_unit_test(test_extreme_bodies),       cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
