#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
/* Import tests on real motion capture (Debian's assimp-testmodels): our
 * sampled local rotations against the keys assimp reports, at keys and
 * between them, and that hostile files fail cleanly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "rune/import.h"
#include "rune/root.h"
#include "counting_alloc.h"
#include "root/root_internal.h"

#include <math.h>
#include <pthread.h>

#define near_eq(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

#define MODELS "/usr/share/assimp/models/BVH/"

/* Rotation angle between two unit quaternions, in double: 2 atan2(|v|, |w|)
 * of conj(a) b. (2 acos(dot) in float cannot resolve less than ~1e-3.) */
static double angle_between(rune_quat a, rune_quat b)
{
    double ax = -a.x, ay = -a.y, az = -a.z, aw = a.w;
    double x = aw * b.x + ax * b.w + ay * b.z - az * b.y;
    double y = aw * b.y - ax * b.z + ay * b.w + az * b.x;
    double z = aw * b.z + ax * b.y - ay * b.x + az * b.w;
    double w = aw * b.w - ax * b.x - ay * b.y - az * b.z;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

static rune_quat aiq(const struct aiQuaternion *q) { return rune_q_normalize(rune_q(q->x, q->y, q->z, q->w)); }

/* Compares every rotation key of every channel (and the slerp midpoint
 * between consecutive keys) with rune's frame * sampled motor rotation. */
static void compare_file(const char *path, size_t min_pairs)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        skip(); /* assimp-testmodels is installed by setup.sh */
        return;
    }
    fclose(f);
    rune_import *imp;
    rune_error err;
    assert_int_equal(rune_import_file(path, NULL, &imp, &err), RUNE_OK);
    const struct aiScene *sc = aiImportFile(path, 0);
    assert_non_null(sc);
    assert_int_equal(imp->clip_count, sc->mNumAnimations);
    rune_rig *rig;
    rune_clip *clip;
    rune_binding *b;
    assert_int_equal(rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, &err), RUNE_OK);
    assert_int_equal(rune_clip_compile(&imp->clips[0], NULL, &clip, &err), RUNE_OK);
    assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, &err), RUNE_OK);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, rune_rig_joint_count(rig), NULL, NULL), RUNE_OK);
    const struct aiAnimation *a = sc->mAnimations[0];
    double tps = a->mTicksPerSecond > 0 ? a->mTicksPerSecond : 25.0;
    double worst_key = 0, worst_mid = 0;
    size_t checked = 0;
    for (unsigned c = 0; c < a->mNumChannels; c++) {
        const struct aiNodeAnim *ch = a->mChannels[c];
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)ch->mNodeName.length, ch->mNodeName.data);
        int32_t j = rune_rig_find(rig, name);
        assert_true(j >= 0);
        rune_quat frame_r = rune_rig_frame(rig, (size_t)j).r;
        /* every 7th key keeps the test fast on 2,752-frame clips */
        unsigned step = ch->mNumRotationKeys > 500 ? 7 : 1;
        for (unsigned k = 0; k + 1 < ch->mNumRotationKeys; k += step) {
            double t0 = ch->mRotationKeys[k].mTime / tps, t1 = ch->mRotationKeys[k + 1].mTime / tps;
            rune_binding_sample(b, (float)t0, &pose);
            double e = angle_between(rune_q_mul(frame_r, rune_pose_r(&pose, j)), aiq(&ch->mRotationKeys[k].mValue));
            worst_key = e > worst_key ? e : worst_key;
            rune_quat mid = rune_q_slerp(aiq(&ch->mRotationKeys[k].mValue), aiq(&ch->mRotationKeys[k + 1].mValue), 0.5f);
            rune_binding_sample(b, (float)(0.5 * (t0 + t1)), &pose);
            double m = angle_between(rune_q_mul(frame_r, rune_pose_r(&pose, j)), mid);
            worst_mid = m > worst_mid ? m : worst_mid;
            checked++;
        }
    }
    print_message("%s: %zu key pairs, max error %.3g rad at keys, %.3g rad between\n", path, checked, worst_key,
                  worst_mid);
    assert_true(checked >= min_pairs);
    assert_true(worst_key < 1e-4);
    assert_true(worst_mid < 1e-4);
    rune_pose_release(&pose);
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
    aiReleaseImport(sc);
    rune_import_destroy(imp);
}

static void test_cmu_01_01(void **state)
{
    (void)state;
    compare_file(MODELS "01_01.bvh", 1000);
}

static void test_boxing_toes(void **state)
{
    (void)state;
    compare_file(MODELS "Boxing_Toes.bvh", 1000);
}

/* glTF 2.0 skin with LINEAR rotation keys: samples exactly like the source */
static void test_gltf_linear(void **state)
{
    (void)state;
    compare_file("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf", 4);
}

static void test_fbx_skeleton(void **state)
{
    (void)state;
    compare_file("/usr/share/assimp/models/FBX/animation_with_skeleton.fbx", 20);
}

/* FBX files with zlib-compressed arrays: assimp inflates them (and may
 * keep zlib's state: tests/lsan.supp); under the sanitizer run of
 * test.sh this import must report nothing of rune's own. */
static void test_fbx_compressed(void **state)
{
    (void)state;
    rune_import *imp;
    rune_error err;
    assert_int_equal(rune_import_file("/usr/share/assimp/models/FBX/boxWithCompressedCTypeArray.FBX", NULL, &imp,
                                      &err),
                     RUNE_OK);
    assert_true(imp->joint_count > 0);
    rune_import_destroy(imp);
}

