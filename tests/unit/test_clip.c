/* Unit tests of src/clip: compilation (sorting, duplicate keys, markers),
 * the sampler's hold/ease/interpolate rules, coverage, and the cache. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rune/clip.h"
#include "counting_alloc.h"
#include "test_levels.h"
#include "test_random.h"
#include "../../src/clip/clip_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

static rune_key_pose_desc pose(const char *parent, const char *part, float tx)
{
    rune_key_pose_desc p = {parent, part, {tx, 0, 0}, {0, 0, 0, 1}, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    return p;
}

static void test_sorts_tracks_and_keys(void **state)
{
    (void)state;
    rune_key_pose_desc k2[] = {pose("Root", "B", 2), pose("Root", "A", 20)};
    rune_key_pose_desc k0[] = {pose("Root", "A", 0), pose("Root", "B", 0)};
    rune_key_pose_desc k1[] = {pose("Root", "A", 10)};
    /* keyframes listed out of order: 2, 0, 1 */
    rune_keyframe_desc kf[] = {{2.0f, k2, 2}, {0.0f, k0, 2}, {1.0f, k1, 1}};
    rune_sequence_desc d = {"s", 1, false, 0, kf, 3, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(rune_clip_track_count(c), 2);
    assert_string_equal(rune_clip_track_part(c, 0), "A"); /* sorted by name */
    assert_string_equal(rune_clip_track_part(c, 1), "B");
    assert_int_equal(rune_clip_track_key_count(c, 0), 3);
    assert_int_equal(rune_clip_key_count(c), 5); /* A's 3 and B's 2 */
    near(rune_clip_track_key_time(c, 0, 0), 0, 0);
    near(rune_clip_track_key_time(c, 0, 1), 1, 0);
    near(rune_clip_track_key_time(c, 0, 2), 2, 0);
    near(rune_clip_length(c), 2, 0);
    rune_key_sample s;
    /* A at 1.5: halfway between 10 and 20 */
    rune_clip_sample_track(c, 0, 1.5f, &s);
    near(s.t.x, 15, 1e-6f);
    /* B has keys 0 and 2 only: at 1.5, 0 + (2 - 0) * .75 = 1.5 */
    rune_clip_sample_track(c, 1, 1.5f, &s);
    near(s.t.x, 1.5f, 1e-6f);
    rune_clip_destroy(c);
}

static void test_duplicate_time_keeps_later(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 1)};
    rune_key_pose_desc b[] = {pose("", "Root", 2)};
    rune_key_pose_desc e[] = {pose("", "Root", 5)};
    rune_keyframe_desc kf[] = {{0.0f, a, 1}, {0.0f, b, 1}, {1.0f, e, 1}};
    rune_sequence_desc d = {"dup", 0, false, 0, kf, 3, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(rune_clip_track_key_count(c, 0), 2);
    rune_key_sample s;
    rune_clip_sample_track(c, 0, 0.0f, &s);
    near(s.t.x, 2, 0); /* the later of the two keys at 0 */
    rune_clip_sample_track(c, 0, 0.5f, &s);
    near(s.t.x, 3.5f, 1e-6f); /* 2 + (5 - 2) * .5 */
    rune_clip_destroy(c);
}

/* Two keys, the destination easing cubic inout; t.x 0 -> 2, weight 1 -> 0,
 * mask 0 -> 0.5, rotation identity -> 90 deg about Y. */
