/* Rig layouts: parent-first validation, name resolution, revisions and the
 * membership signature. */
#include "rig_internal.h"
#include "../base/alloc.h"
#include "../base/name_index.h"
#include "../base/names.h"
#include "../base/require.h"

#include <stdio.h>
#include <string.h>

struct rune_rig {
    rune_allocator alloc;
    size_t count, cap;
    char **part;
    int32_t *parent;
    rune_xform *frame;
    rune_vec3 *scale; /* rest scale per joint (1 1 1 unless given) */
    size_t scaled;    /* joints whose rest scale is not 1 1 1 */
    float *lanes; /* frames as LANE_CHANNELS channels of lane_cap floats (rig_frame_lanes) */
    size_t lane_cap;
    rig_frame_lanes view; /* the channels of `lanes`, kept with them */
    uint32_t topology_revision;
    uint32_t frame_revision;
    uint64_t signature;       /* joints and curves */
    uint64_t joint_signature; /* joints alone */
    char **curve;             /* float curve names, in the order added */
    size_t curve_count, curve_cap;
    /* lookups by name, so that building and resolving a rig of n joints
     * costs O(n) whatever its names */
    rune__name_index by_part;  /* part -> its first joint, how many share it */
    rune__name_index by_pair;  /* (parent part, part) -> the one joint */
    rune__name_index by_curve; /* curve name -> index */
};

static const char *parent_part(const rune_rig *rig, size_t j)
{
    return rig->parent[j] < 0 ? "" : rig->part[rig->parent[j]];
}

/* Resolves a parent reference among the existing joints; -1 for a root,
 * -2 when not found, -3 when ambiguous. */
static int32_t resolve_parent(const rune_rig *rig, const char *name)
{
    if (!name || !name[0])
        return -1;
    const char *slash = strchr(name, '/');
    uint32_t count;
    int32_t j = slash ? rune__name_index_find(&rig->by_pair, name, (size_t)(slash - name), slash + 1, &count)
                      : rune__name_index_find(&rig->by_part, NULL, 0, name, &count);
    return count == 0 ? -2 : (count > 1 ? -3 : j);
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void update_signature(rune_rig *rig)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t j = 0; j < rig->count; j++) {
        h = fnv(h, &rig->parent[j], sizeof rig->parent[j]);
        h = fnv(h, rig->part[j], strlen(rig->part[j]) + 1);
    }
    rig->joint_signature = h;
    for (size_t c = 0; c < rig->curve_count; c++)
        h = fnv(h, rig->curve[c], strlen(rig->curve[c]) + 1);
    rig->signature = h;
}

/* translation 3, rotation 4, scale 3, rotation matrix 9 (from channel
 * LANE_ROT) */
enum { LANE_ROT = 10, LANE_CHANNELS = 19 };

/* Joint j's frame into the channel arrays. */
static void set_lanes(rune_rig *rig, size_t j)
{
    const rune_xform *f = &rig->frame[j];
    float *l = rig->lanes;
    size_t c = rig->lane_cap;
    l[j] = f->t.x, l[c + j] = f->t.y, l[2 * c + j] = f->t.z;
    l[3 * c + j] = f->r.x, l[4 * c + j] = f->r.y, l[5 * c + j] = f->r.z, l[6 * c + j] = f->r.w;
    const rune_vec3 *s = &rig->scale[j];
    l[7 * c + j] = s->x, l[8 * c + j] = s->y, l[9 * c + j] = s->z;
    rune_mat4 m = rune_mat4_from_xform((rune_xform){{0, 0, 0}, f->r});
    for (size_t col = 0; col < 3; col++)
        for (size_t row = 0; row < 3; row++)
            l[(LANE_ROT + col * 3 + row) * c + j] = m.m[col * 4 + row];
    rig->view.scaled = rig->scaled > 0;
}

static bool unit_scale(rune_vec3 s) { return s.x == 1.0f && s.y == 1.0f && s.z == 1.0f; }