/* CMU 01_01 retargeted onto a copy of its own skeleton whose rest frames
 * are turned by random rotations (the joints standing where they did) and
 * whose names carry a "mixamorig:" prefix: the same model-space motion at
 * every frame, to 1e-5 of the rig's height (docs/semantics.md). */
static void test_cmu_onto_other_convention(void **state)
{
    (void)state;
    FILE *f = fopen(MODELS "01_01.bvh", "rb");
    if (!f) {
        skip();
        return;
    }
    fclose(f);
    rune_import *imp;
    rune_error err;
    assert_int_equal(rune_import_file(MODELS "01_01.bvh", NULL, &imp, &err), RUNE_OK);
    rune_rig *src;
    assert_int_equal(rune_rig_create(imp->joints, imp->joint_count, NULL, &src, &err), RUNE_OK);
    size_t n = imp->joint_count;
    rune_mat4 *rest = calloc(n, sizeof *rest), *ma = calloc(n, sizeof *ma), *mb = calloc(n, sizeof *mb);
    rune_quat *model = calloc(n, sizeof *model);
    rune_joint_desc *d = calloc(n, sizeof *d);
    char (*names)[96] = calloc(n, sizeof *names);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, n, NULL, NULL), RUNE_OK);
    rune_rig_model_matrices(src, &pose, rest);
    uint32_t seed = 12345;
    for (size_t j = 0; j < n; j++) {
        snprintf(names[j], sizeof names[j], "mixamorig:%s", imp->joints[j].part);
        int32_t p = rune_rig_parent(src, j);
        seed = seed * 1664525u + 1013904223u;
        float a = (float)(seed >> 8) / 16777216.0f * 6.0f;
        rune_vec3 axis = rune_v3(sinf(a), cosf(2 * a), sinf(3 * a));
        model[j] = rune_q_axis_angle(rune_v3_scale(axis, 1.0f / sqrtf(rune_v3_dot(axis, axis))), a);
        rune_quat up = p >= 0 ? model[p] : rune_q_identity();
        rune_vec3 at = rune_v3(rest[j].m[12], rest[j].m[13], rest[j].m[14]);
        rune_vec3 from = p >= 0 ? rune_v3(rest[p].m[12], rest[p].m[13], rest[p].m[14]) : rune_v3(0, 0, 0);
        d[j] = (rune_joint_desc){names[j], p >= 0 ? names[p] : NULL,
                                 {rune_q_rotate(rune_q_conjugate(up), rune_v3_sub(at, from)),
                                  rune_q_normalize(rune_q_mul(rune_q_conjugate(up), model[j]))},
                                 rune_v3(1, 1, 1), false};
    }
    rune_rig *dst;
    assert_int_equal(rune_rig_create(d, n, NULL, &dst, &err), RUNE_OK);
    rune_retarget *rt;
    rune_clip *clip;
    rune_binding *own, *moved;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, false}, NULL, &rt, &err), RUNE_OK);
    assert_int_equal(rune_retarget_mapped_count(rt), n);
    near_eq(rune_retarget_scale(rt), 1.0, 1e-5);
    assert_int_equal(rune_clip_compile(&imp->clips[0], NULL, &clip, &err), RUNE_OK);
    assert_int_equal(rune_binding_create(src, clip, NULL, NULL, &own, &err), RUNE_OK);
    assert_int_equal(rune_binding_create(dst, clip, rt, NULL, &moved, &err), RUNE_OK);
    double height = rune_rig_height(src), worst = 0;
    for (float t = 0; t < rune_clip_length(clip); t += 0.0731f) { /* keys at 120 Hz: mostly between them */
        rune_binding_sample(own, t, &pose);
        rune_rig_model_matrices(src, &pose, ma);
        rune_binding_sample(moved, t, &pose);
        rune_rig_model_matrices(dst, &pose, mb);
        for (size_t j = 0; j < n; j++)
            for (int c = 12; c < 15; c++)
                worst = fmax(worst, fabs((double)ma[j].m[c] - mb[j].m[c]));
    }
    assert_true(worst <= 1e-5 * height);
    rune_binding_destroy(own);
    rune_binding_destroy(moved);
    rune_clip_destroy(clip);
    rune_retarget_destroy(rt);
    rune_rig_destroy(dst);
    rune_rig_destroy(src);
    rune_pose_release(&pose);
    free(rest), free(ma), free(mb), free(model), free(d), free(names);
    rune_import_destroy(imp);
}

/* A rig imported from a file (NULL when the file is absent). */
static rune_rig *rig_of(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fclose(f);
    rune_import *imp;
    rune_rig *rig;
    assert_int_equal(rune_import_file(path, NULL, &imp, NULL), RUNE_OK);
    assert_int_equal(rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL), RUNE_OK);
    rune_import_destroy(imp);
    return rig;
}

/* Real mocap onto the Xbot's skeleton (Mixamo names): CMU's LeftShoulder
 * is a clavicle, Motion Analysis's the upper arm; both land right. */