static rune_clip *cubic_clip(void)
{
    static rune_key_pose_desc a[1], b[1];
    a[0] = pose("Root", "Arm", 0);
    b[0] = pose("Root", "Arm", 2);
    b[0].r = rune_q(0, 0.70710678f, 0, 0.70710678f);
    b[0].weight = 0.0f;
    b[0].mask_weight = 0.5f;
    b[0].easing = RUNE_EASE_CUBIC;
    b[0].direction = RUNE_EASE_INOUT;
    static rune_keyframe_desc kf[2];
    kf[0] = (rune_keyframe_desc){0.0f, a, 1};
    kf[1] = (rune_keyframe_desc){1.0f, b, 1};
    rune_sequence_desc d = {"cubic", 1, false, 0, kf, 2, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static void test_sampler_cubic_inout(void **state)
{
    (void)state;
    rune_clip *c = cubic_clip();
    rune_key_sample s;
    /* t = 0: first key; coverage = 1 * (1 - 0) = 1 */
    rune_clip_sample_track(c, 0, 0.0f, &s);
    near(s.t.x, 0, 0);
    near(s.coverage, 1, 0);
    /* t = .25: e = 4 * .25^3 = .0625; tx = .125; w = 1 - .0625 = .9375;
     * mask = .5 * .0625 = .03125; coverage = .9375 * .96875 = .908203125;
     * rotation: slerp by .0625 of 90 deg = 5.625 deg about Y:
     * (0, sin 2.8125deg, 0, cos 2.8125deg) = (0, .0490676743, 0, .9987954562) */
    rune_clip_sample_track(c, 0, 0.25f, &s);
    near(s.t.x, 0.125f, 1e-6f);
    near(s.weight, 0.9375f, 1e-6f);
    near(s.mask_weight, 0.03125f, 1e-6f);
    near(s.coverage, 0.908203125f, 1e-6f);
    near(s.r.y, 0.0490676743f, 1e-6f);
    near(s.r.w, 0.9987954562f, 1e-6f);
    /* t = .5: e = .5: tx 1, w .5, mask .25, coverage .5 * .75 = .375;
     * rotation 45 deg: (0, .3826834324, 0, .9238795325) */
    rune_clip_sample_track(c, 0, 0.5f, &s);
    near(s.t.x, 1, 1e-6f);
    near(s.coverage, 0.375f, 1e-6f);
    near(s.r.y, 0.3826834324f, 1e-6f);
    /* t = 1 and past the end: last key held; coverage 0 * .5 = 0 */
    rune_clip_sample_track(c, 0, 1.0f, &s);
    near(s.t.x, 2, 0);
    near(s.coverage, 0, 0);
    rune_clip_sample_track(c, 0, 7.5f, &s);
    near(s.t.x, 2, 0);
    near(s.r.y, 0.70710678f, 1e-6f);
    /* before the first key: first key held */
    rune_clip_sample_track(c, 0, -3.0f, &s);
    near(s.t.x, 0, 0);
    rune_clip_destroy(c);
}

static void test_coverage_clamped(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    a[0].weight = 3.0f;       /* 3 * (1 - -1) = 6 -> clamp 1 */
    a[0].mask_weight = -1.0f;
    rune_key_pose_desc b[] = {pose("", "Root", 0)};
    b[0].weight = -2.0f;      /* negative -> clamp 0 */
    rune_keyframe_desc kf[] = {{0.0f, a, 1}, {1.0f, b, 1}};
    rune_sequence_desc d = {"cov", 0, false, 0, kf, 2, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    rune_key_sample s;
    rune_clip_sample_track(c, 0, 0.0f, &s);
    near(s.coverage, 1, 0);
    rune_clip_sample_track(c, 0, 1.0f, &s);
    near(s.coverage, 0, 0);
    rune_clip_destroy(c);
}

static void test_constant_holds_until_key(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 1)};
    rune_key_pose_desc b[] = {pose("", "Root", 9)};
    b[0].easing = RUNE_EASE_CONSTANT;
    rune_keyframe_desc kf[] = {{0.0f, a, 1}, {1.0f, b, 1}};
    rune_sequence_desc d = {"const", 0, false, 0, kf, 2, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    rune_key_sample s;
    rune_clip_sample_track(c, 0, 0.999f, &s);
    near(s.t.x, 1, 0);
    rune_clip_sample_track(c, 0, 1.0f, &s);
    near(s.t.x, 9, 0);
    rune_clip_destroy(c);
}

static void test_markers_sorted_and_folded(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    rune_keyframe_desc kf[] = {{0.0f, a, 1}, {2.0f, a, 1}};
    rune_marker_desc m[] = {{1.5f, "B", "x"}, {0.5f, "A", NULL}, {2.5f, "C", ""}};
    rune_sequence_desc d = {"m", 0, true, 0, kf, 2, m, 3};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    const rune_marker *mk = rune_clip_markers(c);
    /* loop of length 2: C at 2.5 fires at .5 of each cycle, after A (stable) */
    assert_string_equal(mk[0].name, "A");
    assert_string_equal(mk[0].value, "");
    assert_string_equal(mk[1].name, "C");
    near(mk[1].pos, 0.5f, 0);
    near(mk[1].time, 2.5f, 0);
    assert_string_equal(mk[2].name, "B");
    rune_clip_destroy(c);
}

static void test_invalid_sequences(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    rune_keyframe_desc kf[] = {{0.0f, a, 1}};
    rune_sequence_desc d = {"bad", 0, false, 0, kf, 1, NULL, 0};
    rune_clip *c = (rune_clip *)&d;
    rune_error err;

    a[0].r = rune_q(0, 0, 0, 0);
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_null(c);
    assert_non_null(strstr(err.message, "keyframes[0].poses[0].r: zero-length quaternion"));

    a[0].r = rune_q_identity();
    a[0].t.y = INFINITY;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "keyframes[0].poses[0].t: not finite"));

    a[0].t.y = 0;
    kf[0].time = NAN;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "keyframes[0].time"));

    kf[0].time = -1.0f; /* negative key times are allowed */
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_OK);
    near(rune_clip_length(c), 0, 0);
    rune_clip_destroy(c);

    a[0].part = "";
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "part: empty"));
}

