/* Unit tests of src/rig: layout validation, names, revisions, binding by
 * (parent, part) with the unambiguous part-only fallback, binding cache. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rune/mix.h"
#include "rune/play.h"
#include "rune/rig.h"
#include "counting_alloc.h"
#include "test_levels.h"
#include "test_random.h"
#include "mix/mix_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))
#define J(part, parent) {part, parent, {{0, 0, 0}, {0, 0, 0, 1}}}

/* Root, Torso, LeftArm, RightArm, and a Hand under each arm. */
static const rune_joint_desc body[] = {
    J("Root", NULL),        J("Torso", "Root"),    J("LeftArm", "Torso"),
    J("RightArm", "Torso"), J("Hand", "LeftArm"), J("Hand", "RightArm"),
};

static rune_rig *make_body(void)
{
    rune_rig *rig;
    assert_int_equal(rune_rig_create(body, 6, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

static void test_layout_names(void **state)
{
    (void)state;
    rune_rig *rig = make_body();
    char buf[64];
    assert_int_equal(rune_rig_joint_count(rig), 6);
    assert_int_equal(rune_rig_parent(rig, 0), -1);
    assert_int_equal(rune_rig_parent(rig, 5), 3);
    assert_string_equal(rune_rig_joint_name(rig, 0, buf, sizeof buf), "Root");
    assert_string_equal(rune_rig_joint_name(rig, 4, buf, sizeof buf), "LeftArm/Hand");
    assert_int_equal(rune_rig_find(rig, "RightArm/Hand"), 5);
    assert_int_equal(rune_rig_find(rig, "Torso"), 1);
    assert_int_equal(rune_rig_find(rig, "Hand"), -1); /* ambiguous */
    assert_int_equal(rune_rig_find(rig, "Nope"), -1);
    rune_rig_destroy(rig);
}

static void test_layout_rejects(void **state)
{
    (void)state;
    rune_rig *rig;
    rune_error err;
    const rune_joint_desc child_first[] = {J("Root", NULL), J("Hand", "Arm"), J("Arm", "Root")};
    assert_int_equal(rune_rig_create(child_first, 3, NULL, &rig, &err), RUNE_E_INVALID);
    assert_null(rig);
    assert_non_null(strstr(err.message, "joints[1].parent: \"Arm\" is not an earlier joint"));

    const rune_joint_desc dup[] = {J("Root", NULL), J("Arm", "Root"), J("Arm", "Root")};
    assert_int_equal(rune_rig_create(dup, 3, NULL, &rig, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "joints[2]: duplicate joint \"Root/Arm\""));

    const rune_joint_desc ambiguous[] = {J("Root", NULL), J("A", "Root"), J("B", "Root"), J("Hand", "A"),
                                         J("Hand", "B"),  J("Finger", "Hand")};
    assert_int_equal(rune_rig_create(ambiguous, 6, NULL, &rig, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "joints[5].parent: \"Hand\" is ambiguous"));

    /* the qualified form resolves it */
    const rune_joint_desc qualified[] = {J("Root", NULL), J("A", "Root"), J("B", "Root"), J("Hand", "A"),
                                         J("Hand", "B"),  J("Finger", "B/Hand")};
    assert_int_equal(rune_rig_create(qualified, 6, NULL, &rig, &err), RUNE_OK);
    assert_int_equal(rune_rig_parent(rig, 5), 4);
    rune_rig_destroy(rig);

    const rune_joint_desc slash[] = {J("Ro/ot", NULL)};
    assert_int_equal(rune_rig_create(slash, 1, NULL, &rig, &err), RUNE_E_INVALID);
    const rune_joint_desc empty[] = {J("", NULL)};
    assert_int_equal(rune_rig_create(empty, 1, NULL, &rig, &err), RUNE_E_INVALID);
    rune_joint_desc bad_frame[] = {J("Root", NULL)};
    bad_frame[0].frame.t.x = NAN;
    assert_int_equal(rune_rig_create(bad_frame, 1, NULL, &rig, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "joints[0].frame"));
}

static rune_clip *clip_of(const rune_key_pose_desc *poses, size_t n)
{
    static rune_keyframe_desc kf[1];
    kf[0] = (rune_keyframe_desc){0.0f, poses, n};
    rune_sequence_desc d = {"c", 0, false, 0, kf, 1, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static rune_key_pose_desc kp(const char *parent, const char *part, float tx)
{
    rune_key_pose_desc p = {parent, part, {tx, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    return p;
}

static void test_repeated_limb_binding(void **state)
{
    (void)state;
    rune_rig *rig = make_body();
    /* two Hand tracks: the parent part picks the right joint for each */
    rune_key_pose_desc poses[] = {kp("RightArm", "Hand", 2), kp("LeftArm", "Hand", 1)};
    rune_clip *clip = clip_of(poses, 2);
    rune_binding *b;
    assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_binding_bound_count(b), 2);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 6, NULL, NULL), RUNE_OK);
    rune_binding_sample(b, 0.0f, &pose);
    near(pose.tx[4], 1, 0); /* LeftArm/Hand */
    near(pose.tx[5], 2, 0); /* RightArm/Hand */
    /* unkeyed joints: identity storage, zero coverage */
    near(pose.coverage[1], 0, 0);
    near(pose.qw[1], 1, 0);
    near(pose.coverage[4], 1, 0);
    rune_pose_release(&pose);
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

/* A binding's sampler: lanes in joint order (the clip's tracks are sorted
 * by name, the rig's joints are not), unkeyed joints at identity with
 * coverage 0; it serves only its own binding. */
static void test_binding_sampler(void **state)
{
    (void)state;
    rune_rig *rig = make_body();
    rune_key_pose_desc poses[] = {kp("RightArm", "Hand", 2), kp("LeftArm", "Hand", 1), kp("Root", "Torso", 3)};
    rune_clip *clip = clip_of(poses, 3);
    rune_binding *b, *other;
    assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, NULL), RUNE_OK);
    rune_sample_cache *cache;
    assert_int_equal(rune_binding_sampler_create(b, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
    assert_true(rune_binding_sampler_matches(b, cache));
    assert_int_equal(rune_sample_cache_lane_count(cache), 6);
    rune_pose fast, exact;
    assert_int_equal(rune_pose_init(&fast, 6, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&exact, 6, NULL, NULL), RUNE_OK);
    rune_binding_sample_cached(b, cache, 0.0f, &fast);
    rune_binding_sample(b, 0.0f, &exact);
    for (size_t j = 0; j < 6; j++) {
        near(fast.tx[j], exact.tx[j], 0);
        near(fast.qw[j], exact.qw[j], 0);
        near(fast.coverage[j], exact.coverage[j], 0);
    }
    near(fast.tx[1], 3, 0); /* Torso */
    near(fast.tx[4], 1, 0); /* LeftArm/Hand */
    near(fast.tx[5], 2, 0); /* RightArm/Hand */
    near(fast.coverage[2], 0, 0); /* LeftArm: unkeyed */
    /* a chunk must start on a chunk boundary: otherwise nothing is written */
    rune_sample_chunk chunk;
    assert_int_equal(rune_binding_sample_chunk(b, cache, 0.0f, 3, 3, &chunk), 0);
    assert_int_equal(rune_binding_sample_chunk(b, cache, 0.0f, 0, 64, &chunk), 6);
    /* another binding of the same clip (another rig) does not use it */
    const rune_joint_desc small[] = {J("Root", NULL), J("Torso", "Root")};
    rune_rig *rig2;
    assert_int_equal(rune_rig_create(small, 2, NULL, &rig2, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(rig2, clip, 0, NULL, &other, NULL), RUNE_OK);
    assert_false(rune_binding_sampler_matches(other, cache));
    assert_false(rune_binding_sampler_matches(b, NULL));
    rune_pose_release(&fast);
    rune_pose_release(&exact);
    rune_sample_cache_destroy(cache);
    rune_binding_destroy(other);
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig2);
    rune_rig_destroy(rig);
}

/* A chain of ROW_JOINTS joints whose names run backwards (joint j is
 * "jNN" with NN = ROW_JOINTS - 1 - j): a clip's tracks, sorted by parent
 * and name, bind in the reverse of joint order (the root's first). Two sample chunks, the second not
 * whole. make_row_rig_of and row_clip_of take another count (up to
 * ROW_JOINTS_MAX); the names of the last rig made are kept. */
#define ROW_JOINTS 70
#define ROW_JOINTS_MAX 72

static char row_names[ROW_JOINTS_MAX][8];

static rune_rig *make_row_rig_of(int joints)
{
    rune_joint_desc jd[ROW_JOINTS_MAX];
    for (int j = 0; j < joints; j++) {
        snprintf(row_names[j], sizeof row_names[j], "j%02d", joints - 1 - j);
        jd[j] = (rune_joint_desc){row_names[j], j ? row_names[j - 1] : NULL, {{0, 0, 0}, {0, 0, 0, 1}}};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(jd, (size_t)joints, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

static rune_rig *make_row_rig(void) { return make_row_rig_of(ROW_JOINTS); }

/* A time-major clip on the row rig: `keys` keys 0.1 s apart on every
 * joint but each seventh (lanes without a track). variant 1: weights and
 * masks; 2: some keys eased (the exact sampler's lanes); 3: scale keys;
 * 4: every joint keyed, plain covers (a binding's rows are then lean:
 * sample_lane.h's row_fields). */
static rune_clip *row_clip_of(size_t keys, int variant, int joints)
{
    size_t tracks = 0;
    rune_key_pose_desc *poses = calloc(keys * (size_t)joints, sizeof *poses);
    rune_keyframe_desc *kf = calloc(keys, sizeof *kf);
    assert_non_null(poses);
    assert_non_null(kf);
    uint32_t seed = 7u + (uint32_t)variant;
    for (size_t k = 0; k < keys; k++) {
        rune_key_pose_desc *p = poses + k * (size_t)joints;
        size_t n = 0;
        for (int j = 0; j < joints; j++) {
            if (j % 7 == 3 && variant != 4)
                continue;
            rune_quat r = {test_random(&seed), test_random(&seed), test_random(&seed), 1.5f};
            p[n] = (rune_key_pose_desc){j ? row_names[j - 1] : "", row_names[j],
                                        {test_random(&seed), test_random(&seed), test_random(&seed)}, r, 1, 0,
                                        RUNE_EASE_LINEAR, RUNE_EASE_IN};
            if (variant == 1)
                p[n].weight = 0.75f + 0.25f * test_random(&seed), p[n].mask_weight = 0.25f + 0.25f * test_random(&seed);
            if (variant == 2 && (j + (int)k) % 5 == 0)
                p[n].easing = RUNE_EASE_CUBIC;
            if (variant == 3)
                p[n].scaled = true, p[n].s = (rune_vec3){1.5f + test_random(&seed), 1, 0.5f};
            n++;
        }
        kf[k] = (rune_keyframe_desc){0.1f * (float)k, p, n, NULL, 0};
        tracks = n;
    }
    rune_sequence_desc d = {"rows", 0, true, 0, kf, keys, NULL, 0, 0};
    rune_clip *c;
    rune_error err;
    if (rune_clip_compile(&d, NULL, &c, &err) != RUNE_OK)
        fail_msg("%s", err.message);
    assert_int_equal(rune_clip_track_count(c), tracks);
    free(poses);
    free(kf);
    return c;
}

static rune_clip *row_clip(size_t keys, int variant) { return row_clip_of(keys, variant, ROW_JOINTS); }

/* Lanes [0, n) of two chunks, bit for bit (scale when `scaled`). */
static void chunks_equal(const rune_sample_chunk *a, const rune_sample_chunk *b, size_t n)
{
    const float *fa[] = {a->x, a->y, a->z, a->qx, a->qy, a->qz, a->qw, a->weight, a->mask, a->coverage,
                         a->sx, a->sy, a->sz};
    const float *fb[] = {b->x, b->y, b->z, b->qx, b->qy, b->qz, b->qw, b->weight, b->mask, b->coverage,
                         b->sx, b->sy, b->sz};
    assert_int_equal(a->scaled, b->scaled);
    for (size_t k = 0; k < (a->scaled ? 13u : 10u); k++)
        assert_memory_equal(fa[k], fb[k], n * sizeof(float));
}

/* A binding of a short time-major clip keeps a row plan that its samplers
 * read instead of gathering each lane's segment (sample_cache.c): the
 * same bits as a sampler on the same lane map without the plan, at every
 * kernel level, through what the plan path hands on -- lanes without a
 * track, a map in reverse, a chunk not whole, weights and masks, eased
 * keys, scale keys, lean rows (every lane keyed, plain covers: 14 floats
 * a lane and the row's time once, the padding past the lanes weighing 0
 * as the null key does) -- playing forward, seeking back and past the
 * end. A clip whose plan would pass 1 MiB is bound without one, and so is
 * any clip to a rig without joints. */
static void test_row_plan_samples_alike(void **state)
{
    (void)state;
    rune_rig *rig = make_row_rig();
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nlevels = test_levels(levels);
    const float times[] = {-0.05f, 0.0f, 0.03f, 0.12f, 0.31f, 0.95f, 0.2f, 1.15f, 0.6f, 0.55f, 0.0f};
    for (int variant = 0; variant < 5; variant++) {
        rune_clip *clip = row_clip(12, variant);
        rune_binding *b;
        assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, NULL), RUNE_OK);
        /* the plan: 12 rows of 80 lanes (70 rounded up to 16), 20 floats a
         * lane -- lean, 14 and two a row */
        if (variant == 4) {
            assert_true(rune_binding_bytes(b) >= 12u * (80u * 14u + 2u) * sizeof(float));
            assert_true(rune_binding_bytes(b) < 12u * 80u * 20u * sizeof(float));
        } else {
            assert_true(rune_binding_bytes(b) >= 12u * 80u * 20u * sizeof(float));
        }
        int32_t lane_track[ROW_JOINTS];
        for (int j = 0; j < ROW_JOINTS; j++)
            lane_track[j] = rune_binding_track_of(b, j);
        assert_true(lane_track[1] > lane_track[2]); /* tracks sort by parent: the map runs backwards */
        assert_true(variant == 4 ? lane_track[3] >= 0 : lane_track[3] == -1);
        for (size_t l = 0; l < nlevels; l++) {
            rune_sample_cache *planned, *plain;
            assert_int_equal(rune_binding_sampler_create(b, levels[l], NULL, &planned, NULL), RUNE_OK);
            assert_int_equal(rune_sample_cache_create_lanes(clip, lane_track, ROW_JOINTS, levels[l], NULL, &plain, NULL),
                             RUNE_OK);
            for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
                for (size_t first = 0; first < ROW_JOINTS; first += RUNE_SAMPLE_CHUNK) {
                    size_t n = ROW_JOINTS - first < RUNE_SAMPLE_CHUNK ? ROW_JOINTS - first : RUNE_SAMPLE_CHUNK;
                    rune_sample_chunk a, c;
                    rune_sample_cache_sample(planned, times[i], first, n, &a);
                    rune_sample_cache_sample(plain, times[i], first, n, &c);
                    chunks_equal(&a, &c, n);
                    /* joints 3 and 66: no track, but in variant 4 */
                    near(a.coverage[first ? 2 : 3], variant == 4 ? 1 : 0, 0);
                    for (size_t k = n; k < (n + 7) / 8 * 8; k++) /* the kernel's padding: the null key's */
                        near(a.weight[k], c.weight[k], 0), near(a.coverage[k], c.coverage[k], 0);
                }
            rune_sample_cache_destroy(planned);
            rune_sample_cache_destroy(plain);
        }
        rune_binding_destroy(b);
        rune_clip_destroy(clip);
    }
    /* 200 rows of 6,400 bytes: past the budget, no plan (the lane map and
     * the binding alone) */
    rune_clip *clip = row_clip(200, 0);
    rune_binding *b;
    assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, NULL), RUNE_OK);
    assert_true(rune_binding_bytes(b) < 4096);
    rune_binding_destroy(b);
    /* a rig without joints: no lanes, no plan */
    rune_rig *empty;
    assert_int_equal(rune_rig_create(NULL, 0, NULL, &empty, NULL), RUNE_OK);
    rune_binding *none = NULL;
    rune_status st = rune_binding_create(empty, clip, 0, NULL, &none, NULL);
    if (st == RUNE_OK) {
        assert_int_equal(rune_binding_bound_count(none), 0);
        assert_true(rune_binding_bytes(none) < 4096);
    }
    rune_binding_destroy(none);
    rune_rig_destroy(empty);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

/* Lanes [from, to) of two poses' transforms and coverage: bit for bit
 * at level l without FMA, within its tolerance with (test_levels.h). */
static void pose_lanes_alike(const rune_pose *a, const rune_pose *b, size_t from, size_t to, rune_simd_level l)
{
    const float *fa[] = {a->tx, a->ty, a->tz, a->qx, a->qy, a->qz, a->qw, a->coverage};
    const float *fb[] = {b->tx, b->ty, b->tz, b->qx, b->qy, b->qz, b->qw, b->coverage};
    for (size_t k = 0; k < 8; k++) {
        if (!test_level_fused(l)) {
            assert_memory_equal(fa[k] + from, fb[k] + from, (to - from) * sizeof(float));
            continue;
        }
        for (size_t i = from; i < to; i++)
            assert_true(fabsf(fa[k][i] - fb[k][i]) <= test_level_tolerance(l, 2.0f, fabsf(fa[k][i])));
    }
}

/* The mixer adds a row plan's lanes straight into its sums when a chunk
 * is whole (its joints fill the kernel's lanes) instead of sampling the
 * chunk first (priority_mixer.c): the same bits without FMA; with it
 * within 2 ulps (the two loops share their source, but a compiler may
 * contract a lane's products into FMAs differently in each: clang does,
 * gcc 12 does not). Three tracks of a
 * 72-joint rig (two chunks; the plan's second is 16 lanes wide) at
 * weights .7, .4, .25 and times apart, means of 72 joints (both chunks
 * whole) against means of 71 and 63 (a chunk one joint short, which the
 * mixer samples and pads), on every level; with weights and masks, eased
 * keys and scale keys (which keep the sampled chunk), and lean rows. */
static void test_row_plan_mixes_alike(void **state)
{
    (void)state;
    enum { JOINTS = 72 };
    rune_rig *rig = make_row_rig_of(JOINTS);
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nlevels = test_levels(levels);
    const float weights[3] = {0.7f, 0.4f, 0.25f}, starts[3] = {0.13f, 0.52f, 1.07f};
    for (int variant = 0; variant < 5; variant++) {
        rune_clip *clip = row_clip_of(12, variant, JOINTS);
        rune_binding *b;
        assert_int_equal(rune_binding_create(rig, clip, 0, NULL, &b, NULL), RUNE_OK);
        for (size_t l = 0; l < nlevels; l++) {
            rune_sample_cache *cache[3];
            rune_track track[3];
            rune_contribution cs[3];
            for (int i = 0; i < 3; i++) {
                assert_int_equal(rune_binding_sampler_create(b, levels[l], NULL, &cache[i], NULL), RUNE_OK);
                rune_play_params pp = {.fade = 0.0f, .weight = weights[i], .speed = 1.0f, .time = starts[i]};
                rune_track_start(&track[i], b, cache[i], &pp, (uint32_t)i + 1u);
                assert_true(track[i].cache == cache[i]);
                cs[i] = (rune_contribution){NULL, weights[i], 0, &track[i]};
            }
            const size_t counts[3] = {JOINTS, JOINTS - 1, 63};
            rune_pose out[3];
            for (int f = 0; f < 6; f++) {
                for (int k = 0; k < 3; k++) {
                    assert_int_equal(rune_pose_init(&out[k], counts[k], NULL, NULL), RUNE_OK);
                    rune_mix_mean(cs, 3, levels[l], &out[k]);
                }
                pose_lanes_alike(&out[0], &out[1], 0, JOINTS - 1, levels[l]);
                pose_lanes_alike(&out[0], &out[2], 0, 63, levels[l]);
                assert_true(out[0].coverage[0] > 0.0f); /* the mean did cover */
                for (int k = 0; k < 3; k++)
                    rune_pose_release(&out[k]);
                for (int i = 0; i < 3; i++)
                    rune_track_advance(&track[i], 0.07f, NULL);
            }
            for (int i = 0; i < 3; i++)
                rune_sample_cache_destroy(cache[i]);
        }
        rune_binding_destroy(b);
        rune_clip_destroy(clip);
    }
    rune_rig_destroy(rig);
}

/* Model matrices (vectorized local matrices, then the hierarchy) against
 * the rigid-transform path, on a 70-joint tree with random frames and a
 * pose shorter than the rig: two chunks, one not a multiple of the lanes. */
static void test_model_matrices_match_xforms(void **state)
{
    (void)state;
    enum { N = 70 };
    static char names[N][8];
    rune_joint_desc jd[N];
    uint32_t seed = 5;
    for (int j = 0; j < N; j++) {
        float r[7];
        for (int k = 0; k < 7; k++)
            r[k] = test_random(&seed);
        snprintf(names[j], sizeof names[j], "J%d", j);
        jd[j] = (rune_joint_desc){names[j], j ? names[(j - 1) / 3] : NULL,
                                  {{r[0], r[1], r[2]}, rune_q_normalize(rune_q(r[3], r[4], r[5], r[6]))}};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(jd, N, NULL, &rig, NULL), RUNE_OK);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, N - 5, NULL, NULL), RUNE_OK);
    for (size_t j = 0; j < pose.count; j++) {
        rune_pose_set_t(&pose, j, rune_v3(0.1f * (float)(j % 7), -0.05f * (float)(j % 3), 0.2f));
        rune_pose_set_r(&pose, j, rune_q_axis_angle(rune_v3(0.0f, 0.6f, 0.8f), 0.03f * (float)j));
    }
    rune_xform x[N];
    rune_mat4 m[N];
    rune_rig_model_xforms(rig, &pose, x);
    rune_rig_model_matrices(rig, &pose, m);
    float worst = 0.0f;
    for (int j = 0; j < N; j++) {
        rune_mat4 from_x = rune_mat4_from_xform(x[j]);
        for (int k = 0; k < 16; k++)
            worst = fmaxf(worst, fabsf(from_x.m[k] - m[j].m[k]));
        near(m[j].m[3], 0, 0);
        near(m[j].m[15], 1, 0);
    }
    assert_true(worst <= 1e-5f);
    /* every kernel level: the same bits without FMA, within 2 ulps of the
     * largest element (translations here reach about 8) with it; and a
     * scaled joint scales its subtree */
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    /* model transforms at every level: the scalar chain's bits without
     * FMA (the four-float and the AVX2 builds' pair chains run its
     * operations lane for lane), within 2 ulps of the largest element with
     * it */
    rune_xform xs[N];
    rune_rig_model_xforms_at(rig, &pose, RUNE_SIMD_SCALAR, xs);
    for (size_t l = 1; l < count; l++) {
        rune_xform xl[N];
        rune_rig_model_xforms_at(rig, &pose, levels[l], xl);
        float apart = 0.0f;
        for (int j = 0; j < N; j++) {
            const float *a = &xl[j].t.x, *b = &xs[j].t.x;
            for (int k = 0; k < 7; k++)
                apart = fmaxf(apart, fabsf(a[k] - b[k]));
        }
        print_message("model transforms: %s differs from scalar by %.3g\n", rune_simd_name(levels[l]), apart);
        assert_true(apart <= test_level_tolerance(levels[l], 2.0f, 8.0f));
    }
    rune_rig_model_matrices_at(rig, &pose, RUNE_SIMD_SCALAR, m);
    for (size_t l = 1; l < count; l++) {
        rune_mat4 ml[N];
        rune_rig_model_matrices_at(rig, &pose, levels[l], ml);
        float apart = 0.0f;
        for (int j = 0; j < N; j++)
            for (int k = 0; k < 16; k++)
                apart = fmaxf(apart, fabsf(ml[j].m[k] - m[j].m[k]));
        print_message("model matrices: %s differs from %s by %.3g\n", rune_simd_name(levels[l]),
                      rune_simd_name(levels[0]), apart);
        assert_true(apart <= test_level_tolerance(levels[l], 2.0f, 8.0f));
    }
    rune_pose_set_s(&pose, 0, rune_v3(2.0f, 2.0f, 2.0f));
    rune_mat4 scaled[N];
    rune_rig_model_matrices_at(rig, &pose, RUNE_SIMD_SCALAR, scaled);
    for (int e = 0; e < 3; e++) /* the root's columns double */
        near(scaled[0].m[e], 2.0f * m[0].m[e], 1e-6f);
    /* a child's offset from the root doubles too */
    rune_vec3 off = rune_v3(m[1].m[12] - m[0].m[12], m[1].m[13] - m[0].m[13], m[1].m[14] - m[0].m[14]);
    rune_vec3 off2 = rune_v3(scaled[1].m[12] - scaled[0].m[12], scaled[1].m[13] - scaled[0].m[13],
                             scaled[1].m[14] - scaled[0].m[14]);
    near(off2.x, 2.0f * off.x, 1e-5f);
    near(off2.y, 2.0f * off.y, 1e-5f);
    near(off2.z, 2.0f * off.z, 1e-5f);
    /* the matrix is that of the normalized rotation: a pose rotation of
     * length 3 gives the same matrices as the unit one (the kernel builds
     * it from 2 q q^T / |q|^2), a zero one the identity, at every level */
    rune_pose_set_s(&pose, 0, rune_v3(1.0f, 1.0f, 1.0f));
    rune_quat q5 = rune_pose_r(&pose, 5);
    rune_pose_set_r(&pose, 5, rune_q(3 * q5.x, 3 * q5.y, 3 * q5.z, 3 * q5.w));
    rune_pose_set_r(&pose, 6, rune_q(0, 0, 0, 0));
    rune_mat4 unit6 = rune_mat4_from_xform(rune_rig_frame(rig, 6));
    for (size_t l = 0; l < count; l++) {
        rune_mat4 ml[N];
        rune_rig_model_matrices_at(rig, &pose, levels[l], ml);
        for (int k = 0; k < 16; k++)
            near(ml[5].m[k], m[5].m[k], 1e-5f);
        /* joint 6's local matrix is its frame and the pose's translation */
        rune_mat4 parent = ml[jd[6].parent ? (6 - 1) / 3 : 6];
        rune_mat4 local = rune_mat4_mul(&parent, &unit6);
        for (int k = 0; k < 12; k++) /* rotation columns */
            near(ml[6].m[k], local.m[k], 1e-5f);
        if (l == 0) { /* model transforms read the two rotations alike */
            rune_rig_model_xforms(rig, &pose, x);
            for (int j = 5; j <= 6; j++) {
                rune_mat4 from_x = rune_mat4_from_xform(x[j]);
                for (int k = 0; k < 12; k++)
                    near(from_x.m[k], ml[j].m[k], 1e-5f);
            }
        }
    }
    rune_pose_release(&pose);
    rune_rig_destroy(rig);
}

/* Model transforms on rigs whose joints go side by side in different
 * ways (the vector builds take two or four joints at a time where none is
 * another's parent): interleaved chains (four consecutive joints, four
 * different parents), a chain with a sibling every third joint (parents
 * just before), and a star (every joint a child of the root). Each level
 * against the transforms composed one joint at a time with
 * rune_xform_mul, and against the scalar build (its bits without FMA).
 * 70 joints: two chunks, parents across the chunk boundary. */
static void test_model_xforms_side_by_side(void **state)
{
    (void)state;
    enum { N = 70, SHAPES = 3 };
    static char names[N][8];
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    for (int shape = 0; shape < SHAPES; shape++) {
        rune_joint_desc jd[N];
        int32_t parent[N];
        uint32_t seed = 11 + (uint32_t)shape;
        for (int j = 0; j < N; j++) {
            parent[j] = shape == 0 ? (j >= 4 ? j - 4 : -1) : shape == 1 ? (j % 3 == 2 ? j - 2 : j - 1) : (j ? 0 : -1);
            float r[7];
            for (int k = 0; k < 7; k++)
                r[k] = test_random(&seed);
            snprintf(names[j], sizeof names[j], "J%d", j);
            jd[j] = (rune_joint_desc){names[j], parent[j] >= 0 ? names[parent[j]] : NULL,
                                      {{r[0], r[1], r[2]}, rune_q_normalize(rune_q(r[3], r[4], r[5], r[6]))}};
        }
        rune_rig *rig;
        assert_int_equal(rune_rig_create(jd, N, NULL, &rig, NULL), RUNE_OK);
        rune_pose pose;
        assert_int_equal(rune_pose_init(&pose, N, NULL, NULL), RUNE_OK);
        rune_xform ref[N];
        for (int j = 0; j < N; j++) {
            rune_vec3 t = rune_v3(0.3f * test_random(&seed), 0.3f * test_random(&seed), 0.3f * test_random(&seed));
            rune_quat q = rune_q_axis_angle(rune_v3(0.6f, 0.0f, 0.8f), 2.0f * test_random(&seed));
            rune_pose_set_t(&pose, (size_t)j, t);
            rune_pose_set_r(&pose, (size_t)j, q);
            rune_xform f = rune_rig_frame(rig, (size_t)j);
            rune_xform local = {rune_v3_add(f.t, rune_q_rotate(f.r, t)), rune_q_normalize(rune_q_mul(f.r, q))};
            ref[j] = parent[j] < 0 ? local : rune_xform_mul(ref[parent[j]], local);
        }
        /* the fused builds round each chain step once less: their distance
         * from the scalar bits grows with the depth, by about 2 ulps of the
         * largest element a step */
        int depth[N];
        float largest = 0.0f;
        for (int j = 0; j < N; j++) {
            depth[j] = parent[j] < 0 ? 1 : depth[parent[j]] + 1;
            const float *r = &ref[j].t.x;
            for (int k = 0; k < 7; k++)
                largest = fmaxf(largest, fabsf(r[k]));
        }
        int deepest = 0;
        for (int j = 0; j < N; j++)
            deepest = depth[j] > deepest ? depth[j] : deepest;
        rune_xform xs[N];
        rune_rig_model_xforms_at(rig, &pose, RUNE_SIMD_SCALAR, xs);
        for (size_t l = 0; l < count; l++) {
            rune_xform x[N];
            rune_rig_model_xforms_at(rig, &pose, levels[l], x);
            float from_ref = 0.0f, from_scalar = 0.0f;
            for (int j = 0; j < N; j++) {
                const float *a = &x[j].t.x, *b = &ref[j].t.x, *c = &xs[j].t.x;
                for (int k = 0; k < 7; k++) {
                    from_ref = fmaxf(from_ref, fabsf(a[k] - b[k]));
                    from_scalar = fmaxf(from_scalar, fabsf(a[k] - c[k]));
                }
            }
            print_message("shape %d %s: %.3g from one at a time, %.3g from scalar (depth %d, largest %.3g)\n", shape,
                          rune_simd_name(levels[l]), from_ref, from_scalar, deepest, largest);
            assert_true(from_ref <= 4.0f * FLT_EPSILON * largest * (float)deepest);
            assert_true(from_scalar <= test_level_tolerance(levels[l], 2.0f * (float)deepest, largest));
        }
        rune_pose_release(&pose);
        rune_rig_destroy(rig);
    }
}

/* Streamed matrices are the same bits as those written through the cache,
 * at every kernel level, for a rig the stack holds (70 and 256 joints), one
 * it does not (300: computed in place), and an output that is not 16-byte
 * aligned (copied in); nothing past the last joint is written. */
static void test_streamed_matrices(void **state)
{
    (void)state;
    enum { MAX = 300, GUARD = 4 };
    static char names[MAX][8];
    static rune_joint_desc jd[MAX];
    static rune_mat4 want[MAX];
    static float got[(MAX + 2) * 16 + GUARD]; /* room for the shifted copy and a guard */
    for (int j = 0; j < MAX; j++) {
        snprintf(names[j], sizeof names[j], "J%d", j);
        float a = 0.1f * (float)j;
        jd[j] = (rune_joint_desc){names[j], j ? names[(j - 1) / 2] : NULL,
                                  {{0.1f, 0.2f * sinf(a), 0.0f}, rune_q_axis_angle(rune_v3(0.0f, 0.6f, 0.8f), a)}};
    }
    const size_t sizes[3] = {70, RUNE_STREAM_MAX_JOINTS, MAX};
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    for (size_t s = 0; s < 3; s++) {
        size_t n = sizes[s];
        rune_rig *rig;
        assert_int_equal(rune_rig_create(jd, n, NULL, &rig, NULL), RUNE_OK);
        rune_pose pose;
        assert_int_equal(rune_pose_init(&pose, n, NULL, NULL), RUNE_OK);
        for (size_t j = 0; j < n; j++)
            rune_pose_set_r(&pose, j, rune_q_axis_angle(rune_v3(1.0f, 0.0f, 0.0f), 0.02f * (float)j));
        rune_pose_set_s(&pose, 1, rune_v3(1.5f, 1.5f, 1.5f)); /* the scaled kernels too */
        for (size_t l = 0; l < count; l++) {
            rune_rig_model_matrices_at(rig, &pose, levels[l], want);
            /* on a line, then 4, 16 and 32 bytes off it: each level's
             * streaming width, and the copy where it does not fit */
            const size_t shifts[4] = {0, 1, 4, 8};
            for (size_t sh = 0; sh < 4; sh++) {
                float *at = (float *)(((uintptr_t)got + 63u) & ~(uintptr_t)63u) + shifts[sh];
                for (size_t k = 0; k < 16 * n + GUARD; k++)
                    at[k] = -7.0f;
                rune_rig_model_matrices_stream(rig, &pose, levels[l], (rune_mat4 *)at);
                assert_memory_equal(at, want, n * sizeof(rune_mat4));
                for (size_t k = 16 * n; k < 16 * n + GUARD; k++)
                    assert_true(at[k] == -7.0f);
            }
        }
        rune_pose_release(&pose);
        rune_rig_destroy(rig);
    }
}

/* A rest scale composes with the pose as translation, rotation, scale:
 * t = frame.t + frame.r (scale * pose.t), and scales the joint's columns
 * and so its subtree. Worked by hand: Root at (1,0,0) turned 90 degrees
 * about z with scale 2, posed 1 along y; Arm 1 along x below it. */
static void test_rest_scale(void **state)
{
    (void)state;
    rune_quat z90 = rune_q_axis_angle(rune_v3(0, 0, 1), 1.5707963f);
    rune_joint_desc jd[2] = {{"Root", NULL, {{1, 0, 0}, z90}, {2, 2, 2}, true},
                             {"Arm", "Root", {{1, 0, 0}, {0, 0, 0, 1}}}};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(jd, 2, NULL, &rig, NULL), RUNE_OK);
    assert_true(rune_rig_scaled(rig));
    near(rune_rig_frame_scale(rig, 0).y, 2.0f, 0);
    near(rune_rig_frame_scale(rig, 1).y, 1.0f, 0);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 2, NULL, NULL), RUNE_OK);
    rune_pose_set_t(&pose, 0, rune_v3(0, 1, 0));
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    for (size_t l = 0; l < count; l++) {
        rune_mat4 m[2];
        rune_rig_model_matrices_at(rig, &pose, levels[l], m);
        /* Root: (1,0,0) + Rz90 (2 * (0,1,0)) = (-1,0,0); columns 2 Rz90 */
        near(m[0].m[12], -1.0f, 1e-6f);
        near(m[0].m[13], 0.0f, 1e-6f);
        near(m[0].m[1], 2.0f, 1e-6f);  /* x axis -> 2 y */
        near(m[0].m[4], -2.0f, 1e-6f); /* y axis -> -2 x */
        near(m[0].m[10], 2.0f, 1e-6f);
        /* Arm: (-1,0,0) + 2 Rz90 (1,0,0) = (-1,2,0), its columns scaled too */
        near(m[1].m[12], -1.0f, 1e-6f);
        near(m[1].m[13], 2.0f, 1e-6f);
        near(m[1].m[1], 2.0f, 1e-6f);
    }
    rune_rig_set_frame_scale(rig, 0, rune_v3(1, 1, 1));
    assert_false(rune_rig_scaled(rig));
    rune_rig_destroy(rig);
    rune_pose_release(&pose);
    jd[0].scale.y = NAN;
    rune_error err;
    assert_int_equal(rune_rig_create(jd, 2, NULL, &rig, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "joints[0].scale"));
}

