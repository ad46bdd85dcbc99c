/* Unit tests of clip compression (src/compress/clip_compress.c, src/clip/clip_pack*.c,
 * packed_*.c): the bound on a hand-made chain, what stays exact (constant
 * channels, weights, markers), the clips that cannot compress and why,
 * the stored form's damage checks, allocation failures, and a compressed
 * .rune asset against the same clip compressed in memory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/rune.h"
#include "rune/compress.h"
#include "counting_alloc.h"
#include "asset/asset_internal.h"
#include "rig/rig_internal.h"
#include "clip/clip_access_internal.h"
#include "test_levels.h"

/* Root at the origin, Arm 1 unit up, Hand 1 unit further: a chain whose
 * Hand end sits 2 units from the root. */
static const rune_joint_desc chain[] = {
    {"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}},
    {"Arm", "Root", {{0, 1, 0}, {0, 0, 0, 1}}},
    {"Hand", "Arm", {{0, 1, 0}, {0, 0, 0, 1}}},
};
enum { FRAMES = 41 }; /* 30 Hz, 0 .. 1.333 s */

typedef struct clip_spec {
    bool eased, off_grid, weight_changes;
    float root_weight;
} clip_spec;

/* Arm swings about z by 0.8 sin(3t); Hand turns about x by 0.5 t; Root
 * keeps a constant translation (2, 0, 0) and holds still otherwise, at
 * `root_weight`; a marker at 0.5 s; looping at the action priority. */
static rune_clip *make_clip(const clip_spec *spec)
{
    static rune_key_pose_desc poses[FRAMES][3];
    static rune_keyframe_desc kf[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        float t = (float)f / 30.0f;
        if (spec->off_grid && f == 7)
            t += 0.01f;
        poses[f][0] = (rune_key_pose_desc){"", "Root", {2, 0, 0}, {0, 0, 0, 1}, spec->root_weight, 0, RUNE_EASE_LINEAR,
                                           RUNE_EASE_IN};
        if (spec->weight_changes && f == 9)
            poses[f][0].weight = 0.25f;
        poses[f][1] = (rune_key_pose_desc){"Root", "Arm", {0, 0, 0}, rune_q_axis_angle(rune_v3(0, 0, 1), 0.8f * sinf(3 * t)),
                                           1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        poses[f][2] = (rune_key_pose_desc){"Arm", "Hand", {0, 0, 0}, rune_q_axis_angle(rune_v3(1, 0, 0), 0.5f * t), 1,
                                           0, spec->eased && f == 4 ? RUNE_EASE_CUBIC : RUNE_EASE_LINEAR, RUNE_EASE_IN};
        kf[f] = (rune_keyframe_desc){t, poses[f], 3};
    }
    static const rune_marker_desc marks[] = {{0.5f, "hit", "left"}};
    rune_sequence_desc d = {"swing", 3, true, RUNE_PRIORITY_ACTION, kf, FRAMES, marks, 1};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static rune_rig *make_rig(void)
{
    rune_rig *rig;
    assert_int_equal(rune_rig_create(chain, 3, NULL, &rig, NULL), RUNE_OK);
    return rig;
}

/* The Hand's position (model space) when Arm turns by a about z and Hand
 * sits 1 unit up Arm's y axis: (2 - sin a, 1 + cos a, 0). */
static void test_bound_on_a_chain(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    clip_spec spec = {false, false, false, 1.0f};
    rune_clip *exact = make_clip(&spec), *packed;
    /* rig height at rest: 2 units (the Hand is 2 above the Root) */
    assert_float_equal(rune_rig_height(rig), 2.0f, 1e-6f);
    rune_compress_settings s = {0.001f, 0.1f};
    rune_error err;
    assert_int_equal(rune_clip_compress(exact, rig, &s, NULL, &packed, &err), RUNE_OK);
    rune_clip_compression z;
    assert_true(rune_clip_compressed(packed, &z));
    assert_false(rune_clip_compressed(exact, NULL));
    assert_int_equal(z.samples, FRAMES);
    assert_float_equal(z.dt, 1.0f / 30.0f, 1e-6f);
    assert_float_equal(z.precision, 0.001f, 0.0f);
    assert_float_equal(z.shell, 0.1f, 0.0f);
    assert_true(z.max_error <= 0.001f);
    assert_int_equal(z.raw_bytes, 40u * 3u * FRAMES);
    assert_int_equal(z.animated, 2); /* Arm's and Hand's rotations; Root is constant */
    /* at every sample the Hand stands where the formula puts it, within
     * the precision (its origin is one of the measured points' centres) */
    rune_binding *b;
    rune_pose pose;
    rune_mat4 m[3];
    assert_int_equal(rune_binding_create(rig, packed, 0, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&pose, 3, NULL, NULL), RUNE_OK);
    for (int f = 0; f < FRAMES; f++) {
        float t = (float)f / 30.0f, a = 0.8f * sinf(3 * t);
        rune_binding_sample(b, t, &pose);
        rune_rig_model_matrices(rig, &pose, m);
        float dx = m[2].m[12] - (2.0f - sinf(a)), dy = m[2].m[13] - (1.0f + cosf(a)), dz = m[2].m[14];
        assert_true(sqrtf(dx * dx + dy * dy + dz * dz) <= 0.001f);
        /* Root's constant channel is exact, and so is its weight */
        assert_float_equal(pose.tx[0], 2.0f, 0.0f);
        assert_float_equal(pose.coverage[0], 1.0f, 0.0f);
    }
    /* halfway between samples the rotation interpolates: within the
     * precision plus what a 1/30 s chord leaves (nlerp, not slerp) */
    rune_binding_sample(b, 0.5f / 30.0f, &pose);
    rune_rig_model_matrices(rig, &pose, m);
    float a = 0.5f * (0.0f + 0.8f * sinf(3.0f / 30.0f));
    assert_float_equal(m[2].m[12], 2.0f - sinf(a), 2e-3f);
    /* what the clip carries beside motion */
    assert_true(rune_clip_loops(packed));
    assert_int_equal(rune_clip_priority(packed), RUNE_PRIORITY_ACTION);
    assert_int_equal(rune_clip_revision(packed), 3);
    assert_string_equal(rune_clip_id(packed), "swing");
    assert_int_equal(rune_clip_marker_count(packed), 1);
    assert_string_equal(rune_clip_markers(packed)[0].value, "left");
    assert_float_equal(rune_clip_length(packed), rune_clip_length(exact), 0.0f);
    /* keys of a compressed clip: its grid samples; a constant track has one */
    /* tracks in name order: /Root (constant: one key), Arm/Hand, Root/Arm */
    assert_int_equal(rune_clip_track_key_count(packed, 0), 1);
    assert_int_equal(rune_clip_track_key_count(packed, 2), FRAMES);
    assert_true(rune_clip_bytes(packed) < rune_clip_bytes(exact));
    rune_pose_release(&pose);
    rune_binding_destroy(b);
    rune_clip_destroy(packed);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

static void test_half_weight_kept(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    clip_spec spec = {false, false, false, 0.5f};
    rune_clip *exact = make_clip(&spec), *packed;
    assert_int_equal(rune_clip_compress(exact, rig, NULL, NULL, &packed, NULL), RUNE_OK);
    rune_key_sample s;
    rune_clip_sample_track(packed, 0, 0.3f, &s); /* /Root */
    assert_float_equal(s.weight, 0.5f, 0.0f);
    assert_float_equal(s.coverage, 0.5f, 0.0f);
    /* the defaults: rig height 2 -> precision 2 / 18000, shell 2 / 60 */
    rune_clip_compression z;
    rune_clip_compressed(packed, &z);
    assert_float_equal(z.precision, 2.0f / 18000.0f, 1e-9f);
    assert_float_equal(z.shell, 2.0f / 60.0f, 1e-7f);
    rune_clip_destroy(packed);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

static void test_refusals(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    const struct {
        clip_spec spec;
        const char *says;
    } cases[] = {
        {{true, false, false, 1.0f}, "eased"},
        {{false, true, false, 1.0f}, "off the grid"},
        {{false, false, true, 1.0f}, "weight"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rune_clip *exact = make_clip(&cases[i].spec), *packed = (rune_clip *)1;
        rune_error err;
        assert_int_equal(rune_clip_compress(exact, rig, NULL, NULL, &packed, &err), RUNE_E_INVALID);
        assert_null(packed);
        assert_non_null(strstr(err.message, cases[i].says));
        assert_non_null(strstr(err.message, "swing"));
        rune_clip_destroy(exact);
    }
    /* a precision no width reaches */
    clip_spec plain = {false, false, false, 1.0f};
    rune_clip *exact = make_clip(&plain), *packed;
    rune_compress_settings tiny = {1e-12f, 0.1f};
    rune_error err;
    assert_int_equal(rune_clip_compress(exact, rig, &tiny, NULL, &packed, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "lossless"));
    rune_compress_settings nan = {NAN, 0.1f};
    assert_int_equal(rune_clip_compress(exact, rig, &nan, NULL, &packed, &err), RUNE_E_INVALID);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

/* The stored form's layout (docs/format.md): 64-byte header, 68 bytes a
 * track, 12 a marker, 32 a subtrack's range, then per segment and
 * subtrack 3 width bytes, then 3 low and 3 high range bytes. */
enum { HEAD = 64, TRACK = 68, MARKER = 12, RANGE = 32 };

static void test_stored_form_damage(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    clip_spec spec = {false, false, false, 1.0f};
    rune_clip *exact = make_clip(&spec), *packed, *back;
    assert_int_equal(rune_clip_compress(exact, rig, NULL, NULL, &packed, NULL), RUNE_OK);
    size_t size = rune_clip_packed_size(packed);
    assert_true(size > 0);
    assert_int_equal(rune_clip_packed_size(exact), 0);
    unsigned char *good = malloc(size), *bad = malloc(size);
    assert_non_null(good);
    assert_non_null(bad);
    rune_clip_packed_write(packed, good);
    rune_error err;
    assert_int_equal(rune_clip_packed_read(good, size, NULL, &back, &err), RUNE_OK);
    rune_clip_destroy(back);
    /* 2 subtracks, 3 segments (41 samples): widths at `tables` */
    size_t tables = HEAD + 3 * TRACK + 1 * MARKER + 2 * RANGE, cells = 3 * 2 * 3;
    size_t ranges = HEAD + 3 * TRACK + MARKER;
    const struct {
        size_t at;
        uint32_t value;
        int bytes;
        const char *says;
    } damage[] = {
        {tables, 25, 1, "width byte"},                  /* a width past 24 */
        {tables + 1, 0x40 | 3, 1, "width byte"},        /* a dropped component on a second width */
        {tables + cells, 255, 1, "range starts above"}, /* a low byte above the high */
        {HEAD + 8, 7, 4, "subtrack"},                   /* /Root's rotation: subtrack 7 of 2 */
        {HEAD + 12, 0, 4, "used twice"},                /* /Root's translation: subtrack 0, Arm/Hand's rotation */
        {ranges, 0x40000000u, 4, "rotation range"},     /* a rotation range from 2.0 */
        {ranges + 4, 0x7fc00000u, 4, "not finite"},     /* a NaN range */
        {20, 200, 4, "do not match its size"},          /* the sample count */
        {4, 9, 4, "priority"},
        {0, 2, 4, "flags"},
    };
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        memcpy(bad, good, size);
        if (damage[i].bytes == 1)
            bad[damage[i].at] = (unsigned char)damage[i].value;
        else
            memcpy(bad + damage[i].at, &damage[i].value, 4);
        rune_clip *c = (rune_clip *)1;
        rune_status st = rune_clip_packed_read(bad, size, NULL, &c, &err);
        if (st != RUNE_E_PARSE || !strstr(err.message, damage[i].says))
            print_message("damage %zu: status %d, \"%s\"\n", i, (int)st, err.message);
        assert_int_equal(st, RUNE_E_PARSE);
        assert_null(c);
        assert_non_null(strstr(err.message, "compressed clip: "));
        assert_non_null(strstr(err.message, damage[i].says));
    }
    /* every truncation */
    for (size_t n = 0; n < size; n++) {
        rune_clip *c;
        assert_int_equal(rune_clip_packed_read(good, n, NULL, &c, &err), RUNE_E_PARSE);
    }
    /* every byte flipped: refused, or a clip whose samples stay finite */
    for (size_t i = 0; i < size; i++) {
        memcpy(bad, good, size);
        bad[i] ^= 0xa5;
        rune_clip *c;
        if (rune_clip_packed_read(bad, size, NULL, &c, &err) != RUNE_OK)
            continue;
        rune_sample_cache *cache;
        assert_int_equal(rune_sample_cache_create(c, RUNE_SIMD_AUTO, NULL, &cache, NULL), RUNE_OK);
        for (int k = -1; k < 4; k++) {
            rune_sample_chunk ch;
            rune_sample_cache_sample(cache, 0.45f * (float)k, 0, rune_clip_track_count(c), &ch);
            for (size_t l = 0; l < rune_clip_track_count(c); l++)
                assert_true(isfinite(ch.x[l]) && isfinite(ch.qx[l]) && isfinite(ch.qw[l]) && isfinite(ch.coverage[l]));
        }
        rune_sample_cache_destroy(cache);
        rune_clip_destroy(c);
    }
    free(good);
    free(bad);
    rune_clip_destroy(packed);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    clip_spec spec = {false, false, false, 1.0f};
    rune_clip *exact = make_clip(&spec);
    for (size_t k = 1; k < 48; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_clip *packed = NULL;
        rune_status st = rune_clip_compress(exact, rig, NULL, &ca.iface, &packed, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_clip_destroy(packed);
        if (ca.live_bytes)
            counting_alloc_report(&ca);
        assert_int_equal(ca.live_bytes, 0);
    }
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

/* A compressed clip through a .rune asset: the same clip (its stored
 * form's bytes), and sampled the same at every time. */
static void test_asset_equals_memory(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    clip_spec spec = {false, false, false, 1.0f};
    rune_clip *exact = make_clip(&spec), *packed;
    assert_int_equal(rune_clip_compress(exact, rig, NULL, NULL, &packed, NULL), RUNE_OK);
    const rune_clip *clips[] = {packed};
    rune_asset_desc d = {rig, clips, 1, 0};
    void *data;
    size_t size;
    assert_int_equal(rune_asset_encode(&d, NULL, &data, &size, NULL), RUNE_OK);
    rune_asset *a;
    rune_error err;
    assert_int_equal(rune_asset_load_memory(data, size, "c.rune", NULL, &a, &err), RUNE_OK);
    const rune_clip *loaded = rune_asset_clip(a, 0);
    assert_true(rune_clip_compressed(loaded, NULL));
    size_t n = rune_clip_packed_size(loaded);
    assert_int_equal(n, rune_clip_packed_size(packed));
    unsigned char *x = malloc(n), *y = malloc(n);
    rune_clip_packed_write(loaded, x);
    rune_clip_packed_write(packed, y);
    assert_memory_equal(x, y, n);
    for (int k = -3; k < 50; k++)
        for (size_t t = 0; t < 3; t++) {
            rune_key_sample p, q;
            rune_clip_sample_track(packed, t, 0.031f * (float)k, &p);
            rune_clip_sample_track(loaded, t, 0.031f * (float)k, &q);
            assert_memory_equal(&p, &q, sizeof p);
        }
    free(x);
    free(y);
    rune_asset_destroy(a);
    rune_asset_free_encoded(NULL, data, size);
    rune_clip_destroy(packed);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

/* A rig of n joints, every one a child of the first (0.1 above it; a
 * chain would take the compressor's error search quadratic time), and a
 * 2 s clip at 30 Hz moving every joint (translation and rotation: 2 n
 * animated channels), compressed with a fixed bound. */
static void make_wide_rig(size_t n, rune_rig **rig, rune_clip **packed)
{
    enum { KEYS = 61 };
    rune_joint_desc *jd = calloc(n, sizeof *jd);
    char (*names)[16] = calloc(n, sizeof *names);
    rune_key_pose_desc *poses = calloc(KEYS * n, sizeof *poses);
    rune_keyframe_desc kf[KEYS];
    for (size_t j = 0; j < n; j++) {
        snprintf(names[j], sizeof names[j], "J%zu", j);
        jd[j] = (rune_joint_desc){names[j], j ? names[0] : NULL, {{0, 0.1f, 0}, {0, 0, 0, 1}}};
    }
    for (size_t k = 0; k < KEYS; k++) {
        float t = (float)k / 30.0f;
        for (size_t j = 0; j < n; j++) {
            float ph = 3.1415927f * t + 0.37f * (float)j;
            poses[k * n + j] = (rune_key_pose_desc){j ? names[0] : "", names[j], {0.02f * sinf(ph), 0, 0},
                                                    rune_q_axis_angle(rune_v3(0, 0, 1), 0.3f * sinf(ph)), 1, 0};
        }
        kf[k] = (rune_keyframe_desc){t, &poses[k * n], n};
    }
    rune_sequence_desc d = {"chain", 1, true, 0, kf, KEYS, NULL, 0};
    rune_clip *exact;
    assert_int_equal(rune_rig_create(jd, n, NULL, rig, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compile(&d, NULL, &exact, NULL), RUNE_OK);
    rune_compress_settings s = {1e-4f, 0.05f, 0.0f};
    assert_int_equal(rune_clip_compress(exact, *rig, &s, NULL, packed, NULL), RUNE_OK);
    rune_clip_destroy(exact);
    free(jd);
    free(names);
    free(poses);
}

/* A play of a compressed clip keeps no decoding tables: through
 * a binding it holds at most 1 KB on a 64-joint rig, and samples what the
 * single-track decoder gives, forward, backward and at random times --
 * also on a rig of 300 joints (600 channels, 5 chunks), at every kernel
 * level. The binding holds the tables, once for all its plays: 61 samples
 * at 30 Hz are 4 segments of 16, and each segment's tables take 32 bytes
 * an animated channel; the rest of the binding is bounded by its lanes
 * (maps, constant values) and channels (lane, subtrack, bit address). */
static void test_play_memory(void **state)
{
    (void)state;
    static const size_t sizes[] = {64, 300};
    for (size_t r = 0; r < 2; r++) {
        rune_rig *rig;
        rune_clip *packed;
        make_wide_rig(sizes[r], &rig, &packed);
        rune_binding *b;
        assert_int_equal(rune_binding_create(rig, packed, 0, NULL, &b, NULL), RUNE_OK);
        rune_clip_compression info;
        assert_true(rune_clip_compressed(packed, &info));
        assert_int_equal(info.samples, 61);
        size_t tables = 4 * info.animated * 32, lanes = (sizes[r] + 15) / 16 * 16;
        assert_true(rune_binding_bytes(b) >= tables);
        assert_true(rune_binding_bytes(b) <= tables + lanes * (13 + 2) * 4 + info.animated * 12 + 1024);
        rune_pose fast, exact;
        assert_int_equal(rune_pose_init(&fast, sizes[r], NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init(&exact, sizes[r], NULL, NULL), RUNE_OK);
        for (rune_simd_level l = RUNE_SIMD_SCALAR; l < RUNE_SIMD_LEVEL_COUNT; l++) {
            if (!rune_simd_supported(l))
                continue;
            rune_sample_cache *cache;
            assert_int_equal(rune_binding_sampler_create(b, l, NULL, &cache, NULL), RUNE_OK);
            if (sizes[r] == 64)
                assert_true(rune_sample_cache_bytes(cache) <= 1024);
            static const float times[] = {0.0f, 0.51f, 0.52f, 0.5333333f, 1.99f, 2.0f, 1.2f, 0.3f, -1.0f, 7.7f};
            for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
                rune_binding_sample_cached(b, cache, times[k], &fast);
                rune_binding_sample(b, times[k], &exact);
                for (size_t j = 0; j < sizes[r]; j++) {
                    assert_float_equal(fast.tx[j], exact.tx[j], 1e-6f);
                    assert_float_equal(fast.qz[j], exact.qz[j], 2e-6f);
                    assert_float_equal(fast.qw[j], exact.qw[j], 2e-6f);
                    assert_float_equal(fast.coverage[j], exact.coverage[j], 0.0f);
                }
            }
            rune_sample_cache_destroy(cache);
        }
        rune_pose_release(&fast);
        rune_pose_release(&exact);
        rune_binding_destroy(b);
        rune_clip_destroy(packed);
        rune_rig_destroy(rig);
    }
}

/* Binding a compressed clip (whose samplers share the binding's plan)
 * fails cleanly at every allocation. */
static void test_binding_allocation_failures(void **state)
{
    (void)state;
    rune_rig *rig;
    rune_clip *packed;
    make_wide_rig(8, &rig, &packed);
    for (size_t k = 1; k < 8; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_binding *b = NULL;
        rune_status st = rune_binding_create(rig, packed, 0, &ca.iface, &b, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_binding_destroy(b);
        assert_int_equal(ca.live_bytes, 0);
    }
    rune_clip_destroy(packed);
    rune_rig_destroy(rig);
}

/* Edge clips: one keyframe (one sample, held everywhere), no tracks at
 * all, no rig (settings given: tracks measured alone; none given: an
 * error), a joint spinning through 180 degrees between samples. */
static void test_edge_clips(void **state)
{
    (void)state;
    rune_rig *rig = make_rig();
    rune_key_pose_desc one[2] = {{"", "Root", {0, 0, 0}, {0, 0, 0, 1}, 1, 0},
                                 {"Root", "Arm", {0, 0, 0}, {0, 0, 0.3f, 0.95f}, 1, 0}};
    rune_keyframe_desc k1 = {0.5f, one, 2};
    rune_sequence_desc d1 = {"one", 1, false, 0, &k1, 1, NULL, 0};
    rune_clip *c, *packed;
    rune_error err;
    assert_int_equal(rune_clip_compile(&d1, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compress(c, rig, NULL, NULL, &packed, &err), RUNE_OK);
    rune_clip_compression z;
    assert_true(rune_clip_compressed(packed, &z));
    assert_int_equal(z.samples, 1);
    rune_key_sample a, b;
    rune_clip_sample_track(c, 1, -3.0f, &a);
    rune_clip_sample_track(packed, 1, 7.0f, &b);
    assert_memory_equal(&a.r, &b.r, sizeof a.r); /* constant channels stay exact */
    rune_clip_destroy(packed);
    rune_compress_settings given = {0.001f, 0.1f};
    assert_int_equal(rune_clip_compress(c, NULL, &given, NULL, &packed, &err), RUNE_OK);
    rune_clip_destroy(packed);
    assert_int_equal(rune_clip_compress(c, NULL, NULL, NULL, &packed, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "give both"));
    rune_clip_destroy(c);

    rune_sequence_desc d2 = {"empty", 1, false, 0, NULL, 0, NULL, 0};
    assert_int_equal(rune_clip_compile(&d2, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compress(c, rig, NULL, NULL, &packed, &err), RUNE_OK);
    assert_int_equal(rune_clip_track_count(packed), 0);
    rune_clip *back;
    size_t n = rune_clip_packed_size(packed);
    unsigned char bytes[256];
    assert_true(n <= sizeof bytes);
    rune_clip_packed_write(packed, bytes);
    assert_int_equal(rune_clip_packed_read(bytes, n, NULL, &back, &err), RUNE_OK);
    rune_clip_destroy(back);
    rune_clip_destroy(packed);
    rune_clip_destroy(c);

    static rune_key_pose_desc spin[40];
    static rune_keyframe_desc ks[40];
    for (int f = 0; f < 40; f++) {
        float angle = 0.4f * (float)f; /* about 140 degrees a sample: quaternions flip sign between them */
        spin[f] = (rune_key_pose_desc){"Root", "Arm", {0, 0, 0}, {0, 0, sinf(angle / 2), cosf(angle / 2)}, 1, 0};
        ks[f] = (rune_keyframe_desc){(float)f / 30.0f, &spin[f], 1};
    }
    rune_sequence_desc d3 = {"spin", 1, true, 0, ks, 40, NULL, 0};
    assert_int_equal(rune_clip_compile(&d3, NULL, &c, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compress(c, rig, NULL, NULL, &packed, &err), RUNE_OK);
    rune_clip_compressed(packed, &z);
    assert_true(z.max_error <= z.precision);
    for (int f = 0; f < 40; f++) { /* on every sample the Arm's rotation is the key's (either sign) */
        rune_clip_sample_track(packed, 0, (float)f / 30.0f, &b);
        float d = fabsf(b.r.z * spin[f].r.z + b.r.w * spin[f].r.w);
        assert_true(d > 1.0f - 1e-4f);
    }
    rune_clip_destroy(packed);
    rune_clip_destroy(c);
    rune_rig_destroy(rig);
}

/* The CMU excerpt fixture (40 frames of 01_01, imported with the default
 * compression): it loads, every clip is compressed, samples stay finite. */
/* Float curves of a compressed clip, 30 Hz keys over 1.333 s, bound 1e-3:
 * "ramp" rises 0 -> 4 in a straight line (its 39 inner keys go: 2 kept,
 * the ends), "hold" is constant at .25 (2 kept), "wave" is sin(3t) (curved:
 * most keys stay), "eased" has cubic keys (kept, as a line cannot stand for
 * them) and "spline" Hermite keys. Every curve is within the bound of the
 * exact one at and between keys (measured here at 1 ms steps, not by the
 * compressor's own check), values sit on the 1e-3 grid, and a .rune holds
 * them as 16 bits and gives back the same bits. */
static void test_compressed_curves(void **state)
{
    (void)state;
    static rune_key_pose_desc poses[FRAMES];
    static rune_curve_key_desc ck[FRAMES][5];
    static rune_keyframe_desc kf[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        float t = (float)f / 30.0f;
        poses[f] = (rune_key_pose_desc){"Root", "Arm", {0, 0, 0}, rune_q_axis_angle(rune_v3(0, 0, 1), 0.5f * t), 1,
                                        0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        ck[f][0] = (rune_curve_key_desc){"ramp", 3.0f * t, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        ck[f][1] = (rune_curve_key_desc){"hold", 0.25f, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        ck[f][2] = (rune_curve_key_desc){"wave", sinf(3.0f * t), 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        ck[f][3] = (rune_curve_key_desc){"eased", (float)(f % 3), 1, 0, RUNE_EASE_CUBIC, RUNE_EASE_INOUT};
        ck[f][4] = (rune_curve_key_desc){"spline", sinf(2.0f * t), 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN, true,
                                         2.0f * cosf(2.0f * t), 2.0f * cosf(2.0f * t)};
        kf[f] = (rune_keyframe_desc){t, &poses[f], 1, ck[f], 5};
    }
    rune_sequence_desc d = {"face", 1, true, RUNE_PRIORITY_CORE, kf, FRAMES, NULL, 0};
    rune_clip *exact, *packed;
    assert_int_equal(rune_clip_compile(&d, NULL, &exact, NULL), RUNE_OK);
    rune_rig *rig = make_rig();
    rune_compress_settings s = {0.001f, 0.1f, 0.001f};
    rune_error err;
    if (rune_clip_compress(exact, rig, &s, NULL, &packed, &err))
        fail_msg("%s", err.message);
    rune_clip_compression info;
    assert_true(rune_clip_compressed(packed, &info));
    assert_float_equal(info.curve_precision, 0.001f, 0.0f);
    assert_true(info.curve_max_error <= 0.001f);
    assert_int_equal(rune_clip_curve_count(packed), 5);
    assert_int_equal(rune_clip_curve_key_count(packed, (size_t)rune_clip_find_curve(packed, "ramp")), 2);
    assert_int_equal(rune_clip_curve_key_count(packed, (size_t)rune_clip_find_curve(packed, "hold")), 2);
    assert_int_equal(rune_clip_curve_key_count(packed, (size_t)rune_clip_find_curve(packed, "eased")), FRAMES);
    assert_int_equal(rune_clip_curve_key_count(packed, (size_t)rune_clip_find_curve(packed, "spline")), FRAMES);
    size_t wave = rune_clip_curve_key_count(packed, (size_t)rune_clip_find_curve(packed, "wave"));
    print_message("wave: %zu of %d keys kept\n", wave, FRAMES);
    assert_true(wave > 2 && wave < FRAMES);
    float worst = 0.0f;
    for (size_t c = 0; c < 5; c++)
        for (int i = 0; i <= 1400; i++) {
            rune_curve_sample a, b;
            rune_clip_sample_curve(exact, c, 0.001f * (float)i, &a);
            rune_clip_sample_curve(packed, c, 0.001f * (float)i, &b);
            worst = fmaxf(worst, fabsf(a.value - b.value));
        }
    print_message("curves within %.3g of the exact clip (bound 1e-3)\n", worst);
    assert_true(worst <= 0.001f);
    /* the values on the grid: v / step an integer */
    for (size_t k = 0; k < rune_clip_curve_key_count(packed, 2); k++) {
        float t;
        rune_curve_key_desc key;
        rune_clip_curve_key(packed, 2, k, &t, &key);
        double q = (double)key.value / 0.001;
        assert_true(fabs(q - nearbyint(q)) < 1e-3);
    }
    /* through a .rune: the same bits, smaller than the exact clip's curves */
    const rune_clip *one[1] = {packed}, *raw[1] = {exact};
    rune_asset_desc ad = {rig, one, 1, -1}, rd = {rig, raw, 1, -1};
    void *data, *rdata;
    size_t size, rsize;
    assert_int_equal(rune_asset_encode(&ad, NULL, &data, &size, NULL), RUNE_OK);
    assert_int_equal(rune_asset_encode(&rd, NULL, &rdata, &rsize, NULL), RUNE_OK);
    rune_asset *a;
    assert_int_equal(rune_asset_load_memory(data, size, "face.rune", NULL, &a, &err), RUNE_OK);
    const rune_clip *back = rune_asset_clip(a, 0);
    rune_clip_compression again;
    assert_true(rune_clip_compressed(back, &again));
    assert_float_equal(again.curve_max_error, info.curve_max_error, 0.0f);
    for (size_t c = 0; c < 5; c++) {
        assert_int_equal(rune_clip_curve_key_count(back, c), rune_clip_curve_key_count(packed, c));
        for (int i = -5; i <= 1400; i += 7) {
            rune_curve_sample x, y;
            rune_clip_sample_curve(packed, c, 0.001f * (float)i, &x);
            rune_clip_sample_curve(back, c, 0.001f * (float)i, &y);
            assert_memory_equal(&x, &y, sizeof x);
        }
    }
    print_message(".rune: %zu bytes compressed, %zu exact\n", size, rsize);
    assert_true(size < rsize);
    rune_asset_destroy(a);
    rune_asset_free_encoded(NULL, data, size);
    rune_asset_free_encoded(NULL, rdata, rsize);
    rune_clip_destroy(packed);
    /* a negative or NaN curve precision is refused */
    s.curve_precision = -1.0f;
    assert_int_equal(rune_clip_compress(exact, rig, &s, NULL, &packed, &err), RUNE_E_INVALID);
    s.curve_precision = NAN;
    assert_int_equal(rune_clip_compress(exact, rig, &s, NULL, &packed, &err), RUNE_E_INVALID);
    rune_clip_destroy(exact);
    rune_rig_destroy(rig);
}

static void test_fixture_loads(void **state)
{
    (void)state;
    rune_asset *a;
    rune_error err;
    assert_int_equal(rune_asset_load_file(RUNE_TEST_DATA "/fixtures/cmu_excerpt_compressed.rune", NULL, &a, &err),
                     RUNE_OK);
    rune_clip_compression z;
    assert_true(rune_clip_compressed(rune_asset_clip(a, 0), &z));
    assert_int_equal(z.samples, 40);
    assert_true(z.max_error <= z.precision);
    rune_asset_destroy(a);
    /* that file is version 1 (rune 0.3, before curves): it still loads;
     * morphs.rune, tests/fixtures/morphs.gltf imported (version 2), holds
     * its six morph curves compressed within the default 1e-4 */
    FILE *f = fopen(RUNE_TEST_DATA "/fixtures/cmu_excerpt_compressed.rune", "rb");
    unsigned char head[12];
    assert_non_null(f);
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_int_equal(head[8], 1);
    assert_int_equal(rune_asset_load_file(RUNE_TEST_DATA "/fixtures/morphs.rune", NULL, &a, &err), RUNE_OK);
    const rune_clip *c = rune_asset_clip(a, 0);
    assert_true(rune_clip_compressed(c, &z));
    assert_int_equal(rune_clip_curve_count(c), 6);
    assert_float_equal(z.curve_precision, 1e-4f, 0.0f);
    rune_curve_sample s;
    rune_clip_sample_curve(c, (size_t)rune_clip_find_curve(c, "Face/smile"), 1.5f, &s);
    assert_float_equal(s.value, 0.75f, 1e-4f); /* .5 of the way from 1 to .5 */
    rune_clip_sample_curve(c, (size_t)rune_clip_find_curve(c, "Lid/0"), 0.5f, &s);
    assert_float_equal(s.value, 0.875f, 1e-4f); /* the Hermite of test_import.c */
    rune_asset_destroy(a);
}

/* The packed sampler's kernel builds agree with the scalar one: a fan of
 * 27 joints (blocks of 8 and a tail of 3) all turning and moving -- every
 * lane animated, written as one run -- and the same with joints 5 and 20
 * held still (constant channels: the animated lanes have gaps), sampled
 * on a sample and between samples at every level this CPU runs, each
 * within the FMA builds' rounding of the scalar build's values. */
enum { FAN = 27, FAN_FRAMES = 31 };
static rune_clip *fan_clip(bool gaps)
{
    static rune_key_pose_desc poses[FAN_FRAMES][FAN];
    static rune_keyframe_desc kf[FAN_FRAMES];
    static char names[FAN][8];
    for (int j = 0; j < FAN; j++)
        snprintf(names[j], sizeof names[j], "J%d", j);
    for (int f = 0; f < FAN_FRAMES; f++) {
        float t = (float)f / 30.0f;
        for (int j = 0; j < FAN; j++) {
            bool still = gaps && (j == 5 || j == 20);
            float a = still ? 0.3f : 0.7f * sinf(2.0f * t + (float)j);
            rune_vec3 axis = rune_v3(sinf((float)j), cosf(0.5f * (float)j), 0.6f);
            axis = rune_v3_scale(axis, 1.0f / sqrtf(rune_v3_dot(axis, axis)));
            rune_vec3 at = still ? rune_v3(0.0f, 0.2f, 0.0f)
                                 : rune_v3(0.1f * sinf(t + (float)j), 0.2f, 0.05f * cosf(3.0f * t));
            poses[f][j] = (rune_key_pose_desc){j ? "J0" : "", names[j], at, rune_q_axis_angle(axis, a), 1, 0,
                                               RUNE_EASE_LINEAR, RUNE_EASE_IN};
        }
        kf[f] = (rune_keyframe_desc){t, poses[f], FAN};
    }
    rune_sequence_desc d = {"fan", 1, true, RUNE_PRIORITY_MOVEMENT, kf, FAN_FRAMES, NULL, 0};
    rune_clip *c;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, NULL), RUNE_OK);
    return c;
}

static void test_kernel_levels_agree(void **state)
{
    (void)state;
    rune_joint_desc jd[FAN];
    char names[FAN][8];
    for (int j = 0; j < FAN; j++) {
        snprintf(names[j], sizeof names[j], "J%d", j);
        jd[j] = (rune_joint_desc){names[j], j ? names[0] : NULL, {{0, 0.2f, 0}, {0, 0, 0, 1}}};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(jd, FAN, NULL, &rig, NULL), RUNE_OK);
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nlevels = test_levels(levels);
    const float times[] = {0.0f, 0.1f, 0.0123f, 0.517f, 0.93f};
    for (int gaps = 0; gaps < 2; gaps++) {
        rune_clip *exact = fan_clip(gaps), *packed;
        rune_compress_settings cs = {1e-4f, 0.05f};
        assert_int_equal(rune_clip_compress(exact, rig, &cs, NULL, &packed, NULL), RUNE_OK);
        rune_clip_compression z;
        assert_true(rune_clip_compressed(packed, &z));
        assert_int_equal(z.animated, gaps ? 2 * (FAN - 2) : 2 * FAN); /* rotations and translations */
        rune_binding *b;
        assert_int_equal(rune_binding_create(rig, packed, 0, NULL, &b, NULL), RUNE_OK);
        static rune_sample_chunk want, got;
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
            for (size_t l = 0; l < nlevels; l++) {
                rune_sample_cache *cache;
                assert_int_equal(rune_binding_sampler_create(b, levels[l], NULL, &cache, NULL), RUNE_OK);
                rune_sample_cache_sample(cache, times[i], 0, FAN, l ? &got : &want);
                rune_sample_cache_destroy(cache);
                if (!l)
                    continue;
                const float *w[7] = {want.x, want.y, want.z, want.qx, want.qy, want.qz, want.qw};
                const float *g[7] = {got.x, got.y, got.z, got.qx, got.qy, got.qz, got.qw};
                for (int c = 0; c < 7; c++)
                    for (int j = 0; j < FAN; j++)
                        assert_true(fabsf(w[c][j] - g[c][j]) <= test_level_tolerance(levels[l], 4.0f, 1.0f));
            }
        }
        rune_binding_destroy(b);
        rune_clip_destroy(packed);
        rune_clip_destroy(exact);
    }
    rune_rig_destroy(rig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_on_a_chain),   cmocka_unit_test(test_half_weight_kept),
        cmocka_unit_test(test_refusals),           cmocka_unit_test(test_stored_form_damage),
        cmocka_unit_test(test_allocation_failures), cmocka_unit_test(test_asset_equals_memory),
        cmocka_unit_test(test_fixture_loads),      cmocka_unit_test(test_edge_clips),
        cmocka_unit_test(test_compressed_curves),  cmocka_unit_test(test_play_memory),
        cmocka_unit_test(test_binding_allocation_failures), cmocka_unit_test(test_kernel_levels_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
