/* Writing a .rune asset: the rig and the compiled clips' keys laid out in
 * sections (asset_format.h), measured first, then filled into one block,
 * then checksummed. Reads rigs and clips through their public calls only. */
#include "rune/asset.h"
#include "asset_format.h"
#include "asset_curves.h"
#include "asset_meshes.h"
#include "../base/alloc.h"
#include "../base/require.h"
#include "asset_internal.h"

#include <string.h>

typedef struct encoder {
    unsigned char *base; /* NULL while measuring */
    size_t strings_at, strings_used;
} encoder;

/* A string reference: appended to the strings section. */
static uint32_t string_ref(encoder *e, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s) + 1;
    uint32_t at = (uint32_t)e->strings_used;
    if (e->base)
        memcpy(e->base + e->strings_at + at, s, n);
    e->strings_used += n;
    return at;
}

static uint32_t string_ref_cb(void *e, const char *s) { return string_ref(e, s); }

static size_t rig_bytes(const rune_rig *rig)
{
    return rig ? RIG_HEAD_BYTES + JOINT_BYTES * rune_rig_joint_count(rig) : 0;
}

static size_t clip_bytes(const rune_clip *c)
{
    if (rune_clip_compressed(c, NULL))
        return rune_clip_packed_size(c);
    return CLIP_HEAD_BYTES + TRACK_BYTES * rune_clip_track_count(c) + MARKER_BYTES * rune_clip_marker_count(c) +
           asset_key_bytes(rune_clip_key_count(c), rune_clip_has_scale(c));
}

static void put_vec(unsigned char *p, const float *v, int n)
{
    for (int i = 0; i < n; i++)
        put_f32(p + 4 * (size_t)i, v[i]);
}

static void write_rig(encoder *e, unsigned char *p, const rune_rig *rig, int32_t root)
{
    size_t n = rune_rig_joint_count(rig);
    if (p) {
        put_u32(p, (uint32_t)n);
        put_u32(p + 4, (uint32_t)root);
    }
    for (size_t j = 0; j < n; j++) {
        uint32_t part = string_ref(e, rune_rig_part(rig, j));
        if (!p)
            continue;
        unsigned char *q = p + RIG_HEAD_BYTES + JOINT_BYTES * j;
        rune_xform f = rune_rig_frame(rig, j);
        rune_vec3 s = rune_rig_frame_scale(rig, j);
        float v[10] = {f.t.x, f.t.y, f.t.z, f.r.x, f.r.y, f.r.z, f.r.w, s.x, s.y, s.z};
        put_u32(q, part);
        put_u32(q + 4, (uint32_t)rune_rig_parent(rig, j));
        put_vec(q + 8, v, 10);
        put_u32(q + 48, s.x != 1.0f || s.y != 1.0f || s.z != 1.0f);
    }
}

static void write_clip(encoder *e, unsigned char *p, const rune_clip *c)
{
    if (rune_clip_compressed(c, NULL)) {
        if (p)
            rune_clip_packed_write(c, p);
        return;
    }
    size_t tracks = rune_clip_track_count(c), markers = rune_clip_marker_count(c), keys = rune_clip_key_count(c);
    bool scaled = rune_clip_has_scale(c);
    uint32_t id = string_ref(e, rune_clip_id(c));
    if (p) {
        uint32_t head[8] = {id, rune_clip_revision(c),
                            (rune_clip_loops(c) ? CLIP_FLAG_LOOP : 0u) | (scaled ? CLIP_FLAG_SCALE : 0u),
                            (uint32_t)rune_clip_priority(c), (uint32_t)tracks, (uint32_t)keys, (uint32_t)markers, 0};
        for (int i = 0; i < 8; i++)
            put_u32(p + 4 * (size_t)i, head[i]);
    }
    unsigned char *tp = p ? p + CLIP_HEAD_BYTES : NULL;
    unsigned char *mp = p ? tp + TRACK_BYTES * tracks : NULL;
    unsigned char *kp = p ? mp + MARKER_BYTES * markers : NULL;
    size_t first = 0;
    for (size_t t = 0; t < tracks; t++) {
        uint32_t parent = string_ref(e, rune_clip_track_parent(c, t)), part = string_ref(e, rune_clip_track_part(c, t));
        size_t n = rune_clip_track_key_count(c, t);
        if (tp) {
            uint32_t rec[4] = {parent, part, (uint32_t)first, (uint32_t)n};
            for (int i = 0; i < 4; i++)
                put_u32(tp + TRACK_BYTES * t + 4 * (size_t)i, rec[i]);
        }
        for (size_t k = 0; kp && k < n; k++) {
            size_t i = first + k;
            float time;
            rune_key_pose_desc d;
            rune_clip_track_key(c, t, k, &time, &d);
            float tv[3] = {d.t.x, d.t.y, d.t.z}, rv[4] = {d.r.x, d.r.y, d.r.z, d.r.w}, sv[3] = {d.s.x, d.s.y, d.s.z};
            unsigned char *at = kp;
            put_f32(at + 4 * i, time), at += 4 * keys;
            put_vec(at + 12 * i, tv, 3), at += 12 * keys;
            put_vec(at + 16 * i, rv, 4), at += 16 * keys;
            put_f32(at + 4 * i, d.weight), at += 4 * keys;
            put_f32(at + 4 * i, d.mask_weight), at += 4 * keys;
            if (scaled)
                put_vec(at + 12 * i, sv, 3), at += 12 * keys;
            at[i] = (unsigned char)d.easing, at += keys;
            at[i] = (unsigned char)d.direction;
        }
        first += n;
    }
    const rune_marker *m = rune_clip_markers(c);
    for (size_t i = 0; i < markers; i++) {
        uint32_t name = string_ref(e, m[i].name), value = string_ref(e, m[i].value);
        if (mp) {
            put_f32(mp + MARKER_BYTES * i, m[i].time);
            put_u32(mp + MARKER_BYTES * i + 4, name);
            put_u32(mp + MARKER_BYTES * i + 8, value);
        }
    }
}