/* Grows the joint arrays together: all or nothing. */
static bool reserve(rune_rig *rig, size_t need)
{
    if (need <= rig->cap)
        return true;
    size_t cap = rig->cap ? rig->cap * 2 : 8;
    while (cap < need)
        cap *= 2;
    size_t lane_cap = (cap + RUNE_POSE_LANES - 1) / RUNE_POSE_LANES * RUNE_POSE_LANES;
    char **part = rune__calloc(&rig->alloc, cap, sizeof *part);
    int32_t *parent = rune__calloc(&rig->alloc, cap, sizeof *parent);
    rune_xform *frame = rune__calloc(&rig->alloc, cap, sizeof *frame);
    rune_vec3 *scale = rune__calloc(&rig->alloc, cap, sizeof *scale);
    float *lanes = rune__calloc(&rig->alloc, LANE_CHANNELS * lane_cap, sizeof *lanes);
    if (!part || !parent || !frame || !scale || !lanes) {
        rune__free(&rig->alloc, part, cap, sizeof *part);
        rune__free(&rig->alloc, parent, cap, sizeof *parent);
        rune__free(&rig->alloc, frame, cap, sizeof *frame);
        rune__free(&rig->alloc, scale, cap, sizeof *scale);
        rune__free(&rig->alloc, lanes, LANE_CHANNELS * lane_cap, sizeof *lanes);
        return false;
    }
    for (size_t i = 0; i < lane_cap; i++) /* padding lanes: identity */
        for (int ch = 6; ch < LANE_ROT + 9; ch++)
            lanes[ch * lane_cap + i] = ch < LANE_ROT || (ch - LANE_ROT) % 4 == 0 ? 1.0f : 0.0f;
    rune__free(&rig->alloc, rig->lanes, LANE_CHANNELS * rig->lane_cap, sizeof *rig->lanes);
    rig->lanes = lanes;
    rig->lane_cap = lane_cap;
    const float **const ch[10] = {&rig->view.tx, &rig->view.ty, &rig->view.tz, &rig->view.qx, &rig->view.qy,
                                  &rig->view.qz, &rig->view.qw, &rig->view.sx, &rig->view.sy, &rig->view.sz};
    for (size_t e = 0; e < 10; e++)
        *ch[e] = lanes + e * lane_cap;
    for (size_t e = 0; e < 9; e++)
        rig->view.rot[e] = lanes + (LANE_ROT + e) * lane_cap;
    if (rig->count) {
        memcpy(part, rig->part, rig->count * sizeof *part);
        memcpy(parent, rig->parent, rig->count * sizeof *parent);
        memcpy(frame, rig->frame, rig->count * sizeof *frame);
        memcpy(scale, rig->scale, rig->count * sizeof *scale);
    }
    rune__free(&rig->alloc, rig->part, rig->cap, sizeof *part);
    rune__free(&rig->alloc, rig->parent, rig->cap, sizeof *parent);
    rune__free(&rig->alloc, rig->frame, rig->cap, sizeof *frame);
    rune__free(&rig->alloc, rig->scale, rig->cap, sizeof *scale);
    rig->part = part;
    rig->parent = parent;
    rig->frame = frame;
    rig->scale = scale;
    rig->cap = cap;
    for (size_t j = 0; j < rig->count; j++)
        set_lanes(rig, j);
    return true;
}

