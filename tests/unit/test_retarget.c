/* Unit tests of retargeting (src/rig/retarget_*.c), against what the rule
 * of docs/semantics.md implies, not against rune's own output: onto the
 * same rig, the clip's own pose; onto a copy whose rest frames are turned
 * by random rotations but whose rest joints stand where they did (another
 * orientation convention), the same model-space positions at every time,
 * keys and between keys; onto a copy scaled by 2, positions doubled; onto
 * a rig with longer legs, the target's bone lengths exact and the hips
 * travelling by the ratio of hip heights. Names: exact, part, normalized
 * (mixamorig:, sides), the explicit map and its errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/rig.h"
#include "counting_alloc.h"
#include "test_random.h"
#include "rig/rig_internal.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

enum { JOINTS = 9, KEYS = 9 };

/* A small humanoid: Hips (root), Spine, Head, and two legs. */
static const char *const parts[JOINTS] = {"Hips", "Spine", "Head", "LeftUpLeg", "LeftLeg", "LeftFoot",
                                          "RightUpLeg", "RightLeg", "RightFoot"};
static const int parents[JOINTS] = {-1, 0, 1, 0, 3, 4, 0, 6, 7};
static const float rest_t[JOINTS][3] = {{0, 1, 0},      {0, 0.3f, 0},     {0, 0.4f, 0.05f},
                                        {0.1f, -0.05f, 0}, {0, -0.45f, 0.02f}, {0, -0.45f, -0.02f},
                                        {-0.1f, -0.05f, 0}, {0, -0.45f, 0.02f}, {0, -0.45f, -0.02f}};