static rune_status check_desc(const rune_asset_desc *d, rune_error *err)
{
    size_t joints = d->rig ? rune_rig_joint_count(d->rig) : 0;
    if (d->root_joint < -1 || (d->root_joint >= 0 && (size_t)d->root_joint >= joints))
        return rune_fail(err, RUNE_E_INVALID, "root joint %d: not a joint of the rig (%zu joints)", (int)d->root_joint,
                         joints);
    if (joints > UINT32_MAX / JOINT_BYTES || d->clip_count > UINT32_MAX)
        return rune_fail(err, RUNE_E_INVALID, "too many joints or clips for a .rune asset");
    if (d->mesh_count && (!d->meshes || !joints))
        return rune_fail(err, RUNE_E_INVALID, "meshes: %s", d->meshes ? "meshes need a rig" : "NULL");
    for (size_t i = 0; i < d->mesh_count; i++) {
        const rune_mesh *m = &d->meshes[i];
        if (!rune__asset_mesh_bytes(m) || !m->positions || !m->joints || !m->weights || !m->bind_joints ||
            !m->inverse_binds || (m->triangle_count && !m->indices) || (m->morph_count && !m->morphs))
            return rune_fail(err, RUNE_E_INVALID, "meshes[%zu] (\"%s\"): an array missing, 1..%d influences, or too "
                             "large for a .rune asset", i, m->name ? m->name : "", RUNE_SKIN_MAX_INFLUENCES);
        for (size_t b = 0; b < m->bind_count; b++)
            if (m->bind_joints[b] < 0 || (size_t)m->bind_joints[b] >= joints)
                return rune_fail(err, RUNE_E_INVALID, "meshes[%zu] (\"%s\"): bind %zu: joint %d, not a joint of the "
                                 "rig", i, m->name ? m->name : "", b, (int)m->bind_joints[b]);
    }
    for (size_t i = 0; i < d->clip_count; i++) {
        if (!d->clips[i])
            return rune_fail(err, RUNE_E_INVALID, "clips[%zu]: NULL", i);
        for (size_t k = 0; k < i; k++)
            if (strcmp(rune_clip_id(d->clips[k]), rune_clip_id(d->clips[i])) == 0)
                return rune_fail(err, RUNE_E_INVALID, "clips[%zu]: id \"%s\" repeats clips[%zu]", i,
                                 rune_clip_id(d->clips[i]), k);
    }
    return RUNE_OK;
}