static void test_mocap_names_onto_mixamo(void **state)
{
    (void)state;
    rune_rig *xbot = rig_of(RUNE_TEST_DATA "/fixtures/rigs/xbot_skeleton.gltf"), *cmu = rig_of(MODELS "01_01.bvh"),
             *boxer = rig_of(MODELS "Boxing_Toes.bvh");
    if (!cmu || !boxer) {
        rune_rig_destroy(xbot), rune_rig_destroy(cmu), rune_rig_destroy(boxer);
        skip();
        return;
    }
    static const char *const target[] = {"mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm",
                                         "mixamorig:LeftHand", "mixamorig:RightUpLeg", "mixamorig:RightLeg",
                                         "mixamorig:RightFoot", "mixamorig:Hips"};
    static const char *const from_cmu[] = {"LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightUpLeg",
                                           "RightLeg", "RightFoot", "Hips"};
    static const char *const from_boxer[] = {"LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist", "RightHip",
                                             "RightKnee", "RightAnkle", "Hips"};
    const rune_rig *sources[] = {cmu, boxer};
    const char *const *names[] = {from_cmu, from_boxer};
    for (int k = 0; k < 2; k++) {
        rune_retarget *rt;
        assert_int_equal(rune_retarget_create(&(rune_retarget_desc){sources[k], xbot, NULL, 0, false}, NULL, &rt, NULL),
                         RUNE_OK);
        assert_true(rune_retarget_describe(rt).humanoid);
        for (size_t i = 0; i < sizeof target / sizeof *target; i++)
            assert_int_equal(rune_retarget_source_of(rt, (size_t)rune_rig_find(xbot, target[i])),
                             rune_rig_find(sources[k], names[k][i]));
        rune_retarget_destroy(rt);
    }
    rune_rig_destroy(xbot), rune_rig_destroy(cmu), rune_rig_destroy(boxer);
}

static void test_bad_files(void **state)
{
    (void)state;
    rune_import *imp = (rune_import *)1;
    rune_error err;
    assert_int_equal(rune_import_file("/nonexistent/file.bvh", NULL, &imp, &err), RUNE_E_IO);
    assert_null(imp);
    assert_non_null(strstr(err.message, "/nonexistent/file.bvh: cannot read the file"));
    assert_int_equal(rune_import_file("/nonexistent/file.gltf", NULL, &imp, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "/nonexistent/file.gltf: cannot import"));
    char path[] = "/tmp/rune-bad-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n", f); /* truncated */
    fclose(f);
    assert_int_equal(rune_import_file(path, NULL, &imp, &err), RUNE_E_PARSE);
    remove(path);
}

/* An imported fixture's first clip, bound to its rig, and a pose to
 * sample it into. */
typedef struct imported_clip {
    rune_import *imp;
    rune_rig *rig;
    rune_clip *clip;
    rune_binding *b;
    rune_pose p;
} imported_clip;

static void import_first_clip(const char *path, imported_clip *x)
{
    rune_error err;
    assert_int_equal(rune_import_file(path, NULL, &x->imp, &err), RUNE_OK);
    for (size_t i = 0; i < x->imp->warning_count; i++) /* CUBICSPLINE tangents were read */
        assert_null(strstr(x->imp->warnings[i], "CUBICSPLINE"));
    assert_int_equal(rune_rig_create(x->imp->joints, x->imp->joint_count, NULL, &x->rig, &err), RUNE_OK);
    assert_int_equal(rune_clip_compile(&x->imp->clips[0], NULL, &x->clip, &err), RUNE_OK);
    assert_int_equal(rune_binding_create(x->rig, x->clip, 0, NULL, &x->b, &err), RUNE_OK);
    assert_int_equal(rune_pose_init(&x->p, rune_rig_joint_count(x->rig), NULL, NULL), RUNE_OK);
}

/* Samples the clip at t and checks one channel of joint j (within tol). */
static void expect_channel(imported_clip *x, float t, const float *channel, int32_t j, float want, float tol)
{
    rune_binding_sample(x->b, t, &x->p);
    assert_float_equal(channel[j], want, tol);
}

static void imported_clip_free(imported_clip *x)
{
    rune_pose_release(&x->p);
    rune_binding_destroy(x->b);
    rune_clip_destroy(x->clip);
    rune_rig_destroy(x->rig);
    rune_import_destroy(x->imp);
}

/* tests/fixtures/steps.gltf: joint A rotates 0 -> 90 -> 180 deg about Y
 * with STEP keys (its translation constant); joint B translates linearly
 * 0 -> 2 -> 4 while its rotation STEPs 0 -> 60 -> 0 deg about X; Root's
 * translation is a CUBICSPLINE from y 0 (out-tangent 6) to y 3 (in-tangent
 * 0) over 1 s. */