static rune_rig *make_rig(const char *prefix, const rune_quat *turn, float scale, float leg)
{
    rune_joint_desc d[JOINTS];
    static char names[JOINTS][64];
    rune_quat model[JOINTS];
    rune_vec3 pos[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        snprintf(names[j], sizeof names[j], "%s%s", prefix, parts[j]);
        int p = parents[j];
        float k = (j == 4 || j == 5 || j == 7 || j == 8) ? leg : 1.0f;
        rune_vec3 off = rune_v3(rest_t[j][0] * scale * k, rest_t[j][1] * scale * k, rest_t[j][2] * scale * k);
        pos[j] = p >= 0 ? rune_v3_add(pos[p], off) : off; /* rest positions: the frames' translations add up */
        /* the rest frame's orientation: identity, or a random turn of the
         * joint's model frame that keeps its position */
        model[j] = turn ? turn[j] : rune_q_identity();
        rune_quat up = p >= 0 ? model[p] : rune_q_identity();
        rune_vec3 t = rune_q_rotate(rune_q_conjugate(up), p >= 0 ? rune_v3_sub(pos[j], pos[p]) : pos[j]);
        d[j] = (rune_joint_desc){names[j], p >= 0 ? names[p] : NULL,
                                 {t, rune_q_normalize(rune_q_mul(rune_q_conjugate(up), model[j]))}, rune_v3(1, 1, 1),
                                 false};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(d, JOINTS, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

static rune_quat random_turn(uint32_t *seed, float amount)
{
    return rune_q_normalize(rune_q(amount * test_random(seed), amount * test_random(seed), amount * test_random(seed),
                                   1.0f));
}

/* A clip on the plain rig: every joint turning, the hips walking. */
static rune_clip *make_clip(uint32_t *seed)
{
    static rune_key_pose_desc poses[KEYS][JOINTS];
    rune_keyframe_desc kf[KEYS];
    for (int k = 0; k < KEYS; k++) {
        for (int j = 0; j < JOINTS; j++) {
            rune_vec3 t = j == 0 ? rune_v3(0.1f * test_random(seed), 0.05f * test_random(seed), 0.2f * (float)k)
                                 : rune_v3(0, 0, 0);
            poses[k][j] = (rune_key_pose_desc){parents[j] >= 0 ? parts[parents[j]] : "", parts[j], t,
                                               random_turn(seed, 0.6f), 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN,
                                               rune_v3(1, 1, 1), false};
        }
        kf[k] = (rune_keyframe_desc){0.25f * (float)k, poses[k], JOINTS};
    }
    rune_sequence_desc d = {"walk", 1, true, RUNE_PRIORITY_MOVEMENT, kf, KEYS, NULL, 0, 0.0f};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static void model_positions(const rune_rig *rig, const rune_binding *b, float t, rune_vec3 *out)
{
    rune_pose pose;
    rune_mat4 m[JOINTS];
    assert_int_equal(rune_pose_init(&pose, JOINTS, NULL, NULL), RUNE_OK);
    rune_binding_sample(b, t, &pose);
    rune_rig_model_matrices(rig, &pose, m);
    for (int j = 0; j < JOINTS; j++)
        out[j] = rune_v3(m[j].m[12], m[j].m[13], m[j].m[14]);
    rune_pose_release(&pose);
}

static double dist(rune_vec3 a, rune_vec3 b)
{
    rune_vec3 d = rune_v3_sub(a, b);
    return sqrt((double)rune_v3_dot(d, d));
}

/* Compares the model positions of the clip on `src` with the retargeted
 * clip on `dst` at keys and between them: dst = scale * src. */
static void expect_same_motion(const rune_rig *src, const rune_rig *dst, const rune_clip *clip, float scale)
{
    rune_retarget *rt;
    rune_binding *own, *moved;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    assert_int_equal(rune_retarget_mapped_count(rt), JOINTS);
    near(rune_retarget_scale(rt), scale, 1e-6);
    assert_int_equal(rune_binding_create(src, clip, NULL, NULL, &own, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(dst, clip, rt, NULL, &moved, NULL), RUNE_OK);
    assert_ptr_equal(rune_binding_source_clip(moved), clip);
    assert_int_equal(rune_binding_bound_count(moved), JOINTS);
    for (int i = 0; i <= 8 * 16; i++) {
        float t = 2.0f * (float)i / 128.0f; /* keys every 0.25: 15 times between each */
        rune_vec3 a[JOINTS], b[JOINTS];
        model_positions(src, own, t, a);
        model_positions(dst, moved, t, b);
        for (int j = 0; j < JOINTS; j++)
            near(dist(rune_v3_scale(a[j], scale), b[j]), 0, 1e-5 * 2.0 * scale);
    }
    rune_binding_destroy(own);
    rune_binding_destroy(moved);
    rune_retarget_destroy(rt);
}

static void test_identical_rig(void **state)
{
    (void)state;
    uint32_t seed = 1;
    rune_rig *rig = make_rig("", NULL, 1, 1);
    rune_clip *clip = make_clip(&seed);
    rune_retarget *rt;
    rune_binding *own, *moved;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){rig, rig, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    assert_int_equal(rune_retarget_how(rt, 4), RUNE_RETARGET_EXACT);
    assert_int_equal(rune_binding_create(rig, clip, NULL, NULL, &own, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(rig, clip, rt, NULL, &moved, NULL), RUNE_OK);
    /* onto itself: the clip's own local pose */
    for (int i = 0; i < 40; i++) {
        rune_pose a, b;
        assert_int_equal(rune_pose_init(&a, JOINTS, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init(&b, JOINTS, NULL, NULL), RUNE_OK);
        rune_binding_sample(own, 0.05f * (float)i, &a);
        rune_binding_sample(moved, 0.05f * (float)i, &b);
        for (int j = 0; j < JOINTS; j++) {
            near(fabsf(rune_q_dot(rune_pose_r(&a, j), rune_pose_r(&b, j))), 1, 1e-6);
            near(dist(rune_pose_t(&a, j), rune_pose_t(&b, j)), 0, 1e-6);
            near(a.coverage[j], b.coverage[j], 0);
        }
        rune_pose_release(&a);
        rune_pose_release(&b);
    }
    rune_binding_destroy(own);
    rune_binding_destroy(moved);
    rune_retarget_destroy(rt);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

static void test_other_orientation_convention(void **state)
{
    (void)state;
    uint32_t seed = 2;
    rune_clip *clip = make_clip(&seed);
    rune_rig *src = make_rig("", NULL, 1, 1);
    for (int trial = 0; trial < 20; trial++) {
        rune_quat turn[JOINTS];
        for (int j = 0; j < JOINTS; j++)
            turn[j] = random_turn(&seed, 3.0f);
        rune_rig *dst = make_rig("", turn, 1, 1);
        expect_same_motion(src, dst, clip, 1.0f);
        rune_rig_destroy(dst);
    }
    rune_rig_destroy(src);
    rune_clip_destroy(clip);
}

static void test_scaled_copy(void **state)
{
    (void)state;
    uint32_t seed = 3;
    rune_clip *clip = make_clip(&seed);
    rune_rig *src = make_rig("", NULL, 1, 1);
    rune_quat turn[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        turn[j] = random_turn(&seed, 2.0f);
    rune_rig *dst = make_rig("mixamorig:", turn, 2, 1);
    expect_same_motion(src, dst, clip, 2.0f);
    rune_rig_destroy(dst);
    rune_rig_destroy(src);
    rune_clip_destroy(clip);
}

static void test_longer_legs(void **state)
{
    (void)state;
    uint32_t seed = 4;
    rune_clip *clip = make_clip(&seed);
    rune_rig *src = make_rig("", NULL, 1, 1), *dst = make_rig("", NULL, 1, 1.5f);
    rune_retarget *rt;
    rune_binding *own, *moved;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    /* hip heights above the lowest joint (the feet): the source's feet at
     * 1 - .05 - .45 - .45 = .05, 0.95 below the hips; the target's at
     * 1 - .05 - 1.5 (.45 + .45) = -.4, 1.4 below */
    near(rune_retarget_scale(rt), 1.4 / 0.95, 1e-5);
    assert_int_equal(rune_binding_create(src, clip, NULL, NULL, &own, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(dst, clip, rt, NULL, &moved, NULL), RUNE_OK);
    rune_vec3 rest_s[JOINTS], rest_t2[JOINTS];
    model_positions(src, own, 0, rest_s);
    model_positions(dst, moved, 0, rest_t2);
    for (int i = 0; i < 33; i++) {
        float t = 0.0625f * (float)i;
        rune_vec3 a[JOINTS], b[JOINTS];
        model_positions(src, own, t, a);
        model_positions(dst, moved, t, b);
        /* the target's bone lengths, exactly its rest ones */
        for (int j = 1; j < JOINTS; j++) {
            float k = (j == 4 || j == 5 || j == 7 || j == 8) ? 1.5f : 1.0f;
            rune_vec3 bone = rune_v3(rest_t[j][0] * k, rest_t[j][1] * k, rest_t[j][2] * k);
            near(dist(b[j], b[parents[j]]), sqrt((double)rune_v3_dot(bone, bone)), 1e-5);
        }
        /* the hips travel by the ratio of hip heights; the legs turn as
         * the source's (each bone's direction) */
        near(dist(rune_v3_sub(b[0], rest_t2[0]), rune_v3_scale(rune_v3_sub(a[0], rest_s[0]), rune_retarget_scale(rt))),
             0, 1e-5);
        for (int j = 4; j <= 5; j++) {
            rune_vec3 da = rune_v3_sub(a[j], a[j - 1]), db = rune_v3_sub(b[j], b[j - 1]);
            near(rune_v3_dot(da, db) / sqrt((double)rune_v3_dot(da, da) * rune_v3_dot(db, db)), 1, 1e-5);
        }
    }
    rune_binding_destroy(own);
    rune_binding_destroy(moved);
    rune_retarget_destroy(rt);
    rune_rig_destroy(dst);
    rune_rig_destroy(src);
    rune_clip_destroy(clip);
}

static void test_names_and_map(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(rune_retarget_normalize("mixamorig:LeftUpLeg", buf, sizeof buf), "leftupleg");
    assert_string_equal(rune_retarget_normalize("UpLeg_L", buf, sizeof buf), "leftupleg");
    assert_string_equal(rune_retarget_normalize("L_UpLeg", buf, sizeof buf), "leftupleg");
    assert_string_equal(rune_retarget_normalize("upleg.r", buf, sizeof buf), "rightupleg");
    assert_string_equal(rune_retarget_normalize("Spine-2", buf, sizeof buf), "spine2");
    rune_rig *src = make_rig("", NULL, 1, 1), *dst = make_rig("mixamorig:", NULL, 1, 1);
    rune_retarget *rt;
    rune_error err;
    /* by normalized name: every joint */
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    assert_int_equal(rune_retarget_how(rt, 0), RUNE_RETARGET_NORMALIZED);
    assert_int_equal(rune_retarget_source_of(rt, 5), 5);
    rune_retarget_destroy(rt);
    /* an explicit map: left and right swapped, the head kept out */
    rune_retarget_pair map[] = {{"LeftUpLeg", "mixamorig:RightUpLeg"}, {"RightUpLeg", "mixamorig:LeftUpLeg"},
                                {"Head", NULL}};
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, map, 3, false}, NULL, &rt, NULL), RUNE_OK);
    assert_int_equal(rune_retarget_source_of(rt, 6), 3);
    assert_int_equal(rune_retarget_how(rt, 6), RUNE_RETARGET_EXPLICIT);
    assert_int_equal(rune_retarget_source_of(rt, 2), -1);
    assert_int_equal(rune_retarget_target_of(rt, 2), -1);
    assert_int_equal(rune_retarget_mapped_count(rt), JOINTS - 1);
    /* the unmapped head keys nothing: coverage 0 from the clip */
    uint32_t seed = 5;
    rune_clip *clip = make_clip(&seed);
    rune_binding *b;
    assert_int_equal(rune_binding_create(dst, clip, rt, NULL, &b, NULL), RUNE_OK);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, JOINTS, NULL, NULL), RUNE_OK);
    rune_binding_sample(b, 0.3f, &pose);
    near(pose.coverage[2], 0, 0);
    near(pose.coverage[1], 1, 0);
    rune_pose_release(&pose);
    rune_binding_destroy(b);
    /* a binding onto a rig of another layout is refused */
    assert_int_equal(rune_binding_create(src, clip, rt, NULL, &b, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "not the retarget mapping's target"));
    rune_retarget_destroy(rt);
    rune_clip_destroy(clip);
    /* errors name the entry */
    rune_retarget_pair bad[] = {{"Hipz", "mixamorig:Hips"}};
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, bad, 1, false}, NULL, &rt, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "map[0]: no joint \"Hipz\" in the source rig"));
    rune_retarget_pair twice[] = {{"Hips", "mixamorig:Hips"}, {"Spine", "mixamorig:Hips"}};
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, twice, 2, false}, NULL, &rt, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "map[1]: target joint \"mixamorig:Hips\" is mapped twice"));
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    uint32_t seed = 6;
    rune_clip *clip = make_clip(&seed);
    rune_rig *src = make_rig("", NULL, 1, 1), *dst = make_rig("mixamorig:", NULL, 2, 1);
    for (size_t k = 1; k < 64; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_retarget *rt = NULL;
        rune_binding *b = NULL;
        if (rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, &ca.iface, &rt, NULL) == RUNE_OK &&
            rune_binding_create(dst, clip, rt, &ca.iface, &b, NULL) == RUNE_OK)
            rune_binding_destroy(b);
        rune_retarget_destroy(rt);
        assert_int_equal(ca.live_bytes, 0);
    }
    rune_rig_destroy(src);
    rune_rig_destroy(dst);
    rune_clip_destroy(clip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_rig),       cmocka_unit_test(test_other_orientation_convention),
        cmocka_unit_test(test_scaled_copy),         cmocka_unit_test(test_longer_legs),
        cmocka_unit_test(test_names_and_map),       cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