static void test_non_unit_quaternion_normalized(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    a[0].r = rune_q(0, 0, 0, 4);
    rune_keyframe_desc kf[] = {{0.0f, a, 1}};
    rune_sequence_desc d = {"n", 0, false, 0, kf, 1, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    rune_key_sample s;
    rune_clip_sample_track(c, 0, 0.0f, &s);
    near(s.r.w, 1, 0);
    rune_clip_destroy(c);
}

static void test_cache_hit_and_revision(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    rune_keyframe_desc kf[] = {{0.0f, a, 1}};
    rune_sequence_desc d = {"walk", 1, false, 0, kf, 1, NULL, 0};
    rune_clip_cache *cache;
    assert_int_equal(rune_clip_cache_create(&ca.iface, &cache, NULL), RUNE_OK);
    const rune_clip *c1, *c2, *c3;
    assert_int_equal(rune_clip_cache_acquire(cache, &d, &c1, NULL), RUNE_OK);
    assert_int_equal(rune_clip_cache_builds(cache), 1);
    size_t allocs = ca.allocs;
    /* same id and revision: no rebuild, no allocation, same clip */
    assert_int_equal(rune_clip_cache_acquire(cache, &d, &c2, NULL), RUNE_OK);
    assert_ptr_equal(c1, c2);
    assert_int_equal(rune_clip_cache_builds(cache), 1);
    assert_int_equal(ca.allocs, allocs);
    uint64_t serial = rune_clip_serial(c1);
    /* new revision: rebuilt */
    d.revision = 2;
    a[0].t.x = 5;
    assert_int_equal(rune_clip_cache_acquire(cache, &d, &c3, NULL), RUNE_OK);
    assert_int_equal(rune_clip_cache_builds(cache), 2);
    assert_int_equal(rune_clip_revision(c3), 2);
    assert_true(rune_clip_serial(c3) != serial);
    rune_key_sample s;
    rune_clip_sample_track(c3, 0, 0, &s);
    near(s.t.x, 5, 0);
    assert_ptr_equal(rune_clip_cache_find(cache, "walk"), c3);
    assert_null(rune_clip_cache_find(cache, "run"));
    rune_clip_cache_destroy(cache);
    assert_int_equal(ca.live_bytes, 0);
}

static void test_compile_allocation_failures(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0)};
    rune_keyframe_desc kf[] = {{0.0f, a, 1}};
    rune_marker_desc m[] = {{0.5f, "x", "y"}};
    rune_sequence_desc d = {"walk", 1, true, 0, kf, 1, m, 1};
    for (size_t k = 1; k < 10; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_clip_cache *cache = NULL;
        const rune_clip *c;
        rune_status st = rune_clip_cache_create(&ca.iface, &cache, NULL);
        if (!st)
            st = rune_clip_cache_acquire(cache, &d, &c, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_clip_cache_destroy(cache);
        assert_int_equal(ca.live_bytes, 0);
    }
}

/* A clip of 37 tracks (not a multiple of the lane count) with 30 Hz keys
 * over 2 s, pseudo-random rotations (some more than 90 degrees apart), some
 * eased keys, weights and masks. */
/* (test_sample_cache_matches_sampler also holds rune_clip_sample_transform
 * to the scalar batch sampler's bits, lane by lane.)
 * 37 tracks of 61 random keys at 30 Hz; with RANDOM_SCALED, every third
 * track also has random scale keys; with RANDOM_STAGGERED, track J0 has one
 * more key (at 1/60 s), so the tracks' keys are not at the same times and
 * the batch sampler's segments are stored track by track, not time-major
 * (rune_clip.seg_stride) */
enum { RANDOM_SCALED = 1, RANDOM_STAGGERED = 2 };