static void test_gltf_step_and_cubic(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/steps.gltf", &x);
    int32_t a = rune_rig_find(x.rig, "Root/A"), bj = rune_rig_find(x.rig, "Root/B"), root = rune_rig_find(x.rig, "Root");
    /* A steps exactly (constant easing): still 0 deg at .999 s, 90 at 1 s */
    expect_channel(&x, 0.999f, x.p.qw, a, 1.0f, 1e-6f);
    expect_channel(&x, 1.0f, x.p.qy, a, 0.70710678f, 1e-6f);
    expect_channel(&x, 1.5f, x.p.qy, a, 0.70710678f, 1e-6f);
    /* B: translation interpolates (x = 1 at .5 s) while its rotation holds
     * 0 deg until the 0.1 ms ramp before 1 s, then 60 deg */
    expect_channel(&x, 0.5f, x.p.tx, bj, 1.0f, 1e-5f);
    expect_channel(&x, 0.5f, x.p.qw, bj, 1.0f, 1e-6f);
    expect_channel(&x, 0.9998f, x.p.qw, bj, 1.0f, 1e-6f);
    expect_channel(&x, 1.0f, x.p.qx, bj, 0.5f, 1e-5f);
    /* Root: the Hermite curve y(s) = (s^3 - 2s^2 + s) 6 + (-2s^3 + 3s^2) 3,
     * resampled 16 times per interval (s = .25 and .5 are sample points):
     * y(.25) = .140625 * 6 + .15625 * 3 = 1.3125; y(.5) = .125 * 6 + .5 * 3
     * = 2.25 (linear interpolation of the key values would give .75, 1.5) */
    expect_channel(&x, 0.25f, x.p.ty, root, 1.3125f, 1e-5f);
    expect_channel(&x, 0.5f, x.p.ty, root, 2.25f, 1e-5f);
    expect_channel(&x, 1.0f, x.p.ty, root, 3.0f, 1e-5f);
    imported_clip_free(&x);
}

/* tests/fixtures/scale_modes.gltf: scale channels keep their glTF modes.
 * A's scale STEPs 1 -> 2 -> 3 at 0, 1, 2 s (nothing else of A moves: the
 * constant easing, exact); B's is a CUBICSPLINE from x 1 (out-tangent 6)
 * to x 4 (in-tangent 0) over 1 s; C's translation runs linearly 0 -> 2
 * along x while its scale STEPs 1 -> 2 at 1 s (a 0.1 ms ramp). */
static void test_gltf_scale_modes(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/scale_modes.gltf", &x);
    int32_t a = rune_rig_find(x.rig, "Root/A"), bj = rune_rig_find(x.rig, "Root/B"), c = rune_rig_find(x.rig, "Root/C");
    /* A: still 1 at .999 s, 2 from 1 s (linear would give 1.999), 3 at 2 s */
    expect_channel(&x, 0.999f, x.p.sx, a, 1.0f, 1e-6f);
    expect_channel(&x, 1.0f, x.p.sy, a, 2.0f, 1e-6f);
    expect_channel(&x, 1.5f, x.p.sz, a, 2.0f, 1e-6f);
    expect_channel(&x, 2.0f, x.p.sx, a, 3.0f, 1e-6f);
    /* B: x(s) = (2s^3 - 3s^2 + 1) + 6 (s^3 - 2s^2 + s) + 4 (-2s^3 + 3s^2):
     * x(.25) = .84375 + .84375 + .625 = 2.3125, x(.5) = .5 + .75 + 2 =
     * 3.25 (linear: 1.75, 2.5); y and z stay 1 */
    expect_channel(&x, 0.25f, x.p.sx, bj, 2.3125f, 1e-5f);
    expect_channel(&x, 0.25f, x.p.sy, bj, 1.0f, 1e-6f);
    expect_channel(&x, 0.5f, x.p.sx, bj, 3.25f, 1e-5f);
    /* C: translation x 1 at .5 s while the scale holds 1 until the ramp
     * before 1 s, then 2 */
    expect_channel(&x, 0.5f, x.p.tx, c, 1.0f, 1e-5f);
    expect_channel(&x, 0.5f, x.p.sx, c, 1.0f, 1e-6f);
    expect_channel(&x, 0.9998f, x.p.sx, c, 1.0f, 1e-6f);
    expect_channel(&x, 1.0f, x.p.sx, c, 2.0f, 1e-6f);
    imported_clip_free(&x);
}

/* tests/fixtures/robot_like.gltf (make_rig_fixtures.py): a mesh node
 * "Torso" comes before the spine bone "Torso" in node order, and the IK
 * bone Foot.L moves before the body. The mesh stays out of the rig (the
 * channel's name resolves to the node that is only a transform), so the
 * bone keeps its name and its rotation keys: R_y(90) at 1 s. The
 * root-motion joint is the moving joint nearest the root whose subtree
 * holds most of the rig: Body (6 of 9 joints), not Foot.L (2). */
static void test_gltf_names_and_hips(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/robot_like.gltf", &x);
    assert_int_equal(x.imp->joint_count, 9);
    for (size_t j = 0; j < x.imp->joint_count; j++)
        assert_null(strstr(x.imp->joints[j].part, "Torso_2"));
    assert_int_equal(rune_rig_find(x.rig, "RobotArmature/Torso"), -1);
    int32_t torso = rune_rig_find(x.rig, "Hips/Torso"), foot = rune_rig_find(x.rig, "Bone/Foot.L");
    assert_true(torso >= 0 && foot >= 0);
    assert_string_equal(x.imp->joints[x.imp->root_joint].part, "Body");
    const float h = 0.70710678f;
    expect_channel(&x, 1.0f, x.p.qy, torso, h, 1e-6f);
    expect_channel(&x, 1.0f, x.p.qw, torso, h, 1e-6f);
    expect_channel(&x, 1.0f, x.p.qx, foot, h, 1e-6f);
    /* Head hangs from the bone, 0.4 above it */
    int32_t head = rune_rig_find(x.rig, "Torso/Head");
    assert_true(head >= 0);
    assert_float_equal(rune_rig_frame(x.rig, (size_t)head).t.y, 0.4f, 1e-6f);
    imported_clip_free(&x);
}

