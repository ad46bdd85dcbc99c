/* Reading a .rune asset: the header, the section table and every value
 * are checked before use (bounds, counts, string references, parent
 * indexes, key order), so a corrupt or truncated file is an error naming
 * its section and never a crash; then the rig is built and each clip is
 * compiled from its keys, which arrive sorted (the compiler skips its
 * sort), so a loaded clip equals the same clip compiled from JSON. */
#include "rune/asset.h"
#include "asset_format.h"
#include "asset_curves.h"
#include "asset_meshes.h"
#include "../clip/clip_packed.h"
#include "../base/file_read.h"
#include "../base/alloc.h"
#include "../base/arena.h"
#include "../base/require.h"
#include "asset_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rune_asset {
    rune_allocator alloc;
    rune__arena arena; /* joint descriptions and their names */
    rune_joint_desc *joints;
    size_t joint_count;
    rune_rig *rig;
    int32_t root_joint;
    rune_clip **clips;
    size_t clip_count, clip_cap; /* clip_cap: the sections that might be clips */
    rune_mesh *meshes;           /* in the arena */
    size_t mesh_count;
};

typedef struct reader {
    const unsigned char *p;
    size_t size;
    const char *name;
    rune_error *err;
    rune_asset *a;
    size_t strings_at, strings_size;
    uint32_t version;
    asset_curves pending; /* a curves section read, for the clip section after it */
    size_t pending_clip;
    size_t sections;
} reader;

typedef struct section {
    uint32_t kind;
    size_t at, size, count;
} section;

/* A string reference, or NULL when it does not name a NUL-terminated
 * string inside the strings section. */
static const char *string_at(const reader *r, uint32_t ref)
{
    asset_strings s = {r->p + r->strings_at, r->strings_size};
    return asset_string_at(&s, ref);
}

static rune_status bad(reader *r, const char *where, size_t n, const char *what)
{
    return rune_fail(r->err, RUNE_E_PARSE, "%s: %s %zu: %s", r->name, where, n, what);
}

static rune_status read_header(reader *r, section **out, size_t *count)
{
    const unsigned char *p = r->p;
    if (r->size < ASSET_HEADER_BYTES || memcmp(p, ASSET_MAGIC, 8) != 0)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: header: not a .rune asset (no RUNEASST magic)", r->name);
    if (get_u32(p + HDR_ORDER) != ASSET_BYTE_ORDER)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: header: written with the other byte order", r->name);
    r->version = get_u32(p + HDR_VERSION);
    if (r->version < ASSET_VERSION_OLDEST || r->version > RUNE_ASSET_VERSION)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: header: format version %u, this rune reads %d to %d%s", r->name,
                         r->version, ASSET_VERSION_OLDEST, RUNE_ASSET_VERSION,
                         r->version > RUNE_ASSET_VERSION ? " (written by a newer rune)" : "");
    for (size_t i = HDR_SECTIONS + 4; i < ASSET_HEADER_BYTES; i++)
        if (p[i])
            return rune_fail(r->err, RUNE_E_PARSE, "%s: header: byte %zu is reserved and must be 0", r->name, i);
    if (get_u64(p + HDR_SIZE) != r->size)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: header: %llu bytes stated, %zu present (truncated?)", r->name,
                         (unsigned long long)get_u64(p + HDR_SIZE), r->size);
    if (rune__asset_checksum(p + ASSET_HEADER_BYTES, r->size - ASSET_HEADER_BYTES) != get_u64(p + HDR_CHECKSUM))
        return rune_fail(r->err, RUNE_E_PARSE, "%s: header: checksum mismatch (the file is corrupt)", r->name);
    size_t n = get_u32(p + HDR_SECTIONS);
    size_t table_end = ASSET_HEADER_BYTES + ASSET_ENTRY_BYTES * n;
    if (n == 0 || n > (r->size - ASSET_HEADER_BYTES) / ASSET_ENTRY_BYTES)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: section table: %zu sections do not fit the file", r->name, n);
    section *s = rune__calloc(&r->a->alloc, n, sizeof *s);
    if (!s)
        return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
    size_t end = table_end;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *e = p + ASSET_HEADER_BYTES + ASSET_ENTRY_BYTES * i;
        uint64_t at = get_u64(e + 8), size = get_u64(e + 16), cnt = get_u64(e + 24);
        s[i] = (section){get_u32(e), (size_t)at, (size_t)size, (size_t)cnt};
        /* in order, aligned, after the table and each other, inside the file */
        if (at % ASSET_ALIGN || at < end || at > r->size || size > r->size - at || cnt > UINT32_MAX ||
            (i == 0) != (s[i].kind == SECTION_STRINGS) ||
            (s[i].kind != SECTION_RIG && s[i].kind != SECTION_CLIP && s[i].kind != SECTION_STRINGS &&
             s[i].kind != SECTION_PACKED && (s[i].kind != SECTION_CURVES || r->version < 2) &&
             (s[i].kind != SECTION_MESH || r->version < 3)) ||
            (s[i].kind == SECTION_RIG && i != 1)) {
            rune__free(&r->a->alloc, s, n, sizeof *s);
            return bad(r, "section", i, "bad kind, offset or size (the first section holds the strings, a rig "
                                               "comes second)");
        }
        end = (size_t)(at + size);
    }
    r->strings_at = s[0].at;
    r->strings_size = s[0].size;
    *out = s;
    *count = n;
    return RUNE_OK;
}