static rune_clip *random_clip(int flags)
{
    enum { TRACKS = 37, KEYS = 61 };
    bool scaled = flags & RANDOM_SCALED;
    static rune_key_pose_desc poses[KEYS][TRACKS], extra;
    static rune_keyframe_desc kf[KEYS + 1];
    static char names[TRACKS][8];
    uint32_t seed = 12345;
    for (int k = 0; k < KEYS; k++) {
        for (int j = 0; j < TRACKS; j++) {
            float r[8];
            for (int i = 0; i < 8; i++)
                r[i] = test_random(&seed);
            snprintf(names[j], sizeof names[j], "J%d", j);
            rune_key_pose_desc *p = &poses[k][j];
            *p = pose("", names[j], r[0]);
            p->t.y = r[1];
            p->t.z = r[2];
            /* small steps for most tracks, wild ones for every 5th */
            float spread = j % 5 == 0 ? 1.0f : 0.15f;
            p->r = rune_q(r[3] * spread, r[4] * spread, r[5] * spread, 1.0f);
            p->weight = 0.5f + 0.5f * r[6];
            p->mask_weight = 0.25f * r[7];
            if (j % 7 == 3) {
                p->easing = (rune_easing_style)(1 + (k % (RUNE_EASE_STYLE_COUNT - 1)));
                p->direction = (rune_easing_dir)(k % 3);
            }
            if (scaled && j % 3 == 0) {
                p->scaled = true;
                p->s = rune_v3(1.0f + r[0], 1.0f + 0.5f * r[1], 0.5f + r[2] * r[2]);
            }
        }
        kf[k] = (rune_keyframe_desc){(float)k / 30.0f, poses[k], TRACKS};
    }
    extra = pose("", names[0], 0.5f);
    kf[KEYS] = (rune_keyframe_desc){1.0f / 60.0f, &extra, 1};
    bool staggered = flags & RANDOM_STAGGERED;
    rune_sequence_desc d = {"random", 0, true, 0, kf, staggered ? KEYS + 1 : KEYS, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(c->seg_stride, staggered ? 1 : TRACKS);
    return c;
}

static void test_sample_cache_matches_sampler(void **state)
{
    (void)state;
    for (int flags = 0; flags < 4; flags++) {
        rune_clip *clip = random_clip(flags);
        assert_true(rune_clip_has_scale(clip) == ((flags & RANDOM_SCALED) != 0));
        rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
        size_t count = test_levels(levels);
        for (size_t l = 0; l < count; l++) {
            float worst = 0.0f;
            rune_sample_cache *cache;
            assert_int_equal(rune_sample_cache_create(clip, levels[l], NULL, &cache, NULL), RUNE_OK);
            uint32_t near_key[64] = {0}; /* rune_clip_sample_transform_near's, per track */
            assert_true(rune_sample_cache_lane_count(cache) <= 64);
            /* forward play, a seek back, times before and after the keys */
            for (int step = 0; step < 400; step++) {
                float t = step < 300   ? (float)step * 0.0071f
                          : step < 350 ? 0.4f + (float)(step - 300) * 0.013f
                                       : -0.5f + (float)(step - 350) * 0.06f;
                rune_sample_chunk s;
                /* 37 tracks: one chunk; also sample a chunk past the end (ignored) */
                rune_sample_cache_sample(cache, t, 0, RUNE_SAMPLE_CHUNK, &s);
                rune_sample_cache_sample(cache, t, RUNE_SAMPLE_CHUNK, RUNE_SAMPLE_CHUNK, &s);
                for (size_t k = 0; k < rune_sample_cache_lane_count(cache); k++) {
                    rune_key_sample e;
                    rune_clip_sample_track(clip, k, t, &e);
                    float d[13] = {s.x[k] - e.t.x, s.y[k] - e.t.y, s.z[k] - e.t.z, s.weight[k] - e.weight,
                                   s.mask[k] - e.mask_weight, s.coverage[k] - e.coverage,
                                   (s.scaled ? s.sx[k] : 1.0f) - e.s.x, (s.scaled ? s.sy[k] : 1.0f) - e.s.y,
                                   (s.scaled ? s.sz[k] : 1.0f) - e.s.z};
                    rune_quat q = rune_q(s.qx[k], s.qy[k], s.qz[k], s.qw[k]);
                    float sign = rune_q_dot(q, e.r) < 0 ? -1.0f : 1.0f;
                    d[9] = sign * q.x - e.r.x, d[10] = sign * q.y - e.r.y, d[11] = sign * q.z - e.r.z,
                    d[12] = sign * q.w - e.r.w;
                    for (int i = 0; i < 13; i++)
                        worst = fmaxf(worst, fabsf(d[i]));
                    /* one track alone (root motion's sampler): the scalar
                     * level's bits, eased keys included */
                    rune_vec3 at;
                    rune_quat r;
                    rune_clip_sample_transform(clip, k, t, &at, &r);
                    if (levels[l] == RUNE_SIMD_SCALAR) {
                        float one[7] = {at.x, at.y, at.z, r.x, r.y, r.z, r.w};
                        float batch[7] = {s.x[k], s.y[k], s.z[k], s.qx[k], s.qy[k], s.qz[k], s.qw[k]};
                        assert_memory_equal(one, batch, sizeof one);
                    }
                    /* from any starting key (the last step's: the play's
                     * usual case; none; one past every track) the same
                     * bits, and the key it leaves starts a search that
                     * ends where it is */
                    uint32_t guesses[3] = {near_key[k], 0, UINT32_MAX};
                    for (int g = 0; g < 3; g++) {
                        uint32_t key = guesses[g], again;
                        rune_vec3 at2;
                        rune_quat r2;
                        rune_clip_sample_transform_near(clip, k, t, &key, &at2, &r2);
                        assert_memory_equal(&at2, &at, sizeof at);
                        assert_memory_equal(&r2, &r, sizeof r);
                        again = key;
                        rune_clip_sample_transform_near(clip, k, t, &again, &at2, &r2);
                        assert_int_equal(again, key);
                        if (g == 0)
                            near_key[k] = key;
                    }
                }
            }
            print_message("sample cache %s (got %s): max difference %.3g\n", rune_simd_name(levels[l]),
                          rune_simd_name(rune_sample_cache_level(cache)), worst);
            assert_true(worst <= 1e-6f);
            rune_sample_cache_destroy(cache);
        }
        rune_clip_destroy(clip);
    }
}

/* Scale keys lerp (as translation does), eased like the rest of the key;
 * a track without scale keys samples 1 1 1 beside one with them. */
static void test_scale_keys(void **state)
{
    (void)state;
    rune_key_pose_desc a[] = {pose("", "Root", 0), pose("Root", "Arm", 0)};
    rune_key_pose_desc b[] = {pose("", "Root", 0), pose("Root", "Arm", 0)};
    b[0].scaled = true;
    b[0].s = rune_v3(3.0f, 2.0f, 1.0f);
    b[1].easing = RUNE_EASE_QUAD; /* Arm eases; it has no scale keys */
    rune_keyframe_desc kf[] = {{0.0f, a, 2}, {1.0f, b, 2}};
    rune_sequence_desc d = {"scaled", 0, false, 0, kf, 2, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    assert_true(rune_clip_has_scale(c));
    rune_key_sample root, arm; /* tracks sort by parent, then part */
    size_t root_track = strcmp(rune_clip_track_part(c, 0), "Root") == 0 ? 0 : 1;
    rune_clip_sample_track(c, root_track, 0.25f, &root);
    rune_clip_sample_track(c, 1 - root_track, 0.25f, &arm);
    /* 1 + (3 - 1) * 0.25, 1 + (2 - 1) * 0.25, 1 */
    near(root.s.x, 1.5f, 1e-6f);
    near(root.s.y, 1.25f, 1e-6f);
    near(root.s.z, 1.0f, 0);
    near(arm.s.x, 1.0f, 0);
    near(arm.s.y, 1.0f, 0);
    rune_clip_sample_track(c, root_track, 2.0f, &root); /* held after the last key */
    near(root.s.x, 3.0f, 0);
    /* the batch sampler: the same numbers, and a scaled chunk */
    rune_sample_cache *cache;
    assert_int_equal(rune_sample_cache_create(c, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
    rune_sample_chunk chunk;
    rune_sample_cache_sample(cache, 0.25f, 0, RUNE_SAMPLE_CHUNK, &chunk);
    assert_true(chunk.scaled);
    near(chunk.sx[root_track], 1.5f, 1e-6f);
    near(chunk.sy[root_track], 1.25f, 1e-6f);
    near(chunk.sx[1 - root_track], 1.0f, 0);
    rune_sample_cache_destroy(cache);
    rune_clip_destroy(c);
    /* scale keys are checked like translations */
    b[0].s.y = INFINITY;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_E_INVALID);
}

static void test_sample_cache_cursors(void **state)
{
    (void)state;
    for (int flags = 0; flags <= RANDOM_STAGGERED; flags += RANDOM_STAGGERED) {
        rune_clip *clip = random_clip(flags);
        rune_sample_cache *cache;
        assert_int_equal(rune_sample_cache_create(clip, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
        /* steady 60 Hz playback over keys at 30 Hz: intervals advance by
         * cursor steps, never by search (the first fill is a search per track) */
        rune_sample_chunk s;
        rune_sample_cache_sample(cache, 0.0f, 0, RUNE_SAMPLE_CHUNK, &s);
        size_t after_fill = rune_sample_cache_seeks(cache);
        for (int f = 1; f < 120; f++)
            rune_sample_cache_sample(cache, (float)f / 60.0f, 0, RUNE_SAMPLE_CHUNK, &s);
        assert_int_equal(rune_sample_cache_seeks(cache), after_fill);
        /* a jump back is a seek */
        rune_sample_cache_sample(cache, 0.5f, 0, RUNE_SAMPLE_CHUNK, &s);
        assert_true(rune_sample_cache_seeks(cache) > after_fill);
        /* reset forgets the cursors: the same samples follow */
        rune_sample_chunk again;
        rune_sample_cache_reset(cache);
        rune_sample_cache_sample(cache, 0.5f, 0, RUNE_SAMPLE_CHUNK, &again);
        size_t lanes = rune_sample_cache_lane_count(cache);
        assert_memory_equal(s.x, again.x, lanes * sizeof *s.x);
        assert_memory_equal(s.qw, again.qw, lanes * sizeof *s.qw);
        rune_sample_cache_destroy(cache);
        rune_clip_destroy(clip);
    }
}

/* Worst difference between two chunks over lanes [0, n). */
static float chunk_difference(const rune_sample_chunk *a, const rune_sample_chunk *b, size_t n)
{
    const float *fa[13] = {a->x, a->y, a->z, a->qx, a->qy, a->qz, a->qw, a->weight, a->mask, a->coverage,
                           a->sx, a->sy, a->sz};
    const float *fb[13] = {b->x, b->y, b->z, b->qx, b->qy, b->qz, b->qw, b->weight, b->mask, b->coverage,
                           b->sx, b->sy, b->sz};
    assert_int_equal(a->scaled, b->scaled);
    float worst = 0.0f;
    for (int f = 0; f < (a->scaled ? 13 : 10); f++) /* unscaled: sx, sy, sz are not written */
        for (size_t i = 0; i < n; i++)
            worst = fmaxf(worst, fabsf(fa[f][i] - fb[f][i]));
    return worst;
}

/* Every kernel level against the scalar one: the same operations in the
 * same order, so the same bits without FMA, and within 2 ulps (values
 * here are at most about 2) with it. */
static void test_sample_levels_agree(void **state)
{
    (void)state;
    rune_clip *clip = random_clip(0);
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    rune_sample_cache *cache[RUNE_SIMD_LEVEL_COUNT];
    for (size_t l = 0; l < count; l++)
        assert_int_equal(rune_sample_cache_create(clip, levels[l], NULL, &cache[l], NULL), RUNE_OK);
    float worst[RUNE_SIMD_LEVEL_COUNT] = {0};
    for (int step = 0; step < 600; step++) {
        /* forward, a jump, then backwards past the start */
        float t = step < 300 ? (float)step * 0.0083f : 2.2f - (float)(step - 300) * 0.0091f;
        rune_sample_chunk s[RUNE_SIMD_LEVEL_COUNT];
        for (size_t l = 0; l < count; l++)
            rune_sample_cache_sample(cache[l], t, 0, RUNE_SAMPLE_CHUNK, &s[l]);
        for (size_t l = 1; l < count; l++)
            worst[l] = fmaxf(worst[l], chunk_difference(&s[0], &s[l], rune_sample_cache_lane_count(cache[0])));
    }
    for (size_t l = 1; l < count; l++) {
        print_message("kernel %s against scalar: max difference %.3g\n", rune_simd_name(levels[l]), worst[l]);
        assert_true(worst[l] <= test_level_tolerance(levels[l], 2.0f, 2.0f));
    }
    for (size_t l = 0; l < count; l++)
        rune_sample_cache_destroy(cache[l]);
    rune_clip_destroy(clip);
}

/* A lane map: lanes in another order than tracks, lanes without a track
 * (negative or out of range: identity, coverage 0), one track twice. */
static void test_sample_cache_lanes(void **state)
{
    (void)state;
    rune_clip *clip = random_clip(0); /* 37 tracks */
    enum { LANES = 45 };
    int32_t map[LANES];
    for (int i = 0; i < LANES; i++)
        map[i] = (i * 7) % 37;
    map[3] = -1;
    map[40] = 37; /* past the last track */
    map[44] = map[5];
    rune_sample_cache *cache;
    assert_int_equal(rune_sample_cache_create_lanes(clip, map, LANES, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
    assert_int_equal(rune_sample_cache_lane_count(cache), LANES);
    assert_ptr_equal(rune_sample_cache_lane_tracks(cache), map);
    float worst = 0.0f;
    for (int step = 0; step < 200; step++) {
        float t = -0.2f + (float)step * 0.0127f;
        rune_sample_chunk s;
        rune_sample_cache_sample(cache, t, 0, RUNE_SAMPLE_CHUNK, &s);
        for (int i = 0; i < LANES; i++) {
            if (map[i] < 0 || map[i] >= 37) {
                assert_true(s.x[i] == 0 && s.y[i] == 0 && s.z[i] == 0);
                assert_true(s.qx[i] == 0 && s.qy[i] == 0 && s.qz[i] == 0 && s.qw[i] == 1);
                assert_true(s.coverage[i] == 0);
                continue;
            }
            rune_key_sample e;
            rune_clip_sample_track(clip, (size_t)map[i], t, &e);
            float sign = s.qx[i] * e.r.x + s.qy[i] * e.r.y + s.qz[i] * e.r.z + s.qw[i] * e.r.w < 0 ? -1.0f : 1.0f;
            float d[8] = {s.x[i] - e.t.x,          s.y[i] - e.t.y,          s.z[i] - e.t.z,
                          sign * s.qx[i] - e.r.x,  sign * s.qy[i] - e.r.y,  sign * s.qz[i] - e.r.z,
                          sign * s.qw[i] - e.r.w,  s.coverage[i] - e.coverage};
            for (int k = 0; k < 8; k++)
                worst = fmaxf(worst, fabsf(d[k]));
        }
    }
    assert_true(worst <= 1e-6f);
    rune_sample_cache_destroy(cache);
    rune_clip_destroy(clip);
}

/* Cursors step over several keys per frame, forwards and backwards,
 * without searching. */
static void test_sample_cache_steps(void **state)
{
    (void)state;
    for (int flags = 0; flags <= RANDOM_STAGGERED; flags += RANDOM_STAGGERED) {
        rune_clip *clip = random_clip(flags); /* keys every 1/30 s over 2 s */
        rune_sample_cache *cache;
        assert_int_equal(rune_sample_cache_create(clip, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
        rune_sample_chunk s;
        rune_sample_cache_sample(cache, 0.0f, 0, RUNE_SAMPLE_CHUNK, &s);
        size_t seeks = rune_sample_cache_seeks(cache);
        for (int f = 1; f <= 20; f++) /* 0.09 s a frame: two or three keys */
            rune_sample_cache_sample(cache, (float)f * 0.09f, 0, RUNE_SAMPLE_CHUNK, &s);
        for (int f = 1; f <= 100; f++) /* back from 1.8 s at 60 Hz */
            rune_sample_cache_sample(cache, 1.8f - (float)f / 60.0f, 0, RUNE_SAMPLE_CHUNK, &s);
        assert_int_equal(rune_sample_cache_seeks(cache), seeks);
        rune_sample_cache_destroy(cache);
        rune_clip_destroy(clip);
    }
}

/* A cursor's history does not change what it samples: after any sequence
 * of times (steps of several keys, jumps back, loops round, NaN, times
 * outside the keys) a cache gives the bits a new cache gives at that time,
 * lane-mapped or not, time-major (all tracks' keys aligned: every lane
 * moves by rows) or track by track. */
static void test_sample_cache_history_free(void **state)
{
    (void)state;
    int32_t map[45];
    for (int i = 0; i < 45; i++)
        map[i] = i % 9 == 4 ? -1 : (i * 11) % 37;
    for (int flags = 0; flags <= RANDOM_STAGGERED; flags += RANDOM_STAGGERED) {
        rune_clip *clip = random_clip(flags);
        for (int mapped = 0; mapped < 2; mapped++) {
            rune_sample_cache *cache;
            size_t lanes = mapped ? 45 : 37;
            assert_int_equal(rune_sample_cache_create_lanes(clip, mapped ? map : NULL, lanes, RUNE_SIMD_AUTO, NULL,
                                                            &cache, NULL), RUNE_OK);
            uint32_t seed = 99;
            float t = 0.0f;
            for (int step = 0; step < 300; step++) {
                float r = test_random(&seed); /* in [-1, 1] */
                t = step % 50 == 49 ? NAN
                    : step % 37 == 36 ? 5.0f * r
                    : isfinite(t) ? t + (r > 0.6f ? 0.2f : r > -0.8f ? 1.0f / 60.0f : -0.07f)
                                  : 0.3f;
                if (t > 2.0f)
                    t -= 2.0f; /* round the loop */
                rune_sample_chunk a, b;
                rune_sample_cache *fresh;
                assert_int_equal(rune_sample_cache_create_lanes(clip, mapped ? map : NULL, lanes, RUNE_SIMD_AUTO,
                                                                NULL, &fresh, NULL), RUNE_OK);
                rune_sample_cache_sample(cache, t, 0, RUNE_SAMPLE_CHUNK, &a);
                rune_sample_cache_sample(fresh, t, 0, RUNE_SAMPLE_CHUNK, &b);
                assert_memory_equal(a.x, b.x, lanes * sizeof *a.x);
                assert_memory_equal(a.z, b.z, lanes * sizeof *a.z);
                assert_memory_equal(a.qx, b.qx, lanes * sizeof *a.qx);
                assert_memory_equal(a.qw, b.qw, lanes * sizeof *a.qw);
                assert_memory_equal(a.coverage, b.coverage, lanes * sizeof *a.coverage);
                rune_sample_cache_destroy(fresh);
            }
            rune_sample_cache_destroy(cache);
        }
        rune_clip_destroy(clip);
    }
}

/* A time-major play keeps its row, not a key a lane: its bytes do not
 * grow with its lanes (a track-by-track play's do, 4 bytes of key and one
 * of scratch a lane); and a time-major play whose lanes have no track at
 * all samples identity with coverage 0 at any time. */
static void test_sample_cache_row_state(void **state)
{
    (void)state;
    int32_t map[64], none[64];
    for (int i = 0; i < 64; i++)
        map[i] = i % 37, none[i] = -1 - i;
    for (int flags = 0; flags <= RANDOM_STAGGERED; flags += RANDOM_STAGGERED) {
        rune_clip *clip = random_clip(flags);
        rune_sample_cache *narrow, *wide;
        assert_int_equal(rune_sample_cache_create_lanes(clip, map, 8, RUNE_SIMD_AUTO, NULL, &narrow, NULL), RUNE_OK);
        assert_int_equal(rune_sample_cache_create_lanes(clip, map, 64, RUNE_SIMD_AUTO, NULL, &wide, NULL), RUNE_OK);
        size_t growth = rune_sample_cache_bytes(wide) - rune_sample_cache_bytes(narrow);
        if (flags & RANDOM_STAGGERED)
            assert_true(growth >= 56 * 4); /* rounded to 16 bytes */
        else
            assert_int_equal(growth, 0);
        rune_sample_cache_destroy(narrow);
        rune_sample_cache_destroy(wide);
        rune_sample_cache *empty;
        assert_int_equal(rune_sample_cache_create_lanes(clip, none, 64, RUNE_SIMD_AUTO, NULL, &empty, NULL), RUNE_OK);
        const float times[] = {-1.0f, 0.0f, 0.7f, NAN, 1.9f, 30.0f, 0.1f};
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            rune_sample_chunk s;
            rune_sample_cache_sample(empty, times[k], 0, RUNE_SAMPLE_CHUNK, &s);
            for (int i = 0; i < 64; i++) {
                assert_true(s.x[i] == 0 && s.y[i] == 0 && s.z[i] == 0);
                assert_true(s.qx[i] == 0 && s.qy[i] == 0 && s.qz[i] == 0 && s.qw[i] == 1);
                assert_true(s.coverage[i] == 0 && s.weight[i] == 0);
            }
        }
        rune_sample_cache_destroy(empty);
        rune_clip_destroy(clip);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_cache_row_state),
        cmocka_unit_test(test_sorts_tracks_and_keys),
        cmocka_unit_test(test_duplicate_time_keeps_later),
        cmocka_unit_test(test_sampler_cubic_inout),
        cmocka_unit_test(test_coverage_clamped),
        cmocka_unit_test(test_constant_holds_until_key),
        cmocka_unit_test(test_markers_sorted_and_folded),
        cmocka_unit_test(test_invalid_sequences),
        cmocka_unit_test(test_non_unit_quaternion_normalized),
        cmocka_unit_test(test_cache_hit_and_revision),
        cmocka_unit_test(test_compile_allocation_failures),
        cmocka_unit_test(test_sample_cache_matches_sampler),
        cmocka_unit_test(test_scale_keys),
        cmocka_unit_test(test_sample_cache_cursors),
        cmocka_unit_test(test_sample_levels_agree),
        cmocka_unit_test(test_sample_cache_lanes),
        cmocka_unit_test(test_sample_cache_steps),
        cmocka_unit_test(test_sample_cache_history_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