/* tests/fixtures/centimetre_rig.gltf: the Armature's 0.01 scale folds into
 * the hips' rest frame, and root motion is in model units: 100 units of
 * pose travel along z over the 1 s clip are 1 model unit. */
static void test_gltf_centimetre_root_motion(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/centimetre_rig.gltf", &x);
    int32_t hips = x.imp->root_joint;
    assert_string_equal(x.imp->joints[hips].part, "Hips");
    assert_float_equal(rune_rig_frame_scale(x.rig, (size_t)hips).z, 0.01f, 1e-8f);
    rune_root_travel t = rune_root_clip_travel(x.b, hips, rune_v3(0, 1, 0), 0.0, 1.0);
    assert_float_equal(t.t.z, 100.0f, 1e-4f);
    rune_root_delta d = rune_root_rig_to_model(x.rig, hips, t);
    assert_float_equal(d.dz, 1.0f, 1e-6f);
    assert_float_equal(d.dx, 0.0f, 1e-6f);
    imported_clip_free(&x);
}

/* meshopt-compressed glTF (make_rig_fixtures.py): refused with what the
 * extension is and how to decompress, whether it is required or only used
 * (then assimp fails on the empty fallback buffer, and the advice follows
 * its message); nothing is imported. */
static void test_gltf_meshopt_message(void **state)
{
    (void)state;
    const char *files[] = {RUNE_TEST_DATA "/fixtures/meshopt_required.gltf",
                           RUNE_TEST_DATA "/fixtures/meshopt_used.gltf"};
    for (int i = 0; i < 2; i++) {
        rune_import *imp = (rune_import *)&imp;
        rune_error err = {0};
        assert_int_equal(rune_import_file(files[i], NULL, &imp, &err), RUNE_E_INVALID);
        assert_null(imp);
        assert_non_null(strstr(err.message, "uses EXT_meshopt_compression"));
        assert_non_null(strstr(err.message, "npx @gltf-transform/cli copy"));
        assert_non_null(strstr(err.message, files[i]));
    }
}

/* A glTF of `n` nodes, each the child of the one before (a chain n
 * deep), with `extra` appended inside the last node's braces (e.g. a
 * child list that makes a cycle). */
static char *chain_gltf(size_t n, const char *extra, size_t *len)
{
    size_t cap = 64 * n + 256 + strlen(extra);
    char *s = malloc(cap);
    assert_non_null(s);
    size_t at = (size_t)snprintf(s, cap, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n)
            at += (size_t)snprintf(s + at, cap - at, "{\"name\":\"n%zu\",\"children\":[%zu]},", i, i + 1);
        else
            at += (size_t)snprintf(s + at, cap - at, "{\"name\":\"n%zu\"%s}", i, extra);
    }
    at += (size_t)snprintf(s + at, cap - at, "]}");
    *len = at;
    return s;
}

typedef struct small_stack_import {
    const char *text, *hint;
    size_t len;
    rune_status status;
    size_t joints;
} small_stack_import;

static void *import_on_small_stack(void *p)
{
    small_stack_import *c = p;
    rune_import *imp = NULL;
    c->status = rune_import_memory(c->text, c->len, c->hint, "chain", NULL, &imp, NULL);
    c->joints = imp ? imp->joint_count : 0;
    rune_import_destroy(imp);
    return NULL;
}

