/* Unit tests of the .rune asset (src/asset): a rig and clips
 * written and read back equal the originals bit for bit (frames, keys,
 * samples, float curves); every truncation and every corrupted byte is
 * an error naming a section, or (checksum recomputed) a load whose
 * samples stay finite; allocation failures leak nothing. A file without
 * curves is version 1; a compressed clip's snapped curves come back bit
 * for bit from 16 bits a value. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rune/rune.h"
#include "counting_alloc.h"
#include "test_random.h"
#include "../../src/asset/asset_format.h"
#include "asset/asset_internal.h"
#include "clip/clip_access_internal.h"

/* A rig whose part names repeat under different parents ("Arm" under
 * "Left" and "Right", so their children name parents "Left/Arm"), a
 * scaled root, and two clips: one with scale keys, eased keys, markers
 * and float curves (every storage flag: weights, splines, easing), one
 * plain. */
typedef struct fixture {
    rune_rig *rig;
    rune_clip *clips[2];
} fixture;

static const rune_joint_desc joints[] = {
    {"Root", NULL, {{0, 1, 0}, {0, 0, 0, 1}}, {100, 100, 100}, true},
    {"Left", "Root", {{0.2f, 0, 0}, {0, 0, 0.38268343f, 0.92387953f}}},
    {"Right", "Root", {{-0.2f, 0, 0}, {0, 0, 0, 1}}},
    {"Arm", "Left", {{0.3f, 0, 0}, {0, 0, 0, 1}}},
    {"Arm", "Right", {{-0.3f, 0, 0}, {0, 0, 0, 1}}},
    {"Hand", "Left/Arm", {{0.25f, 0, 0}, {0, 0, 0, 1}}},
    {"Thumb", "Right/Arm", {{-0.25f, 0, 0}, {0, 0, 0, 1}}},
};
enum { JOINTS = sizeof joints / sizeof joints[0], KEYS = 9 };