/* Joint descriptions from the rig section, parents named by part (or
 * "grandparent/part" when the part alone is ambiguous); then the rig. */
static rune_status read_rig(reader *r, const section *s)
{
    rune_asset *a = r->a;
    const unsigned char *p = r->p + s->at;
    if (s->size < RIG_HEAD_BYTES)
        return bad(r, "rig section, byte", 0, "shorter than its header");
    size_t n = get_u32(p);
    int32_t root = (int32_t)get_u32(p + 4);
    if (n != s->count || s->size != RIG_HEAD_BYTES + JOINT_BYTES * n)
        return bad(r, "rig section, joints", n, "do not match the section's size");
    if (root < -1 || (root >= 0 && (size_t)root >= n))
        return bad(r, "rig section, root joint", (size_t)(root < 0 ? 0 : root), "not a joint");
    a->root_joint = root;
    a->joints = rune__arena_array(&a->arena, n ? n : 1, sizeof *a->joints);
    if (!a->joints)
        return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
    for (size_t j = 0; j < n; j++) {
        const unsigned char *q = p + RIG_HEAD_BYTES + JOINT_BYTES * j;
        const char *part = string_at(r, get_u32(q));
        int32_t parent = (int32_t)get_u32(q + 4);
        if (!part || !part[0])
            return bad(r, "rig section, joint", j, "part name is not a string of the strings section");
        if (parent < -1 || parent >= (int32_t)j)
            return bad(r, "rig section, joint", j, "parent is not an earlier joint");
        rune_joint_desc *d = &a->joints[j];
        d->part = rune__arena_strdup(&a->arena, part); /* the bytes may go once loaded */
        if (!d->part)
            return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
        d->frame = (rune_xform){{get_f32(q + 8), get_f32(q + 12), get_f32(q + 16)},
                                {get_f32(q + 20), get_f32(q + 24), get_f32(q + 28), get_f32(q + 32)}};
        d->scale = rune_v3(get_f32(q + 36), get_f32(q + 40), get_f32(q + 44));
        d->scaled = (get_u32(q + 48) & 1u) != 0;
        d->parent = "";
        if (parent >= 0) {
            const char *pp = a->joints[parent].part;
            size_t same = 0;
            for (size_t k = 0; k < j; k++)
                same += strcmp(a->joints[k].part, pp) == 0;
            if (same == 1) {
                d->parent = pp;
            } else { /* grandparent/parent: unique, as the rig's (parent, part) pairs are */
                int32_t g = (int32_t)get_u32(r->p + s->at + RIG_HEAD_BYTES + JOINT_BYTES * (size_t)parent + 4);
                const char *gp = g >= 0 ? a->joints[g].part : "";
                size_t len = strlen(gp) + strlen(pp) + 2;
                char *q2 = rune__arena_alloc(&a->arena, len);
                if (!q2)
                    return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
                memcpy(q2, gp, strlen(gp));
                q2[strlen(gp)] = '/';
                memcpy(q2 + strlen(gp) + 1, pp, strlen(pp) + 1);
                d->parent = q2;
            }
        }
    }
    a->joint_count = n;
    if (n == 0)
        return RUNE_OK;
    rune_status st = rune_rig_create(a->joints, n, &a->alloc, &a->rig, r->err);
    if (st)
        rune_error_prefix(r->err, "%s: rig section: ", r->name);
    return st;
}