/* Imports c on a thread with a 256 KB stack. */
static void import_from_small_stack(small_stack_import *c)
{
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, 256 << 10), 0);
    assert_int_equal(pthread_create(&t, &attr, import_on_small_stack, c), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

/* Node hierarchies assimp's recursion cannot walk are refused before it
 * reads them (a chain of 100,000 nodes overflowed the 8 MB stack); a
 * chain at the limit imports even when called from a thread with a
 * 256 KB stack, because the import runs on a deep stack of its own. */
static void test_gltf_hostile_hierarchy(void **state)
{
    (void)state;
    struct {
        size_t n;
        const char *extra, *want;
    } bad[] = {{100000, "", "10001 levels deep at nodes[10000], more than 10000"},
               {10001, "", "10001 levels deep"},
               {5, ",\"children\":[2]", "nodes[2] is a child of two nodes (1 and 4)"},
               {5, ",\"children\":[0]", "nodes[0] is its own ancestor"},
               {3, ",\"children\":[7]", "nodes[2].children[0] is not a node index"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t len;
        char *text = chain_gltf(bad[i].n, bad[i].extra, &len);
        rune_import *imp = (rune_import *)&imp;
        rune_error err = {0};
        assert_int_equal(rune_import_memory(text, len, "gltf", "chain.gltf", NULL, &imp, &err), RUNE_E_INVALID);
        assert_null(imp);
        if (!strstr(err.message, bad[i].want))
            fail_msg("case %zu: %s", i, err.message);
        assert_non_null(strstr(err.message, "chain.gltf: cannot import"));
        free(text);
    }
    small_stack_import c = {NULL, "gltf", 0, RUNE_E_INVALID, 0};
    c.text = chain_gltf(10000, "", &c.len);
    import_from_small_stack(&c);
    assert_int_equal(c.status, RUNE_OK);
    free((char *)c.text);
}

/* Other formats are not checked for depth: an FBX chain of 20,000 bones
 * (assimp's FBX converter recurses a frame a level) imports whole from
 * a 256 KB stack, on the import's own deep one. */
static void test_deep_fbx(void **state)
{
    (void)state;
    enum { N = 20000 };
    size_t cap = (size_t)N * 320 + 256, at = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    at += (size_t)snprintf(s + at, cap - at, "; FBX 7.4.0 project file\nFBXHeaderExtension: {\n\tFBXHeaderVersion: 1003\n"
                                             "\tFBXVersion: 7400\n}\nObjects: {\n");
    for (int i = 0; i < N; i++)
        at += (size_t)snprintf(s + at, cap - at, "\tNodeAttribute: %d, \"NodeAttribute::\", \"LimbNode\" {\n"
                                                 "\t\tTypeFlags: \"Skeleton\"\n\t}\n\tModel: %d, \"Model::n%d\", \"LimbNode\" {\n"
                                                 "\t\tVersion: 232\n\t}\n", 2000000 + i, 1000000 + i, i);
    at += (size_t)snprintf(s + at, cap - at, "}\nConnections: {\n");
    for (int i = 0; i < N; i++)
        at += (size_t)snprintf(s + at, cap - at, "\tC: \"OO\", %d, %d\n\tC: \"OO\", %d, %d\n", 1000000 + i,
                               i ? 1000000 + i - 1 : 0, 2000000 + i, 1000000 + i);
    at += (size_t)snprintf(s + at, cap - at, "}\n");
    assert_true(at < cap);
    small_stack_import c = {s, "fbx", at, RUNE_E_INVALID, 0};
    import_from_small_stack(&c);
    assert_int_equal(c.status, RUNE_OK);
    assert_true(c.joints >= N); /* every bone of the chain */
    free(s);
}

/* tests/fixtures/past_stop_{ascii,binary}.fbx (make_fbx_fixtures.py):
 * Spine's X rotation keys 0, 45, 90 deg at 0, .5 and 1.0000008 s, the
 * take stopping at 1 s. assimp alone drops the last key (the clip ended at
 * .5 s, 45 deg: a pop every loop); with the take's stop widened by 1 ms the
 * clip runs to 1.0000008 s and ends at Rx(90) = (sin 45, 0, 0, cos 45). */
static void test_fbx_keys_past_stop(void **state)
{
    (void)state;
    const char *files[] = {RUNE_TEST_DATA "/fixtures/past_stop_ascii.fbx",
                           RUNE_TEST_DATA "/fixtures/past_stop_binary.fbx"};
    for (int i = 0; i < 2; i++) {
        imported_clip x;
        import_first_clip(files[i], &x);
        assert_float_equal(rune_clip_length(x.clip), 1.0000008f, 1e-7f);
        int32_t spine = rune_rig_find(x.rig, "Spine");
        assert_true(spine >= 0);
        const float h = 0.70710678f, s45 = 0.38268343f;
        expect_channel(&x, 0.5f, x.p.qx, spine, s45, 1e-6f);
        expect_channel(&x, 1.0000008f, x.p.qx, spine, h, 1e-6f);
        expect_channel(&x, 1.0000008f, x.p.qw, spine, h, 1e-6f);
        imported_clip_free(&x);
    }
}

/* tests/fixtures/two_characters.gltf: CharA/Hips and CharB/Hips share the
 * name; the animation's channel targets CharB's (glTF node 4). Bound by
 * the glTF's node index, the rig is CharB's Hips with CharB's offset
 * folded in: frame t = (10, 0, 0) + (5, 1, 0) = (15, 1, 0) (by name it
 * was CharA's, at (0, 1, 0)); the key turns it R_y(90) at 1 s. */
static void test_gltf_channels_by_node(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/two_characters.gltf", &x);
    assert_int_equal(x.imp->joint_count, 2);
    int32_t hips = rune_rig_find(x.rig, "Hips");
    assert_int_equal(hips, 0);
    rune_xform f = rune_rig_frame(x.rig, 0);
    assert_float_equal(f.t.x, 15.0f, 1e-6f);
    assert_float_equal(f.t.y, 1.0f, 1e-6f);
    expect_channel(&x, 1.0f, x.p.qy, hips, 0.70710678f, 1e-6f);
    imported_clip_free(&x);
}

static float curve_at(const rune_clip *c, const char *name, float t)
{
    int32_t i = rune_clip_find_curve(c, name);
    if (i < 0)
        fail_msg("no curve %s", name);
    rune_curve_sample s;
    rune_clip_sample_curve(c, (size_t)i, t, &s);
    assert_float_equal(s.coverage, 1.0f, 0.0f);
    return s.value;
}

/* tests/fixtures/morphs.gltf (three meshes of two morph targets each, one
 * "weights" channel a node): Face (extras.targetNames smile, blink) LINEAR,
 * smile 0 -> 1 -> .5 and blink 1 -> 0 -> 0 at 0, 1, 2 s; Brow (no names)
 * STEP, .2 -> .8 -> .4 and 0 -> 1 -> 1; Lid CUBICSPLINE, target 0 from 0
 * (out-tangent 3) to 1 (in 0) to 0 (in -1), target 1 flat at 1. */
static void test_gltf_morph_weights(void **state)
{
    (void)state;
    imported_clip x;
    import_first_clip(RUNE_TEST_DATA "/fixtures/morphs.gltf", &x);
    for (size_t i = 0; i < x.imp->warning_count; i++)
        assert_null(strstr(x.imp->warnings[i], "morph"));
    const rune_clip *c = x.clip;
    assert_int_equal(rune_clip_curve_count(c), 6);
    assert_float_equal(curve_at(c, "Face/smile", 0.5f), 0.5f, 1e-6f);
    assert_float_equal(curve_at(c, "Face/smile", 1.5f), 0.75f, 1e-6f);
    assert_float_equal(curve_at(c, "Face/blink", 0.25f), 0.75f, 1e-6f);
    /* STEP: the previous key's value until the next key's time */
    assert_float_equal(curve_at(c, "Brow/0", 0.999f), 0.2f, 1e-6f);
    assert_float_equal(curve_at(c, "Brow/0", 1.0f), 0.8f, 1e-6f);
    assert_float_equal(curve_at(c, "Brow/0", 1.999f), 0.8f, 1e-6f);
    assert_float_equal(curve_at(c, "Brow/0", 2.0f), 0.4f, 1e-6f);
    assert_float_equal(curve_at(c, "Brow/1", 0.5f), 0.0f, 0.0f);
    /* CUBICSPLINE, tangents per second (span 1): at s = .5, h00 = h01 = .5,
     * h10 = .125, h11 = -.125: first interval .375 x 3... .125 x 3 + .5 =
     * .875; second .5 x 1 + (-.125)(-1) = .625 (linear: .5 and .5) */
    assert_float_equal(curve_at(c, "Lid/0", 0.5f), 0.875f, 1e-6f);
    assert_float_equal(curve_at(c, "Lid/0", 1.5f), 0.625f, 1e-6f);
    assert_float_equal(curve_at(c, "Lid/1", 0.7f), 1.0f, 1e-6f);
    imported_clip_free(&x);
    /* read from memory (no file to read the glTF's own JSON from):
     * assimp's morph channels, which lose the STEP and CUBICSPLINE modes
     * (C's cubic keys come out as more targets), but name the curves
     * MESH/TARGET the same way and agree on the LINEAR channel */
    FILE *f = fopen(RUNE_TEST_DATA "/fixtures/morphs.gltf", "rb");
    assert_non_null(f);
    char text[16384];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    rune_import *imp;
    rune_clip *clip;
    assert_int_equal(rune_import_memory(text, n, "gltf", "morphs", NULL, &imp, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compile(&imp->clips[0], NULL, &clip, NULL), RUNE_OK);
    assert_float_equal(curve_at(clip, "Face/smile", 0.5f), 0.5f, 1e-6f);
    assert_float_equal(curve_at(clip, "Face/smile", 1.5f), 0.75f, 1e-6f);
    assert_float_equal(curve_at(clip, "Face/blink", 0.25f), 0.75f, 1e-6f);
    assert_true(rune_clip_find_curve(clip, "Brow/1") >= 0);
    rune_clip_destroy(clip);
    rune_import_destroy(imp);
}

/* Accessors whose bufferView claims a byteStride of 2^62: n - 1 strides
 * of it wrap to 0 in 64 bits, which once passed the bounds check and read
 * far outside the buffer. assimp reads the stride as 32 bits (0: packed)
 * and imports the file; rune's own reader must refuse the layout and keep
 * assimp's keys, for a CUBICSPLINE translation and a LINEAR "weights"
 * channel alike. */
static void test_gltf_hostile_stride(void **state)
{
    (void)state;
    static const char *const files[] = {RUNE_TEST_DATA "/fixtures/hostile_stride.gltf",
                                        RUNE_TEST_DATA "/fixtures/hostile_stride_weights.gltf"};
    static const char *const warned[] = {"CUBICSPLINE keys whose tangents could not be read",
                                         "morph target weights of node \"A\" could not be read"};
    for (size_t f = 0; f < 2; f++) {
        rune_import *imp;
        rune_error err;
        assert_int_equal(rune_import_file(files[f], NULL, &imp, &err), RUNE_OK);
        bool found = false;
        for (size_t i = 0; i < imp->warning_count; i++)
            found = found || strstr(imp->warnings[i], warned[f]) != NULL;
        assert_true(found);
        rune_import_destroy(imp);
    }
}

/* Debian's AnimatedMorphCube (glTF sample models): one LINEAR "weights"
 * channel of 127 keys and 2 targets on the mesh "Cube". Every key of both
 * curves against the floats of its .bin, read here with the offsets of
 * the .gltf (accessor 10: times at byte 2760; 11: values at 3268, target
 * 0 then 1 per key), and midway between keys their mean. */
static void test_animated_morph_cube(void **state)
{
    (void)state;
    const char *dir = "/usr/share/assimp/models/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/";
    char path[512];
    snprintf(path, sizeof path, "%sAnimatedMorphCube.bin", dir);
    FILE *f = fopen(path, "rb");
    if (!f)
        skip();
    unsigned char bin[4284];
    assert_int_equal(fread(bin, 1, sizeof bin, f), sizeof bin);
    fclose(f);
    float times[127], values[254];
    memcpy(times, bin + 2760, sizeof times);
    memcpy(values, bin + 3268, sizeof values);
    snprintf(path, sizeof path, "%sAnimatedMorphCube.gltf", dir);
    imported_clip x;
    import_first_clip(path, &x);
    for (size_t i = 0; i < x.imp->warning_count; i++)
        assert_null(strstr(x.imp->warnings[i], "morph"));
    const char *names[2] = {"Cube/0", "Cube/1"};
    for (int t = 0; t < 2; t++) {
        int32_t ci = rune_clip_find_curve(x.clip, names[t]);
        assert_true(ci >= 0);
        assert_int_equal(rune_clip_curve_key_count(x.clip, (size_t)ci), 127);
        for (int k = 0; k < 127; k++) {
            assert_float_equal(curve_at(x.clip, names[t], times[k]), values[2 * k + t], 0.0f);
            if (k < 126) {
                float mid = 0.5f * (times[k] + times[k + 1]);
                assert_float_equal(curve_at(x.clip, names[t], mid), 0.5f * (values[2 * k + t] + values[2 * k + 2 + t]),
                                   1e-6f);
            }
        }
    }
    /* the cube squares up: target 0 peaks at 1 s (.68), target 1 at 3 s */
    assert_float_equal(curve_at(x.clip, "Cube/0", 1.0f), 0.683594f, 1e-5f);
    assert_float_equal(curve_at(x.clip, "Cube/1", 3.0f), 0.877332f, 1e-5f);
    imported_clip_free(&x);
}

/* Found by fuzz_import: a BVH claiming -1 frames. assimp tries a huge
 * allocation and catches std::bad_alloc; rune reports an error. */
static void test_negative_frames(void **state)
{
    (void)state;
    rune_import *imp = (rune_import *)1;
    rune_error err;
    assert_int_equal(rune_import_file(RUNE_TEST_DATA "/fixtures/negative_frames.bvh", NULL, &imp, &err), RUNE_E_PARSE);
    assert_null(imp);
    assert_non_null(strstr(err.message, "cannot import"));
    /* Found by fuzz_import too: 65 bytes claiming 5,555,553 frames, which
     * assimp would turn into that many keys (or loop on for minutes):
     * refused before assimp sees it */
    assert_int_equal(rune_import_file(RUNE_TEST_DATA "/fixtures/huge_frame_count.bvh", NULL, &imp, &err),
                     RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "the frame count does not fit the file"));
    assert_int_equal(rune_import_file(RUNE_TEST_DATA "/fixtures/negative_frames.bvh", NULL, &imp, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "negative frame count"));
    /* "Frames: -3" kept assimp's reader looping for minutes */
    assert_int_equal(rune_import_file(RUNE_TEST_DATA "/fixtures/negative_frames_loop.bvh", NULL, &imp, &err),
                     RUNE_E_PARSE);
    /* Found by fuzz_import: a joint named "Sp#..Frames:.." before the real
     * "Frames: -66" (the check read the first one only), and a count on
     * the next line */
    static const char hidden[] = "HIERARCHY\nROOT Hips\n{\nJOINT Sp#\323\323Frames:\323\323/e\n\t{\n\t\t}\n}\t \n"
                                 "MOTION\nFrames: -66\n\nFrame Time: 0\n5.0";
    assert_int_equal(rune_import_memory(hidden, sizeof hidden - 1, "bvh", "hidden.bvh", NULL, &imp, &err),
                     RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "hidden.bvh: cannot import: negative frame count"));
    static const char next_line[] = "HIERARCHY\nROOT Hips\n{\n}\nMOTION\nFrames:\n-3\nFrame Time: 0.1\n";
    assert_int_equal(rune_import_memory(next_line, sizeof next_line - 1, "bvh", "next.bvh", NULL, &imp, &err),
                     RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "negative frame count"));
    /* and an empty buffer, which assimp would abort on */
    assert_int_equal(rune_import_memory("", 0, "bvh", "empty.bvh", NULL, &imp, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "empty.bvh: cannot import: empty input"));
}