static void test_name_only_fallback(void **state)
{
    (void)state;
    rune_rig *rig = make_body();
    /* Torso keyed under a wrong parent: unique part in rig and clip -> binds */
    rune_key_pose_desc p1[] = {kp("Pelvis", "Torso", 1)};
    rune_clip *c1 = clip_of(p1, 1);
    rune_binding *b;
    assert_int_equal(rune_binding_create(rig, c1, 0, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_binding_joint(b, 0), 1);
    rune_binding_destroy(b);
    rune_clip_destroy(c1);
    /* Hand under a wrong parent: ambiguous in the rig -> does not bind */
    rune_key_pose_desc p2[] = {kp("Wrist", "Hand", 1)};
    rune_clip *c2 = clip_of(p2, 1);
    assert_int_equal(rune_binding_create(rig, c2, 0, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_binding_joint(b, 0), -1);
    rune_binding_destroy(b);
    rune_clip_destroy(c2);
    /* Torso twice in the clip under wrong parents: ambiguous in the clip */
    rune_key_pose_desc p3[] = {kp("Pelvis", "Torso", 1), kp("Hips", "Torso", 2)};
    rune_clip *c3 = clip_of(p3, 2);
    assert_int_equal(rune_binding_create(rig, c3, 0, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_binding_bound_count(b), 0);
    rune_binding_destroy(b);
    rune_clip_destroy(c3);
    rune_rig_destroy(rig);
}

static void test_revisions_and_binding_cache(void **state)
{
    (void)state;
    rune_rig *rig = make_body();
    rune_key_pose_desc p[] = {kp("Torso", "LeftArm", 1)};
    rune_clip *clip = clip_of(p, 1);
    rune_binding_cache *cache;
    assert_int_equal(rune_binding_cache_create(NULL, &cache, NULL), RUNE_OK);
    const rune_binding *b1, *b2, *b3, *b4;
    uint64_t sig = rune_rig_layout_signature(rig);
    uint32_t topo = rune_rig_topology_revision(rig);
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, 0, &b1, NULL), RUNE_OK);
    assert_int_equal(rune_binding_cache_builds(cache), 1);
    /* a frame edit refreshes values only: same signature, binding reused */
    rune_xform f = {{0, 2, 0}, {0, 0, 0, 1}};
    rune_rig_set_frame(rig, 2, f);
    assert_int_equal(rune_rig_frame_revision(rig), 1);
    assert_int_equal(rune_rig_topology_revision(rig), topo);
    assert_true(rune_rig_layout_signature(rig) == sig);
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, 0, &b2, NULL), RUNE_OK);
    assert_ptr_equal(b1, b2);
    assert_int_equal(rune_binding_cache_builds(cache), 1);
    near(rune_rig_frame(rig, 2).t.y, 2, 0);
    /* a retarget mapping is another binding; the same mapping reuses it, a
     * new mapping (even of the same rigs) never does */
    rune_retarget *rt, *rt2;
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){rig, rig, NULL, 0, false}, NULL, &rt, NULL), RUNE_OK);
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){rig, rig, NULL, 0, false}, NULL, &rt2, NULL), RUNE_OK);
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, rt, &b3, NULL), RUNE_OK);
    assert_ptr_not_equal(b3, b1);
    assert_int_equal(rune_binding_cache_builds(cache), 2);
    assert_int_equal(rune_binding_retarget_id(b3), rune_retarget_id(rt));
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, rt, &b2, NULL), RUNE_OK);
    assert_ptr_equal(b2, b3);
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, rt2, &b2, NULL), RUNE_OK);
    assert_ptr_not_equal(b2, b3);
    assert_int_equal(rune_binding_cache_builds(cache), 3);
    rune_retarget_destroy(rt);
    rune_retarget_destroy(rt2);
    /* membership change: new topology revision and signature, rebinding */
    rune_joint_desc extra = J("Head", "Torso");
    assert_int_equal(rune_rig_add_joint(rig, &extra, NULL), RUNE_OK);
    assert_int_equal(rune_rig_topology_revision(rig), topo + 1);
    assert_true(rune_rig_layout_signature(rig) != sig);
    assert_int_equal(rune_binding_cache_acquire(cache, rig, clip, 0, &b4, NULL), RUNE_OK);
    assert_ptr_not_equal(b4, b1);
    assert_int_equal(rune_binding_cache_builds(cache), 4);
    rune_binding_cache_destroy(cache);
    rune_clip_destroy(clip);
    rune_rig_destroy(rig);
}

static void test_rig_allocation_failures(void **state)
{
    (void)state;
    for (size_t k = 1; k < 16; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_rig *rig;
        rune_status st = rune_rig_create(body, 6, &ca.iface, &rig, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        if (!st)
            rune_rig_destroy(rig);
        assert_int_equal(ca.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_names),
        cmocka_unit_test(test_layout_rejects),
        cmocka_unit_test(test_repeated_limb_binding),
        cmocka_unit_test(test_binding_sampler),
        cmocka_unit_test(test_row_plan_samples_alike),
        cmocka_unit_test(test_row_plan_mixes_alike),
        cmocka_unit_test(test_model_matrices_match_xforms),
        cmocka_unit_test(test_model_xforms_side_by_side),
        cmocka_unit_test(test_streamed_matrices),
        cmocka_unit_test(test_rest_scale),
        cmocka_unit_test(test_name_only_fallback),
        cmocka_unit_test(test_revisions_and_binding_cache),
        cmocka_unit_test(test_rig_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