typedef struct clip_view {
    uint32_t id, revision, flags;
    int32_t priority;
    size_t tracks, keys, markers;
    const unsigned char *track, *marker, *time, *t, *q, *weight, *mask, *s, *easing, *dir;
} clip_view;

/* The clip section's header and arrays, its size checked against them. */
static rune_status clip_arrays(reader *r, const section *s, size_t index, clip_view *v)
{
    const unsigned char *p = r->p + s->at;
    if (s->size < CLIP_HEAD_BYTES)
        return bad(r, "clip section", index, "shorter than its header");
    v->id = get_u32(p);
    v->revision = get_u32(p + 4);
    v->flags = get_u32(p + 8);
    v->priority = (int32_t)get_u32(p + 12);
    v->tracks = get_u32(p + 16);
    v->keys = get_u32(p + 20);
    v->markers = get_u32(p + 24);
    bool scaled = (v->flags & CLIP_FLAG_SCALE) != 0;
    /* 32-bit counts: these products cannot overflow a 64-bit size_t */
    size_t need = CLIP_HEAD_BYTES + TRACK_BYTES * v->tracks + MARKER_BYTES * v->markers +
                  asset_key_bytes(v->keys, scaled);
    if (s->count != index || s->size != need || v->keys > UINT32_MAX / 64)
        return bad(r, "clip section", index, "its counts do not match its size");
    v->track = p + CLIP_HEAD_BYTES;
    v->marker = v->track + TRACK_BYTES * v->tracks;
    v->time = v->marker + MARKER_BYTES * v->markers;
    v->t = v->time + 4 * v->keys;
    v->q = v->t + 12 * v->keys;
    v->weight = v->q + 16 * v->keys;
    v->mask = v->weight + 4 * v->keys;
    v->s = v->mask + 4 * v->keys;
    v->easing = v->s + (scaled ? 12 * v->keys : 0);
    v->dir = v->easing + v->keys;
    return RUNE_OK;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static rune_status clip_fail(reader *r, size_t index, const char *id, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rune_fail(r->err, RUNE_E_PARSE, "%s: clip section %zu (\"%s\"): %s", r->name, index, id, what);
}

static rune_vec3 get_vec3(const unsigned char *p) { return rune_v3(get_f32(p), get_f32(p + 4), get_f32(p + 8)); }

/* The clip's keys as a sorted sequence (one keyframe a key), checked. */
static rune_status clip_sequence(reader *r, size_t index, const clip_view *v, const char *id,
                                 rune_keyframe_desc *kf, rune_key_pose_desc *poses, rune_marker_desc *md)
{
    size_t next = 0;
    const char *prev_parent = NULL, *prev_part = NULL;
    for (size_t t = 0; t < v->tracks; t++) {
        const unsigned char *tr = v->track + TRACK_BYTES * t;
        const char *parent = string_at(r, get_u32(tr)), *part = string_at(r, get_u32(tr + 4));
        size_t first = get_u32(tr + 8), n = get_u32(tr + 12);
        if (!parent || !part || !part[0])
            return clip_fail(r, index, id, "track %zu: names are not strings of the strings section", t);
        if (first != next || n == 0 || n > v->keys - next)
            return clip_fail(r, index, id, "track %zu: its keys do not follow the previous track's", t);
        if (prev_part) {
            int c = strcmp(prev_parent, parent);
            if ((c ? c : strcmp(prev_part, part)) >= 0)
                return clip_fail(r, index, id, "track %zu: tracks out of name order (or repeated)", t);
        }
        prev_parent = parent, prev_part = part;
        for (size_t k = first; k < first + n; k++) {
            float time = get_f32(v->time + 4 * k);
            if (!rune_in_range(time) || (k > first && !(time > get_f32(v->time + 4 * (k - 1)))))
                return clip_fail(r, index, id, "key %zu: time not finite, or not after the previous key", k);
            if (v->easing[k] >= RUNE_EASE_STYLE_COUNT || v->dir[k] >= RUNE_EASE_DIR_COUNT)
                return clip_fail(r, index, id, "key %zu: unknown easing", k);
            const unsigned char *q = v->q + 16 * k;
            poses[k] = (rune_key_pose_desc){parent,
                                            part,
                                            get_vec3(v->t + 12 * k),
                                            {get_f32(q), get_f32(q + 4), get_f32(q + 8), get_f32(q + 12)},
                                            get_f32(v->weight + 4 * k),
                                            get_f32(v->mask + 4 * k),
                                            (rune_easing_style)v->easing[k],
                                            (rune_easing_dir)v->dir[k],
                                            rune_v3(1.0f, 1.0f, 1.0f),
                                            false};
            if (v->flags & CLIP_FLAG_SCALE) {
                poses[k].s = get_vec3(v->s + 12 * k);
                poses[k].scaled = true;
            }
            kf[k] = (rune_keyframe_desc){time, &poses[k], 1, NULL, 0};
        }
        next += n;
    }
    if (next != v->keys)
        return clip_fail(r, index, id, "%zu keys belong to no track", v->keys - next);
    for (size_t m = 0; m < v->markers; m++) {
        const unsigned char *mp = v->marker + MARKER_BYTES * m;
        md[m] = (rune_marker_desc){get_f32(mp), string_at(r, get_u32(mp + 4)), string_at(r, get_u32(mp + 8))};
        if (!md[m].name || !md[m].value)
            return clip_fail(r, index, id, "marker %zu: names are not strings of the strings section", m);
    }
    return RUNE_OK;
}

/* A curves section: held for the clip section that must follow it. */
static rune_status read_curves(reader *r, const section *s, size_t i, size_t clip)
{
    if (r->pending.keys || s->count != clip)
        return bad(r, "section", i, "a curves section not right before the clip section it names");
    char why[160];
    asset_strings strings = {r->p + r->strings_at, r->strings_size};
    rune_status st = rune__asset_curves_read(&strings, r->p + s->at, s->size, &r->a->alloc, &r->pending, why,
                                             sizeof why);
    if (st == RUNE_E_NOMEM)
        return rune_fail(r->err, st, "%s: out of memory", r->name);
    if (st)
        return rune_fail(r->err, st, "%s: curves section %zu (clip %zu): %s", r->name, i, clip, why);
    return RUNE_OK;
}

/* Clip `index`'s id against the clips read before it. */
static rune_status unique_id(reader *r, size_t index, const char *id)
{
    for (size_t k = 0; k < index; k++)
        if (strcmp(rune_clip_id(r->a->clips[k]), id) == 0)
            return clip_fail(r, index, id, "its id repeats clip section %zu", k);
    return RUNE_OK;
}

static rune_status read_clip(reader *r, const section *s, size_t index)
{
    clip_view v;
    memset(&v, 0, sizeof v);
    rune_status st = clip_arrays(r, s, index, &v);
    if (st)
        return st;
    const char *id = string_at(r, v.id);
    if (!id || !id[0])
        return clip_fail(r, index, "?", "its id is not a string of the strings section");
    if ((st = unique_id(r, index, id)))
        return st;
    rune_allocator *al = &r->a->alloc;
    size_t ck = r->pending.set.key_count, frames = v.keys + ck; /* the curves' keys as keyframes after the poses' */
    rune_keyframe_desc *kf = rune__calloc(al, frames ? frames : 1, sizeof *kf);
    rune_key_pose_desc *poses = rune__calloc(al, v.keys ? v.keys : 1, sizeof *poses);
    rune_marker_desc *md = rune__calloc(al, v.markers ? v.markers : 1, sizeof *md);
    if (!kf || !poses || !md)
        st = rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
    if (!st)
        st = clip_sequence(r, index, &v, id, kf, poses, md);
    if (!st) {
        rune__asset_curves_keyframes(&r->pending, kf + v.keys);
        rune_sequence_desc d = {id, v.revision, (v.flags & CLIP_FLAG_LOOP) != 0, v.priority, kf, frames, md,
                                v.markers, 0.0f};
        st = rune_clip_compile(&d, al, &r->a->clips[index], r->err);
        if (st)
            rune_error_prefix(r->err, "%s: clip section %zu: ", r->name, index);
    }
    rune__free(al, kf, frames ? frames : 1, sizeof *kf);
    rune__free(al, poses, v.keys ? v.keys : 1, sizeof *poses);
    rune__free(al, md, v.markers ? v.markers : 1, sizeof *md);
    return st;
}

/* A compressed clip section: its stored form, checked by the clip stage. */
/* A mesh section (after the rig: its joints are checked against it). */
static rune_status read_mesh(reader *r, const section *s, size_t i)
{
    rune_asset *a = r->a;
    if (!a->meshes) { /* room for every section left: only meshes follow meshes */
        if (!(a->meshes = rune__arena_array(&a->arena, r->sections - i, sizeof *a->meshes)))
            return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
    }
    asset_strings str = {r->p + r->strings_at, r->strings_size};
    char why[256] = "";
    rune_status st = rune__asset_mesh_read(&str, r->p + s->at, s->size, a->joint_count, &a->arena,
                                           &a->meshes[a->mesh_count], why, sizeof why);
    if (st == RUNE_E_NOMEM)
        return rune_fail(r->err, RUNE_E_NOMEM, "%s: out of memory", r->name);
    if (st)
        return rune_fail(r->err, RUNE_E_PARSE, "%s: mesh section %zu: %s", r->name, a->mesh_count, why);
    a->mesh_count++;
    return RUNE_OK;
}

static rune_status read_packed(reader *r, const section *s, size_t index)
{
    rune_status st = rune__clip_packed_read_curves(r->p + s->at, s->size, r->pending.keys ? &r->pending.set : NULL,
                                                   &r->a->alloc, &r->a->clips[index], r->err);
    if (st) {
        rune_error_prefix(r->err, "%s: clip section %zu: ", r->name, index);
        return st;
    }
    const char *id = rune_clip_id(r->a->clips[index]);
    return unique_id(r, index, id);
}

rune_status rune_asset_load_memory(const void *data, size_t size, const char *name, const rune_allocator *alloc,
                                   rune_asset **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    name = name ? name : "<memory>";
    alloc = rune__alloc_or_default(alloc);
    if (!data || size > RUNE_ASSET_MAX_BYTES)
        return rune_fail(err, RUNE_E_PARSE, "%s: header: no data, or more than %zu bytes", name, RUNE_ASSET_MAX_BYTES);
    rune_asset *a = rune__calloc(alloc, 1, sizeof *a);
    if (!a)
        return rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", name);
    a->alloc = *alloc;
    a->root_joint = -1;
    rune__arena_init(&a->arena, alloc);
    reader r = {.p = data, .size = size, .name = name, .err = err, .a = a};
    section *sec = NULL;
    size_t n = 0;
    rune_status st = read_header(&r, &sec, &n);
    r.sections = n;
    size_t first_clip = st ? 0 : (n > 1 && sec[1].kind == SECTION_RIG ? 2 : 1);
    if (!st && n > first_clip) {
        a->clip_cap = n - first_clip;
        a->clips = rune__calloc(alloc, a->clip_cap, sizeof *a->clips);
        if (!a->clips)
            st = rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", name);
    }
    if (!st && first_clip == 2)
        st = read_rig(&r, &sec[1]);
    for (size_t i = first_clip; !st && i < n; i++) {
        if (sec[i].kind == SECTION_CURVES) {
            st = read_curves(&r, &sec[i], i, a->clip_count);
        } else if (sec[i].kind == SECTION_MESH) {
            st = read_mesh(&r, &sec[i], i);
        } else if (a->mesh_count) {
            st = bad(&r, "section", i, "a clip after a mesh (meshes come last)");
        } else if (sec[i].kind != SECTION_CLIP && sec[i].kind != SECTION_PACKED) {
            st = bad(&r, "section", i, "a second rig or strings section");
        } else {
            st = sec[i].kind == SECTION_PACKED ? read_packed(&r, &sec[i], a->clip_count)
                                               : read_clip(&r, &sec[i], a->clip_count);
            rune__asset_curves_free(&r.pending, alloc); /* built into the clip, or failed */
            if (!st)
                a->clip_count++;
        }
    }
    if (!st && r.pending.keys)
        st = bad(&r, "section", n - 1, "a curves section without the clip section after it");
    rune__asset_curves_free(&r.pending, alloc);
    if (sec)
        rune__free(alloc, sec, n, sizeof *sec);
    if (!st && a->root_joint >= 0 && !a->rig)
        st = rune_fail(err, RUNE_E_PARSE, "%s: rig section: a root joint without joints", name);
    if (st) {
        a->clip_count = a->clip_cap; /* destroy frees what was compiled (NULL past it) */
        rune_asset_destroy(a);
        return st;
    }
    *out = a;
    return RUNE_OK;
}

rune_status rune_asset_load_file(const char *path, const rune_allocator *alloc, rune_asset **out, rune_error *err)
{
    RUNE_REQUIRE(err, path, "path");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    size_t size = 0;
    unsigned char *data = rune__read_file(path, RUNE_ASSET_MAX_BYTES, &size);
    if (!data)
        return rune_fail(err, RUNE_E_IO, "%s: cannot read the file (missing, unreadable, or over %zu bytes)", path,
                         RUNE_ASSET_MAX_BYTES);
    rune_status st = rune_asset_load_memory(data, size, path, alloc, out, err);
    free(data);
    return st;
}

void rune_asset_destroy(rune_asset *a)
{
    if (!a)
        return;
    rune_allocator al = a->alloc;
    for (size_t i = 0; a->clips && i < a->clip_count; i++)
        rune_clip_destroy(a->clips[i]);
    rune__free(&al, a->clips, a->clip_cap, sizeof *a->clips);
    rune_rig_destroy(a->rig);
    rune__arena_release(&a->arena);
    rune__free(&al, a, 1, sizeof *a);
}

const rune_joint_desc *rune_asset_joints(const rune_asset *a, size_t *count)
{
    *count = a->joint_count;
    return a->joints;
}

const rune_rig *rune_asset_rig(const rune_asset *a) { return a->rig; }
int32_t rune_asset_root_joint(const rune_asset *a) { return a->root_joint; }
size_t rune_asset_clip_count(const rune_asset *a) { return a->clip_count; }
const rune_clip *rune_asset_clip(const rune_asset *a, size_t i) { return i < a->clip_count ? a->clips[i] : NULL; }
const rune_mesh *rune_asset_meshes(const rune_asset *a, size_t *count)
{
    if (count)
        *count = a->mesh_count;
    return a->mesh_count ? a->meshes : NULL;
}

rune_clip *rune_asset_release_clip(rune_asset *a, size_t i)
{
    if (i >= a->clip_count)
        return NULL;
    rune_clip *c = a->clips[i];
    a->clips[i] = NULL;
    return c;
}

rune_status rune_asset_library(rune_asset *a, const rune_allocator *alloc, rune_library **out, rune_error *err)
{
    RUNE_REQUIRE(err, a, "asset");
    RUNE_REQUIRE(err, out, "out");
    rune_library *lib = NULL;
    rune_status st = rune_library_create(a->joints, a->joint_count, alloc, &lib, err);
    for (size_t i = 0; !st && i < a->clip_count; i++)
        if (a->clips[i])
            st = rune_library_adopt_clip(lib, rune_asset_release_clip(a, i), NULL, err);
    if (st) {
        if (!lib)
            return st;
        rune_library_destroy(lib);
        return st;
    }
    *out = lib;
    return RUNE_OK;
}

bool rune_asset_sniff(const void *data, size_t size)
{
    return data && size >= 8 && memcmp(data, ASSET_MAGIC, 8) == 0;
}