static void test_import_allocation_failures(void **state)
{
    (void)state;
    const char *path = RUNE_TEST_DATA "/fixtures/tiny.bvh";
    for (size_t k = 1; k < 40; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_import *imp = NULL;
        rune_status st = rune_import_file(path, &ca.iface, &imp, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_import_destroy(imp);
        assert_int_equal(ca.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmu_01_01),
        cmocka_unit_test(test_boxing_toes),
        cmocka_unit_test(test_cmu_onto_other_convention),
        cmocka_unit_test(test_mocap_names_onto_mixamo),
        cmocka_unit_test(test_gltf_linear),
        cmocka_unit_test(test_fbx_skeleton),
        cmocka_unit_test(test_fbx_compressed),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_gltf_step_and_cubic),
        cmocka_unit_test(test_gltf_scale_modes),
        cmocka_unit_test(test_gltf_names_and_hips),
        cmocka_unit_test(test_gltf_channels_by_node),
        cmocka_unit_test(test_gltf_centimetre_root_motion),
        cmocka_unit_test(test_gltf_meshopt_message),
        cmocka_unit_test(test_fbx_keys_past_stop),
        cmocka_unit_test(test_gltf_morph_weights),
        cmocka_unit_test(test_animated_morph_cube),
        cmocka_unit_test(test_gltf_hostile_stride),
        cmocka_unit_test(test_negative_frames),
        cmocka_unit_test(test_import_allocation_failures),
        cmocka_unit_test(test_gltf_hostile_hierarchy),
        cmocka_unit_test(test_deep_fbx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