static rune_clip *make_clip(const char *id, bool scaled, uint32_t seed)
{
    static const char *const parents[JOINTS] = {"", "Root", "Root", "Left", "Right", "Arm", "Arm"};
    /* tracks name their parent's part alone: (Arm, Hand) and (Arm, Thumb) */
    static rune_key_pose_desc poses[KEYS][JOINTS];
    static rune_curve_key_desc curves[KEYS][3];
    rune_keyframe_desc kf[KEYS];
    for (int k = 0; k < KEYS; k++) {
        for (int j = 0; j < JOINTS; j++) {
            float r[7];
            for (int i = 0; i < 7; i++)
                r[i] = test_random(&seed);
            rune_key_pose_desc *p = &poses[k][j];
            *p = (rune_key_pose_desc){parents[j], joints[j].part, {r[0], r[1], r[2]},
                                      {r[3], r[4], r[5], 1.0f + r[6]}, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
            if (scaled && j % 2 == 0) {
                p->scaled = true;
                p->s = rune_v3(1.0f + r[0], 1.0f + r[1], 1.0f);
            }
            if (j == 3 && k % 3 == 1)
                p->easing = RUNE_EASE_CUBIC, p->direction = RUNE_EASE_INOUT;
        }
        kf[k] = (rune_keyframe_desc){0.125f * (float)k, poses[k], JOINTS};
        if (!scaled)
            continue;
        /* jaw: plain; smile/left: weights, eased; blink: splines, every other key */
        rune_curve_key_desc *c = curves[k];
        c[0] = (rune_curve_key_desc){"jaw", test_random(&seed), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        c[1] = (rune_curve_key_desc){"smile/left", test_random(&seed), 0.5f + 0.25f * test_random(&seed), 0.1f,
                                     k % 2 ? RUNE_EASE_SINE : RUNE_EASE_LINEAR, RUNE_EASE_OUT};
        c[2] = (rune_curve_key_desc){"blink", test_random(&seed), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN,
                                     k % 2 == 0, test_random(&seed), test_random(&seed)};
        kf[k].curves = c;
        kf[k].curve_count = k < 7 ? 3 : 2; /* blink ends earlier */
    }
    rune_marker_desc markers[2] = {{0.5f, "step", "left"}, {0.25f, "step", NULL}};
    rune_sequence_desc d = {id, 7, true, RUNE_PRIORITY_ACTION, kf, KEYS, markers, 2};
    rune_clip *c;
    rune_error err = {0};
    rune_status st = rune_clip_compile(&d, NULL, &c, &err);
    if (st)
        print_message("%s\n", err.message);
    assert_int_equal(st, RUNE_OK);
    return c;
}

static void fixture_make(fixture *f)
{
    rune_error err = {0};
    if (rune_rig_create(joints, JOINTS, NULL, &f->rig, &err))
        fail_msg("%s", err.message);
    f->clips[0] = make_clip("walk", true, 11);
    f->clips[1] = make_clip("idle", false, 23);
}

static void fixture_free(fixture *f)
{
    rune_clip_destroy(f->clips[0]);
    rune_clip_destroy(f->clips[1]);
    rune_rig_destroy(f->rig);
}

static void *encode(const fixture *f, size_t *size)
{
    const rune_clip *clips[2] = {f->clips[0], f->clips[1]};
    rune_asset_desc d = {f->rig, clips, 2, 0};
    void *data;
    assert_int_equal(rune_asset_encode(&d, NULL, &data, size, NULL), RUNE_OK);
    return data;
}

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static void assert_same_clip(const rune_clip *a, const rune_clip *b)
{
    assert_string_equal(rune_clip_id(a), rune_clip_id(b));
    assert_int_equal(rune_clip_revision(a), rune_clip_revision(b));
    assert_int_equal(rune_clip_loops(a), rune_clip_loops(b));
    assert_int_equal(rune_clip_priority(a), rune_clip_priority(b));
    assert_int_equal(rune_clip_has_scale(a), rune_clip_has_scale(b));
    assert_int_equal(rune_clip_bytes(a), rune_clip_bytes(b));
    assert_int_equal(rune_clip_track_count(a), rune_clip_track_count(b));
    for (size_t t = 0; t < rune_clip_track_count(a); t++) {
        assert_string_equal(rune_clip_track_parent(a, t), rune_clip_track_parent(b, t));
        assert_string_equal(rune_clip_track_part(a, t), rune_clip_track_part(b, t));
        assert_int_equal(rune_clip_track_key_count(a, t), rune_clip_track_key_count(b, t));
        for (size_t k = 0; k < rune_clip_track_key_count(a, t); k++) {
            float ta, tb;
            rune_key_pose_desc ka, kb;
            rune_clip_track_key(a, t, k, &ta, &ka);
            rune_clip_track_key(b, t, k, &tb, &kb);
            assert_true(same_bits(&ta, &tb, sizeof ta));
            assert_true(same_bits(&ka.t, &kb.t, sizeof ka.t) && same_bits(&ka.r, &kb.r, sizeof ka.r));
            assert_true(same_bits(&ka.s, &kb.s, sizeof ka.s) && ka.easing == kb.easing && ka.direction == kb.direction);
        }
        /* samples between and beyond the keys: the same bits */
        for (int i = -3; i < 90; i++) {
            rune_key_sample sa, sb;
            rune_clip_sample_track(a, t, 0.0137f * (float)i, &sa);
            rune_clip_sample_track(b, t, 0.0137f * (float)i, &sb);
            assert_true(same_bits(&sa, &sb, sizeof sa));
        }
    }
    assert_int_equal(rune_clip_curve_count(a), rune_clip_curve_count(b));
    for (size_t c = 0; c < rune_clip_curve_count(a); c++) {
        assert_string_equal(rune_clip_curve_name(a, c), rune_clip_curve_name(b, c));
        assert_int_equal(rune_clip_curve_key_count(a, c), rune_clip_curve_key_count(b, c));
        for (size_t k = 0; k < rune_clip_curve_key_count(a, c); k++) {
            float ta, tb;
            rune_curve_key_desc ka, kb;
            rune_clip_curve_key(a, c, k, &ta, &ka);
            rune_clip_curve_key(b, c, k, &tb, &kb);
            assert_true(same_bits(&ta, &tb, sizeof ta));
            assert_true(same_bits(&ka.value, &kb.value, sizeof(float) * 3));
            assert_true(same_bits(&ka.in_tangent, &kb.in_tangent, sizeof(float) * 2));
            assert_true(ka.easing == kb.easing && ka.direction == kb.direction && ka.spline == kb.spline);
        }
        for (int i = -3; i < 90; i++) {
            rune_curve_sample sa, sb;
            rune_clip_sample_curve(a, c, 0.0137f * (float)i, &sa);
            rune_clip_sample_curve(b, c, 0.0137f * (float)i, &sb);
            assert_true(same_bits(&sa, &sb, sizeof sa));
        }
    }
    assert_int_equal(rune_clip_marker_count(a), rune_clip_marker_count(b));
    for (size_t m = 0; m < rune_clip_marker_count(a); m++) {
        assert_string_equal(rune_clip_markers(a)[m].name, rune_clip_markers(b)[m].name);
        assert_string_equal(rune_clip_markers(a)[m].value, rune_clip_markers(b)[m].value);
        assert_true(same_bits(&rune_clip_markers(a)[m].time, &rune_clip_markers(b)[m].time, sizeof(float)));
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    size_t size;
    void *data = encode(&f, &size);
    assert_true(size % ASSET_ALIGN == 0);
    assert_true(rune_asset_sniff(data, size));
    assert_int_equal(get_u32((const unsigned char *)data + HDR_VERSION), 2); /* it has curves */
    assert_int_equal(rune_clip_curve_count(f.clips[0]), 3);
    rune_asset *a;
    rune_error err = {0};
    /* loaded from a copy freed at once: the asset keeps nothing of the bytes */
    void *bytes = malloc(size);
    assert_non_null(bytes);
    memcpy(bytes, data, size);
    assert_int_equal(rune_asset_load_memory(bytes, size, "fixture.rune", NULL, &a, &err), RUNE_OK);
    memset(bytes, 0xdd, size);
    free(bytes);
    size_t n;
    const rune_joint_desc *jd = rune_asset_joints(a, &n);
    assert_int_equal(n, JOINTS);
    assert_int_equal(rune_asset_root_joint(a), 0);
    const rune_rig *rig = rune_asset_rig(a);
    assert_int_equal(rune_rig_layout_signature(rig), rune_rig_layout_signature(f.rig));
    for (size_t j = 0; j < JOINTS; j++) {
        rune_xform x = rune_rig_frame(rig, j), y = rune_rig_frame(f.rig, j);
        rune_vec3 sx = rune_rig_frame_scale(rig, j), sy = rune_rig_frame_scale(f.rig, j);
        assert_true(same_bits(&x, &y, sizeof x) && same_bits(&sx, &sy, sizeof sx));
        assert_int_equal(rune_rig_parent(rig, j), rune_rig_parent(f.rig, j));
    }
    assert_string_equal(jd[1].parent, "Root");      /* unique part: the part alone */
    assert_string_equal(jd[5].parent, "Left/Arm");  /* "Arm" twice: qualified */
    assert_int_equal(rune_asset_clip_count(a), 2);
    for (size_t i = 0; i < 2; i++)
        assert_same_clip(rune_asset_clip(a, i), f.clips[i]);
    /* written again from what was loaded: the same bytes */
    const rune_clip *again[2] = {rune_asset_clip(a, 0), rune_asset_clip(a, 1)};
    rune_asset_desc d2 = {rig, again, 2, 0};
    void *data2;
    size_t size2;
    assert_int_equal(rune_asset_encode(&d2, NULL, &data2, &size2, NULL), RUNE_OK);
    assert_int_equal(size2, size);
    assert_memory_equal(data2, data, size);
    rune_asset_free_encoded(NULL, data2, size2);
    /* a library from the asset: its clips move in */
    rune_library *lib;
    assert_int_equal(rune_asset_library(a, NULL, &lib, NULL), RUNE_OK);
    assert_int_equal(rune_library_clip_count(lib), 2);
    assert_null(rune_asset_clip(a, 0));
    rune_library_destroy(lib);
    rune_asset_destroy(a);
    rune_asset_free_encoded(NULL, data, size);
    fixture_free(&f);
}

/* A clip loaded from damaged bytes still samples finite values. */
static void assert_finite_asset(const rune_asset *a)
{
    for (size_t i = 0; i < rune_asset_clip_count(a); i++) {
        const rune_clip *c = rune_asset_clip(a, i);
        for (size_t t = 0; t < rune_clip_track_count(c); t++)
            for (int k = -2; k < 12; k++) {
                rune_key_sample s;
                rune_clip_sample_track(c, t, 0.11f * (float)k, &s);
                const float *v = &s.t.x;
                for (size_t e = 0; e < sizeof s / sizeof(float); e++)
                    assert_true(isfinite(v[e]));
            }
        for (size_t cv = 0; cv < rune_clip_curve_count(c); cv++)
            for (int k = -2; k < 12; k++) {
                rune_curve_sample s;
                rune_clip_sample_curve(c, cv, 0.11f * (float)k, &s);
                assert_true(isfinite(s.value) && isfinite(s.coverage));
            }
    }
}

static void test_damage(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    size_t size;
    unsigned char *data = encode(&f, &size);
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    rune_error err;
    rune_asset *a;
    /* every truncation */
    for (size_t n = 0; n < size; n++) {
        assert_int_equal(rune_asset_load_memory(data, n, "cut.rune", NULL, &a, &err), RUNE_E_PARSE);
        assert_null(a);
        assert_non_null(strstr(err.message, "cut.rune: "));
    }
    /* every byte flipped: the checksum (or the header) refuses it */
    size_t loaded = 0, refused = 0;
    for (size_t i = 0; i < size; i++) {
        memcpy(copy, data, size);
        copy[i] ^= 0x5a;
        assert_int_equal(rune_asset_load_memory(copy, size, "flip.rune", NULL, &a, &err), RUNE_E_PARSE);
        /* ...and with the checksum made right, the checks behind it: an
         * error naming a section, or a load that stays finite */
        if (i >= ASSET_HEADER_BYTES) {
            put_u64(copy + HDR_CHECKSUM, rune__asset_checksum(copy + ASSET_HEADER_BYTES, size - ASSET_HEADER_BYTES));
            rune_status st = rune_asset_load_memory(copy, size, "flip.rune", NULL, &a, &err);
            if (st == RUNE_OK) {
                assert_finite_asset(a);
                rune_asset_destroy(a);
                loaded++;
            } else {
                assert_true(st == RUNE_E_PARSE || st == RUNE_E_INVALID);
                assert_non_null(strstr(err.message, "section") ? err.message : NULL);
                refused++;
            }
        }
    }
    print_message("flipped bytes with a good checksum: %zu loaded, %zu refused\n", loaded, refused);
    /* what the header says when it is wrong */
    memcpy(copy, data, size);
    put_u32(copy + HDR_VERSION, 99);
    assert_int_equal(rune_asset_load_memory(copy, size, "v.rune", NULL, &a, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "format version 99"));
    put_u32(copy + HDR_VERSION, RUNE_ASSET_VERSION);
    put_u32(copy + HDR_ORDER, 0x04030201u);
    assert_int_equal(rune_asset_load_memory(copy, size, "o.rune", NULL, &a, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "byte order"));
    assert_int_equal(rune_asset_load_memory("{\"rig\": 1}", 10, "j.json", NULL, &a, &err), RUNE_E_PARSE);
    assert_non_null(strstr(err.message, "not a .rune asset"));
    free(copy);
    rune_asset_free_encoded(NULL, data, size);
    fixture_free(&f);
}

static void test_writer_rejects(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    const rune_clip *twice[2] = {f.clips[0], f.clips[0]};
    rune_asset_desc d = {f.rig, twice, 2, -1};
    void *data;
    size_t size;
    rune_error err;
    assert_int_equal(rune_asset_encode(&d, NULL, &data, &size, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "repeats"));
    d.clip_count = 1;
    d.root_joint = JOINTS;
    assert_int_equal(rune_asset_encode(&d, NULL, &data, &size, &err), RUNE_E_INVALID);
    /* clips alone, no rig */
    d.rig = NULL;
    d.root_joint = -1;
    assert_int_equal(rune_asset_encode(&d, NULL, &data, &size, &err), RUNE_OK);
    rune_asset *a;
    assert_int_equal(rune_asset_load_memory(data, size, NULL, NULL, &a, &err), RUNE_OK);
    assert_null(rune_asset_rig(a));
    assert_int_equal(get_u32((const unsigned char *)data + HDR_VERSION), 2);
    rune_asset_destroy(a);
    rune_asset_free_encoded(NULL, data, size);
    /* without curves: version 1, which rune 0.3 reads too */
    d.clips = (const rune_clip *const *)&f.clips[1];
    assert_int_equal(rune_asset_encode(&d, NULL, &data, &size, &err), RUNE_OK);
    assert_int_equal(get_u32((const unsigned char *)data + HDR_VERSION), 1);
    assert_int_equal(rune_asset_load_memory(data, size, NULL, NULL, &a, &err), RUNE_OK);
    assert_int_equal(rune_asset_clip_count(a), 1);
    rune_asset_destroy(a);
    rune_asset_free_encoded(NULL, data, size);
    fixture_free(&f);
}

/* A mesh through the file: every array back as written (version 3); a
 * damaged bind index, weight or triangle is refused naming the section;
 * the writer refuses a bind outside the rig. */
static void test_mesh_round_trip(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    float pos[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    float tan[16] = {1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 1, 0, 0, 1};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    uint16_t vjoints[8] = {0, 1, 1, 0, 0, 0, 1, 1};
    float weights[8] = {0.75f, 0.25f, 0.5f, 0.5f, 1, 0, 0.125f, 0.875f};
    int32_t bind_joints[2] = {0, 2};
    rune_mat4 inverse[2] = {rune_mat4_identity(), rune_mat4_identity()};
    inverse[1].m[13] = -0.5f;
    float d[12] = {0, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    rune_mesh_morph morph = {"Body/smile", d, NULL};
    rune_mesh mesh = {"Body", 4, 2, pos, nrm, tan, idx, 2, vjoints, weights, 2, bind_joints, inverse, 1, &morph};
    const rune_clip *clips[2] = {f.clips[0], f.clips[1]};
    rune_asset_desc desc = {f.rig, clips, 2, 0, &mesh, 1};
    void *data;
    size_t size;
    assert_int_equal(rune_asset_encode(&desc, NULL, &data, &size, NULL), RUNE_OK);
    unsigned char *bytes = data;
    assert_int_equal(get_u32(bytes + HDR_VERSION), 3);
    rune_asset *a;
    rune_error err;
    assert_int_equal(rune_asset_load_memory(data, size, "m.rune", NULL, &a, &err), RUNE_OK);
    size_t count;
    const rune_mesh *m = rune_asset_meshes(a, &count);
    assert_int_equal(count, 1);
    assert_string_equal(m->name, "Body");
    assert_int_equal(m->vertex_count, 4), assert_int_equal(m->triangle_count, 2), assert_int_equal(m->influences, 2);
    assert_memory_equal(m->positions, pos, sizeof pos), assert_memory_equal(m->normals, nrm, sizeof nrm);
    assert_memory_equal(m->tangents, tan, sizeof tan), assert_memory_equal(m->indices, idx, sizeof idx);
    assert_memory_equal(m->joints, vjoints, sizeof vjoints), assert_memory_equal(m->weights, weights, sizeof weights);
    assert_memory_equal(m->bind_joints, bind_joints, sizeof bind_joints);
    assert_memory_equal(m->inverse_binds, inverse, sizeof inverse);
    assert_int_equal(m->morph_count, 1);
    assert_string_equal(m->morphs[0].name, "Body/smile");
    assert_memory_equal(m->morphs[0].positions, d, sizeof d);
    assert_null(m->morphs[0].normals);
    assert_int_equal(rune_asset_clip_count(a), 2);
    rune_asset_destroy(a);
    /* damage inside the mesh section (the last), then fix the checksum */
    size_t mesh_at = 0;
    for (size_t e = 0; e < get_u32(bytes + HDR_SECTIONS); e++)
        if (get_u32(bytes + ASSET_HEADER_BYTES + ASSET_ENTRY_BYTES * e) == 6) /* the mesh section */
            mesh_at = (size_t)get_u64(bytes + ASSET_HEADER_BYTES + ASSET_ENTRY_BYTES * e + 8);
    assert_true(mesh_at > 0);
    size_t joint_at = mesh_at + 32 + 68 * 2 + 8 + 4 * (12 + 12 + 16 + 6);
    unsigned char *copy = malloc(size);
    const struct {
        size_t at;
        uint32_t value;
        const char *message;
    } damage[] = {{joint_at, 7, "m.rune: mesh section 0: vertex 0: influence 0: bind 7 of 2"},
                  {mesh_at + 32 + 68, 9, "m.rune: mesh section 0: bind 1: joint 9, not a joint of the rig"},
                  {joint_at - 24, 4, "m.rune: mesh section 0: triangle 0: vertex 4 past the 4 vertices"}};
    for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
        memcpy(copy, data, size);
        if (damage[i].at == joint_at)
            copy[joint_at] = (unsigned char)damage[i].value, copy[joint_at + 1] = 0;
        else
            put_u32(copy + damage[i].at, damage[i].value);
        put_u64(copy + HDR_CHECKSUM, rune__asset_checksum(copy + ASSET_HEADER_BYTES, size - ASSET_HEADER_BYTES));
        assert_int_equal(rune_asset_load_memory(copy, size, "m.rune", NULL, &a, &err), RUNE_E_PARSE);
        assert_null(a);
        if (!strstr(err.message, damage[i].message))
            fail_msg("%s", err.message);
    }
    free(copy);
    rune_asset_free_encoded(NULL, data, size);
    bind_joints[1] = 9;
    assert_int_equal(rune_asset_encode(&desc, NULL, &data, &size, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "meshes[0] (\"Body\"): bind 1: joint 9, not a joint of the rig"));
    fixture_free(&f);
}

static void test_load_allocation_failures(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    size_t size;
    void *data = encode(&f, &size);
    for (size_t k = 1; k < 64; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_asset *a;
        rune_status st = rune_asset_load_memory(data, size, NULL, &ca.iface, &a, NULL);
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        rune_asset_destroy(st ? NULL : a);
        if (ca.live_bytes)
            counting_alloc_report(&ca);
        assert_int_equal(ca.live_bytes, 0);
    }
    rune_asset_free_encoded(NULL, data, size);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_writer_rejects),
        cmocka_unit_test(test_mesh_round_trip),
        cmocka_unit_test(test_load_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