static rune_status check_joint(const rune_rig *rig, const rune_joint_desc *d, size_t index,
                               int32_t *parent_out, rune_error *err)
{
    if (!d->part || !d->part[0])
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu].part: empty name", index);
    if (strchr(d->part, '/'))
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu].part: \"%s\" contains '/'", index, d->part);
    const rune_xform f = d->frame;
    if (!rune_in_range(f.t.x) || !rune_in_range(f.t.y) || !rune_in_range(f.t.z) || !isfinite(f.r.x) ||
        !isfinite(f.r.y) || !isfinite(f.r.z) || !isfinite(f.r.w))
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu].frame: not finite, or a translation beyond %g", index,
                         (double)RUNE_MAX_MAGNITUDE);
    if (!(rune_q_dot(f.r, f.r) > 1e-12f))
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu].frame.r: zero-length quaternion", index);
    if (d->scaled && (!rune_in_range(d->scale.x) || !rune_in_range(d->scale.y) || !rune_in_range(d->scale.z)))
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu].scale: not finite, or beyond %g", index,
                         (double)RUNE_MAX_MAGNITUDE);
    int32_t p = resolve_parent(rig, d->parent);
    if (p == -2)
        return rune_fail(err, RUNE_E_INVALID,
                         "joints[%zu].parent: \"%s\" is not an earlier joint (joints are listed parent-first)",
                         index, d->parent);
    if (p == -3)
        return rune_fail(err, RUNE_E_INVALID,
                         "joints[%zu].parent: \"%s\" is ambiguous; write it as \"grandparent/part\"", index,
                         d->parent);
    const char *pp = p < 0 ? "" : rig->part[p];
    if (rune__name_index_find(&rig->by_pair, pp, strlen(pp), d->part, NULL) >= 0)
        return rune_fail(err, RUNE_E_INVALID, "joints[%zu]: duplicate joint \"%s%s%s\"", index, pp,
                         pp[0] ? "/" : "", d->part);
    *parent_out = p;
    return RUNE_OK;
}

static rune_status append(rune_rig *rig, const rune_joint_desc *d, rune_error *err)
{
    int32_t p = -1;
    size_t index = rig->count;
    rune_status st = check_joint(rig, d, index, &p, err);
    if (st)
        return st;
    char *name = rune__strdup(&rig->alloc, d->part);
    const char *pp = p < 0 ? "" : rig->part[p];
    size_t len = strlen(d->part) + 1;
    /* room made first, so that the joint goes into both indexes or none */
    if (!name || !reserve(rig, index + 1) || !rune__name_index_reserve(&rig->by_part, 1, len) ||
        !rune__name_index_reserve(&rig->by_pair, 1, strlen(pp) + len)) {
        rune__strfree(&rig->alloc, name);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory adding joint \"%s\"", d->part);
    }
    rune__name_index_add(&rig->by_part, NULL, 0, name, (int32_t)index);
    rune__name_index_add(&rig->by_pair, pp, strlen(pp), name, (int32_t)index);
    rig->part[index] = name;
    rig->parent[index] = p;
    rig->frame[index].t = d->frame.t;
    rig->frame[index].r = rune_q_unit(d->frame.r);
    rig->scale[index] = d->scaled ? d->scale : rune_v3(1.0f, 1.0f, 1.0f);
    rig->scaled += !unit_scale(rig->scale[index]);
    set_lanes(rig, index);
    rig->count++;
    return RUNE_OK;
}

rune_status rune_rig_create(const rune_joint_desc *joints, size_t count, const rune_allocator *alloc,
                            rune_rig **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    RUNE_REQUIRE_ARRAY(err, joints, "joints", count, "count");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_rig *rig = rune__calloc(alloc, 1, sizeof *rig);
    if (!rig)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating rig");
    rig->alloc = *alloc;
    rune__name_index_init(&rig->by_part, alloc);
    rune__name_index_init(&rig->by_pair, alloc);
    rune__name_index_init(&rig->by_curve, alloc);
    if (!reserve(rig, count ? count : 1)) {
        rune_rig_destroy(rig);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating rig");
    }
    for (size_t i = 0; i < count; i++) {
        rune_status st = append(rig, &joints[i], err);
        if (st) {
            rune_rig_destroy(rig);
            return st;
        }
    }
    update_signature(rig);
    rig->topology_revision = 1;
    *out = rig;
    return RUNE_OK;
}