/* Lays out every section (e->base NULL: measures); returns the size. */
static size_t layout(encoder *e, const rune_asset_desc *d, size_t sections)
{
    size_t at = asset_align(ASSET_HEADER_BYTES + ASSET_ENTRY_BYTES * sections);
    /* strings first: their size comes from a measuring pass over the rest */
    e->strings_at = at;
    size_t strings = e->strings_used;
    e->strings_used = 0;
    at = asset_align(at + strings);
    size_t entry = 1;
    unsigned char *table = e->base ? e->base + ASSET_HEADER_BYTES : NULL;
    if (table) {
        put_u32(table, SECTION_STRINGS);
        put_u64(table + 8, e->strings_at);
        put_u64(table + 16, strings);
    }
    if (d->rig) {
        size_t bytes = rig_bytes(d->rig);
        if (table) {
            put_u32(table + ASSET_ENTRY_BYTES * entry, SECTION_RIG);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 8, at);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 16, bytes);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 24, rune_rig_joint_count(d->rig));
        }
        write_rig(e, e->base ? e->base + at : NULL, d->rig, d->root_joint);
        at = asset_align(at + bytes);
        entry++;
    }
    for (size_t i = 0; i < d->clip_count; i++, entry++) {
        size_t curves = rune__asset_curves_bytes(d->clips[i]);
        if (curves) { /* the clip's curves come first: the reader builds the clip with them */
            if (table) {
                put_u32(table + ASSET_ENTRY_BYTES * entry, SECTION_CURVES);
                put_u64(table + ASSET_ENTRY_BYTES * entry + 8, at);
                put_u64(table + ASSET_ENTRY_BYTES * entry + 16, curves);
                put_u64(table + ASSET_ENTRY_BYTES * entry + 24, i);
            }
            rune__asset_curves_write(d->clips[i], e->base ? e->base + at : NULL, string_ref_cb, e);
            at = asset_align(at + curves);
            entry++;
        }
        size_t bytes = clip_bytes(d->clips[i]);
        if (table) {
            put_u32(table + ASSET_ENTRY_BYTES * entry,
                    rune_clip_compressed(d->clips[i], NULL) ? SECTION_PACKED : SECTION_CLIP);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 8, at);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 16, bytes);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 24, i);
        }
        write_clip(e, e->base ? e->base + at : NULL, d->clips[i]);
        at = asset_align(at + bytes);
    }
    for (size_t i = 0; i < d->mesh_count; i++, entry++) {
        size_t bytes = rune__asset_mesh_bytes(&d->meshes[i]);
        if (table) {
            put_u32(table + ASSET_ENTRY_BYTES * entry, SECTION_MESH);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 8, at);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 16, bytes);
            put_u64(table + ASSET_ENTRY_BYTES * entry + 24, i);
        }
        rune__asset_mesh_write(&d->meshes[i], e->base ? e->base + at : NULL, string_ref_cb, e);
        at = asset_align(at + bytes);
    }
    return at;
}

rune_status rune_asset_encode(const rune_asset_desc *d, const rune_allocator *alloc, void **data, size_t *size,
                              rune_error *err)
{
    RUNE_REQUIRE(err, d, "desc");
    RUNE_REQUIRE(err, data, "data");
    RUNE_REQUIRE(err, size, "size");
    *data = NULL;
    *size = 0;
    rune_status st = check_desc(d, err);
    if (st)
        return st;
    alloc = rune__alloc_or_default(alloc);
    size_t sections = 1 + (d->rig != NULL) + d->clip_count + d->mesh_count;
    bool curves = false;
    for (size_t i = 0; i < d->clip_count; i++)
        if (rune_clip_curve_count(d->clips[i]))
            sections++, curves = true;
    encoder e = {NULL, 0, 0};
    layout(&e, d, sections);          /* counts the strings */
    size_t total = layout(&e, d, sections); /* places them */
    if (total > RUNE_ASSET_MAX_BYTES || e.strings_used > UINT32_MAX)
        return rune_fail(err, RUNE_E_INVALID, "the asset would take %zu bytes, more than %zu", total,
                         RUNE_ASSET_MAX_BYTES);
    unsigned char *p = rune__calloc(alloc, total, 1);
    if (!p)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory encoding an asset of %zu bytes", total);
    e.base = p;
    layout(&e, d, sections);
    memcpy(p, ASSET_MAGIC, 8);
    /* the oldest version that has what the file holds */
    put_u32(p + HDR_VERSION, d->mesh_count ? 3u : curves ? 2u : ASSET_VERSION_OLDEST);
    put_u32(p + HDR_ORDER, ASSET_BYTE_ORDER);
    put_u64(p + HDR_SIZE, total);
    put_u32(p + HDR_SECTIONS, (uint32_t)sections);
    put_u64(p + HDR_CHECKSUM, rune__asset_checksum(p + ASSET_HEADER_BYTES, total - ASSET_HEADER_BYTES));
    *data = p;
    *size = total;
    return RUNE_OK;
}

void rune_asset_free_encoded(const rune_allocator *alloc, void *data, size_t size)
{
    rune__free(rune__alloc_or_default(alloc), data, size, 1);
}

rune_status rune_asset_write(const rune_asset_desc *d, FILE *f, rune_error *err)
{
    RUNE_REQUIRE(err, d, "desc");
    RUNE_REQUIRE(err, f, "f");
    void *data;
    size_t size;
    rune_status st = rune_asset_encode(d, NULL, &data, &size, err);
    if (st)
        return st;
    if (fwrite(data, 1, size, f) != size)
        st = rune_fail(err, RUNE_E_IO, "cannot write the asset (%zu bytes)", size);
    rune_asset_free_encoded(NULL, data, size);
    return st;
}