void rune_rig_destroy(rune_rig *rig)
{
    if (!rig)
        return;
    rune_allocator a = rig->alloc;
    for (size_t j = 0; j < rig->count; j++)
        rune__strfree(&a, rig->part[j]);
    rune__free(&a, rig->part, rig->cap, sizeof *rig->part);
    for (size_t c = 0; c < rig->curve_count; c++)
        rune__strfree(&a, rig->curve[c]);
    rune__free(&a, rig->curve, rig->curve_cap, sizeof *rig->curve);
    rune__free(&a, rig->parent, rig->cap, sizeof *rig->parent);
    rune__free(&a, rig->frame, rig->cap, sizeof *rig->frame);
    rune__free(&a, rig->scale, rig->cap, sizeof *rig->scale);
    rune__free(&a, rig->lanes, LANE_CHANNELS * rig->lane_cap, sizeof *rig->lanes);
    rune__name_index_release(&rig->by_part);
    rune__name_index_release(&rig->by_pair);
    rune__name_index_release(&rig->by_curve);
    rune__free(&a, rig, 1, sizeof *rig);
}

rune_status rune_rig_add_joint(rune_rig *rig, const rune_joint_desc *joint, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, joint, "joint");
    rune_status st = append(rig, joint, err);
    if (st)
        return st;
    update_signature(rig);
    rig->topology_revision++;
    return RUNE_OK;
}

size_t rune_rig_joint_count(const rune_rig *rig) { return rig->count; }
int32_t rune_rig_parent(const rune_rig *rig, size_t j) { return rig->parent[j]; }
const char *rune_rig_part(const rune_rig *rig, size_t j) { return rig->part[j]; }
const char *rune_rig_parent_part(const rune_rig *rig, size_t j) { return parent_part(rig, j); }
rune_xform rune_rig_frame(const rune_rig *rig, size_t j) { return rig->frame[j]; }
const int32_t *rune_rig_parents(const rune_rig *rig) { return rig->parent; }
const rune_xform *rune_rig_frames(const rune_rig *rig) { return rig->frame; }
uint32_t rune_rig_topology_revision(const rune_rig *rig) { return rig->topology_revision; }
uint32_t rune_rig_frame_revision(const rune_rig *rig) { return rig->frame_revision; }
uint64_t rune_rig_layout_signature(const rune_rig *rig) { return rig->signature; }
uint64_t rune__rig_joint_signature(const rune_rig *rig) { return rig->joint_signature; }

size_t rune_rig_curve_count(const rune_rig *rig) { return rig->curve_count; }
const char *rune_rig_curve_name(const rune_rig *rig, size_t curve)
{
    return curve < rig->curve_count ? rig->curve[curve] : NULL;
}

int32_t rune_rig_find_curve(const rune_rig *rig, const char *name)
{
    return name ? rune__name_index_find(&rig->by_curve, NULL, 0, name, NULL) : -1;
}

rune_status rune_rig_add_curve(rune_rig *rig, const char *name, uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    int32_t have = rune_rig_find_curve(rig, name);
    if (have >= 0) {
        if (index)
            *index = (uint32_t)have;
        return RUNE_OK;
    }
    if (!name || !name[0])
        return rune_fail(err, RUNE_E_INVALID, "curve: empty name");
    char *copy = rune__strdup(&rig->alloc, name);
    if (!copy ||
        !rune__grow(&rig->alloc, (void **)&rig->curve, &rig->curve_cap, rig->curve_count + 1, sizeof *rig->curve) ||
        !rune__name_index_add(&rig->by_curve, NULL, 0, copy, (int32_t)rig->curve_count)) {
        rune__strfree(&rig->alloc, copy);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory adding curve \"%s\"", name);
    }
    rig->curve[rig->curve_count] = copy;
    if (index)
        *index = (uint32_t)rig->curve_count;
    rig->curve_count++;
    /* the signature hashes the curves after the joints: one more name
     * continues it (update_signature would hash every name again) */
    rig->signature = fnv(rig->signature, copy, strlen(copy) + 1);
    rig->topology_revision++;
    return RUNE_OK;
}

void rune_rig_set_frame(rune_rig *rig, size_t j, rune_xform frame)
{
    rig->frame[j].t = frame.t;
    rig->frame[j].r = rune_q_unit(frame.r);
    set_lanes(rig, j);
    rig->frame_revision++;
}

rune_vec3 rune_rig_frame_scale(const rune_rig *rig, size_t j) { return rig->scale[j]; }
bool rune_rig_scaled(const rune_rig *rig) { return rig->scaled > 0; }

void rune_rig_set_frame_scale(rune_rig *rig, size_t j, rune_vec3 scale)
{
    if (!rune_in_range(scale.x) || !rune_in_range(scale.y) || !rune_in_range(scale.z))
        return;
    rig->scaled -= !unit_scale(rig->scale[j]);
    rig->scale[j] = scale;
    rig->scaled += !unit_scale(scale);
    set_lanes(rig, j);
    rig->frame_revision++;
}

const char *rune_rig_joint_name(const rune_rig *rig, size_t j, char *buf, size_t size)
{
    const char *pp = parent_part(rig, j);
    snprintf(buf, size, "%s%s%s", pp, pp[0] ? "/" : "", rig->part[j]);
    return buf;
}

rune_status rune__rig_find_in(const rune_rig *rig, const char *name, const char *rig_words, int32_t *joint,
                              rune_error *err)
{
    int32_t r = name ? resolve_parent(rig, name) : -2;
    *joint = r >= 0 ? r : -1;
    if (r >= 0)
        return RUNE_OK;
    char a[RUNE_NAME_SUGGEST_MAX], b[RUNE_NAME_SUGGEST_MAX], hint[RUNE_NAME_SUGGEST_MAX + 32];
    if (r == -3) { /* the first two of that part (a scan: the error path) */
        const char *slash = strchr(name, '/'), *part = slash ? slash + 1 : name;
        size_t first = (size_t)rune__name_index_find(&rig->by_part, NULL, 0, part, NULL), second = first + 1;
        while (strcmp(rig->part[second], part) != 0)
            second++;
        return rune_fail(err, RUNE_E_INVALID,
                         "\"%s\" is ambiguous in %s: it matches %s and %s (name it as parent/part)", name,
                         rig_words, rune_rig_joint_name(rig, first, a, sizeof a), rune_rig_joint_name(rig, second, b, sizeof b));
    }
    rune__name_match m;
    rune__match_init(&m, name);
    for (size_t j = 0; j < rig->count; j++)
        rune__match_offer(&m, rune_rig_joint_name(rig, j, a, sizeof a));
    return rune_fail(err, RUNE_E_NOT_FOUND, "no joint \"%s\" in %s%s", name ? name : "", rig_words,
                     rune__match_hint(&m, hint, sizeof hint));
}

rune_status rune_rig_find_joint(const rune_rig *rig, const char *name, int32_t *joint, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, joint, "joint");
    return rune__rig_find_in(rig, name, "the rig", joint, err);
}

int32_t rune__rig_find_pair(const rune_rig *rig, const char *parent_part, const char *part)
{
    return rune__name_index_find(&rig->by_pair, parent_part, strlen(parent_part), part, NULL);
}

int32_t rune__rig_find_part(const rune_rig *rig, const char *part, uint32_t *count)
{
    return rune__name_index_find(&rig->by_part, NULL, 0, part, count);
}

int32_t rune_rig_find(const rune_rig *rig, const char *name)
{
    int32_t r = resolve_parent(rig, name);
    return r >= 0 ? r : -1;
}

/* The view reserve() points at the lanes and set_lanes() keeps scaled:
 * nothing to build a call (the matrices read it every call). */
const rig_frame_lanes *rune__rig_frame_lanes(const rune_rig *rig) { return &rig->view; }
