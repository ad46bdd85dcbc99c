/* Retarget mappings (rune/rig.h): which source joint each target joint
 * takes its motion from -- the explicit pairs, then names (exact, part,
 * normalized) -- and what retargeting needs of both rigs at rest, read
 * once: rest model rotations, the hips' travel ratio, the top joint's
 * parent frame. Load-time code. */
#include "retarget_internal.h"
#include "rig_internal.h"
#include "../base/alloc.h"
#include "../base/name_index.h"
#include "../base/require.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint32_t next_id = 1;

/* A copy of a rig (joint descriptions rebuilt from it: parents named
 * "grandparent/parent", unique as (parent, part) pairs are). */
static rune_status copy_rig(const rune_rig *rig, const rune_allocator *alloc, rune_rig **out, rune_error *err)
{
    size_t n = rune_rig_joint_count(rig);
    rune_joint_desc *d = rune__calloc(alloc, n ? n : 1, sizeof *d);
    char (*names)[256] = rune__calloc(alloc, n ? n : 1, sizeof *names);
    rune_status st = d && names ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory copying a rig");
    for (size_t j = 0; !st && j < n; j++) {
        int32_t p = rune_rig_parent(rig, j);
        if (p >= 0)
            rune_rig_joint_name(rig, (size_t)p, names[j], sizeof names[j]);
        rune_vec3 s = rune_rig_frame_scale(rig, j);
        d[j] = (rune_joint_desc){rune_rig_part(rig, j), p >= 0 ? names[j] : NULL, rune_rig_frame(rig, j), s,
                                 s.x != 1.0f || s.y != 1.0f || s.z != 1.0f};
    }
    if (!st)
        st = rune_rig_create(d, n, alloc, out, err);
    rune__free(alloc, d, n ? n : 1, sizeof *d);
    rune__free(alloc, names, n ? n : 1, sizeof *names);
    return st;
}

void rune_retarget_destroy(rune_retarget *r)
{
    if (!r)
        return;
    rune_allocator a = r->alloc;
    rune_rig_destroy(r->source);
    rune__free(&a, r->source_of, r->nt ? r->nt : 1, sizeof *r->source_of);
    rune__free(&a, r->how, r->nt ? r->nt : 1, sizeof *r->how);
    rune__free(&a, r->offset, r->nt ? r->nt : 1, sizeof *r->offset);
    rune__free(&a, r->target_of, r->ns ? r->ns : 1, sizeof *r->target_of);
    rune__free(&a, r->hum.body, r->nt ? r->nt : 1, 1);
    rune__free(&a, r, 1, sizeof *r);
}

static void map_joint(rune_retarget *r, int32_t s, size_t t, rune_retarget_match how)
{
    r->source_of[t] = s;
    r->target_of[s] = (int32_t)t;
    r->how[t] = (uint8_t)how;
    r->mapped++;
}

/* Why map[i]'s name finds no joint of the source or target rig (`which`). */
static rune_status unresolved(const rune_rig *rig, const char *name, size_t i, const char *which, rune_error *err)
{
    int32_t j;
    rune__rig_find_in(rig, name, which, &j, err);
    rune_error_prefix(err, "map[%zu]: ", i);
    return err ? (err->status = RUNE_E_INVALID) : RUNE_E_INVALID; /* a bad map, whichever the reason */
}

/* The explicit pairs; a source joint a pair maps to NULL is marked with
 * target_of = -2 (kept out of name matching). */
static rune_status map_explicit(rune_retarget *r, const rune_rig *src, const rune_rig *dst,
                                const rune_retarget_pair *map, size_t count, rune_error *err)
{
    for (size_t i = 0; i < count; i++) {
        const char *sn = map[i].source ? map[i].source : "", *tn = map[i].target;
        int32_t s = rune_rig_find(src, sn);
        if (s < 0)
            return unresolved(src, sn, i, "the source rig", err);
        if (r->target_of[s] != -1)
            return rune_fail(err, RUNE_E_INVALID, "map[%zu]: source joint \"%s\" is mapped twice", i, sn);
        if (!tn) {
            r->target_of[s] = -2;
            continue;
        }
        int32_t t = rune_rig_find(dst, tn);
        if (t < 0)
            return unresolved(dst, tn, i, "the target rig", err);
        if (r->source_of[t] >= 0)
            return rune_fail(err, RUNE_E_INVALID, "map[%zu]: target joint \"%s\" is mapped twice", i, tn);
        map_joint(r, s, (size_t)t, RUNE_RETARGET_EXPLICIT);
    }
    return RUNE_OK;
}

/* A joint's name in one of the forms names are matched in: full
 * ("parent/part"), part alone, normalized (rune_retarget_normalize). */
typedef const char *(*name_key)(const rune_rig *rig, size_t j, char *buf, size_t size);

static const char *full_name(const rune_rig *rig, size_t j, char *buf, size_t size)
{
    return rune_rig_joint_name(rig, j, buf, size);
}
static const char *part_name(const rune_rig *rig, size_t j, char *buf, size_t size)
{
    snprintf(buf, size, "%s", rune_rig_part(rig, j));
    return buf;
}
static const char *normal_name(const rune_rig *rig, size_t j, char *buf, size_t size)
{
    return rune_retarget_normalize(rune_rig_part(rig, j), buf, size);
}

/* Every joint of the rig under its name in the form `key` gives. */
static bool index_names(const rune_rig *rig, name_key key, rune__name_index *x)
{
    char buf[256];
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++)
        if (!rune__name_index_add(x, NULL, 0, key(rig, j, buf, sizeof buf), (int32_t)j))
            return false;
    return true;
}

/* Pairs each free target joint with the free source joint of its name
 * (in the form `key` gives), where each rig has exactly one so named. */
static rune_status map_names(rune_retarget *r, const rune_rig *src, const rune_rig *dst, name_key key,
                             rune_retarget_match how, rune_error *err)
{
    rune__name_index in_src, in_dst;
    rune__name_index_init(&in_src, &r->alloc);
    rune__name_index_init(&in_dst, &r->alloc);
    bool fine = index_names(src, key, &in_src) && index_names(dst, key, &in_dst);
    char name[256];
    for (size_t t = 0; fine && t < r->nt; t++) {
        if (r->source_of[t] >= 0)
            continue;
        key(dst, t, name, sizeof name);
        uint32_t in_target, in_source;
        rune__name_index_find(&in_dst, NULL, 0, name, &in_target);
        int32_t s = rune__name_index_find(&in_src, NULL, 0, name, &in_source);
        if (name[0] && in_target == 1 && in_source == 1 && r->target_of[s] == -1)
            map_joint(r, s, t, how);
    }
    rune__name_index_release(&in_src);
    rune__name_index_release(&in_dst);
    return fine ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
}

/* Rest model rotations and positions of a rig. */
static rune_status rest_of(const rune_rig *rig, const rune_allocator *alloc, rune_quat **rot, rune_mat4 **mats,
                           rune_error *err)
{
    size_t n = rune_rig_joint_count(rig);
    *rot = rune__calloc(alloc, n, sizeof **rot);
    *mats = rune__calloc(alloc, n, sizeof **mats);
    rune_pose pose;
    if (!*rot || !*mats || rune_pose_init(&pose, n, alloc, err) != RUNE_OK) {
        rune__free(alloc, *rot, n, sizeof **rot);
        rune__free(alloc, *mats, n, sizeof **mats);
        *rot = NULL, *mats = NULL;
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    }
    rune_rig_model_matrices(rig, &pose, *mats);
    rune_pose_release(&pose);
    for (size_t j = 0; j < n; j++) {
        int32_t p = rune_rig_parent(rig, j);
        rune_quat f = rune_rig_frame(rig, j).r;
        (*rot)[j] = rune_q_normalize(p >= 0 ? rune_q_mul((*rot)[p], f) : f);
    }
    return RUNE_OK;
}

/* A joint's height at rest above the rig's lowest joint, along the axis
 * the rest pose spans most (Y for a standing Y-up rig, Z for a Z-up one). */
static float hip_height(const rune_mat4 *m, size_t n, size_t joint)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; j < n; j++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fminf(lo[c], m[j].m[12 + c]);
            hi[c] = fmaxf(hi[c], m[j].m[12 + c]);
        }
    int up = 1; /* ties keep Y */
    for (int c = 0; c < 3; c++)
        if (hi[c] - lo[c] > 1.000001f * (hi[up] - lo[up]))
            up = c;
    return m[joint].m[12 + up] - lo[up];
}

/* Column-major 3x3 inverse (zero when singular). */
static void inverse3(const float *a, float *out)
{
    double m[9];
    for (int i = 0; i < 9; i++)
        m[i] = a[i];
    /* m[c * 3 + r]: element (r, c) */
#define M(r, c) m[(c) * 3 + (r)]
    double c00 = M(1, 1) * M(2, 2) - M(1, 2) * M(2, 1), c01 = M(1, 2) * M(2, 0) - M(1, 0) * M(2, 2),
           c02 = M(1, 0) * M(2, 1) - M(1, 1) * M(2, 0);
    double det = M(0, 0) * c00 + M(0, 1) * c01 + M(0, 2) * c02;
    double k = fabs(det) > 1e-30 ? 1.0 / det : 0.0;
    double inv[9] = {c00, c01, c02,
                     M(0, 2) * M(2, 1) - M(0, 1) * M(2, 2), M(0, 0) * M(2, 2) - M(0, 2) * M(2, 0),
                     M(0, 1) * M(2, 0) - M(0, 0) * M(2, 1),
                     M(0, 1) * M(1, 2) - M(0, 2) * M(1, 1), M(0, 2) * M(1, 0) - M(0, 0) * M(1, 2),
                     M(0, 0) * M(1, 1) - M(0, 1) * M(1, 0)};
#undef M
    /* inv[r * 3 + c] is the cofactor (r, c); the inverse's (r, c), at
     * out[c * 3 + r], is cofactor (c, r) / det: the same index */
    for (int i = 0; i < 9; i++)
        out[i] = (float)(inv[i] * k);
}

/* The top joint's rest data: the travel ratio (target hips height over
 * the source's), both joints' rest positions, its parent's frame. */
static rune_status top_rest(rune_retarget *r, const rune_rig *src, const rune_rig *dst, const rune_mat4 *sm,
                            const rune_mat4 *tm, const retarget_stance *stance, rune_error *err)
{
    size_t t = (size_t)r->top, s = (size_t)r->source_of[t];
    float hs, ht, rs = rune_rig_height(src), rt = rune_rig_height(dst);
    if (stance) { /* humanoids: the hips over the ankles in the retarget poses (the legs) */
        hs = stance[0].legs, ht = stance[1].legs;
    } else {
        hs = hip_height(sm, r->ns, s), ht = hip_height(tm, r->nt, t);
    }
    if (hs > 1e-6f * rs && ht > 1e-6f * rt)
        r->scale = ht / hs;
    else if (rs > 0.0f && rt > 0.0f)
        r->scale = rt / rs;
    /* travel is scaled by it: a ratio past 1e6 (rigs of 1e-30 and of 1 m)
     * would carry keys past every bound, blamed on keys never written */
    if (!(r->scale >= 1e-6f && r->scale <= 1e6f))
        return rune_fail(err, RUNE_E_INVALID,
                         "retarget: the target's hips are %g times as high as the source's (%g over %g); the ratio "
                         "must lie within 1e-6..1e6",
                         (double)r->scale, (double)ht, (double)hs);
    r->source_rest = rune_v3(sm[s].m[12], sm[s].m[13], sm[s].m[14]);
    r->target_rest = rune_v3(tm[t].m[12], tm[t].m[13], tm[t].m[14]);
    int32_t p = rune_rig_parent(dst, t);
    float lin[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    r->parent_origin = rune_v3(0, 0, 0);
    if (p >= 0) {
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                lin[c * 3 + k] = tm[p].m[c * 4 + k];
        r->parent_origin = rune_v3(tm[p].m[12], tm[p].m[13], tm[p].m[14]);
    }
    inverse3(lin, r->parent_inverse);
    return RUNE_OK;
}

/* The top joint: the target's hips when both rigs are humanoids, else the
 * mapped joint nearest the root (depths in one pass, parents first), the
 * first of equals. */
static rune_status find_top(rune_retarget *r, const rune_rig *dst, rune_error *err)
{
    if (r->humanoid && r->hum.target.bone[HB_HIPS] >= 0 && r->source_of[r->hum.target.bone[HB_HIPS]] >= 0) {
        r->top = r->hum.target.bone[HB_HIPS];
        return RUNE_OK;
    }
    size_t *depth = rune__calloc(&r->alloc, r->nt ? r->nt : 1, sizeof *depth);
    if (!depth)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    size_t best = SIZE_MAX;
    for (size_t t = 0; t < r->nt; t++) {
        int32_t p = rune_rig_parent(dst, t);
        depth[t] = p >= 0 ? depth[p] + 1 : 0;
        if (r->source_of[t] >= 0 && depth[t] < best)
            best = depth[t], r->top = (int32_t)t;
    }
    rune__free(&r->alloc, depth, r->nt ? r->nt : 1, sizeof *depth);
    return RUNE_OK;
}

/* A rotation whose matrix has the columns left, up, forward. */
static rune_quat frame_rotation(rune_vec3 l, rune_vec3 u, rune_vec3 f)
{
    float m00 = l.x, m10 = l.y, m20 = l.z, m01 = u.x, m11 = u.y, m21 = u.z, m02 = f.x, m12 = f.y, m22 = f.z;
    float tr = m00 + m11 + m22;
    rune_quat q;
    if (tr > 0.0f) {
        float k = 0.5f / sqrtf(tr + 1.0f);
        q = rune_q((m21 - m12) * k, (m02 - m20) * k, (m10 - m01) * k, 0.25f / k);
    } else if (m00 > m11 && m00 > m22) {
        float k = 2.0f * sqrtf(1.0f + m00 - m11 - m22);
        q = rune_q(0.25f * k, (m01 + m10) / k, (m02 + m20) / k, (m21 - m12) / k);
    } else if (m11 > m22) {
        float k = 2.0f * sqrtf(1.0f + m11 - m00 - m22);
        q = rune_q((m01 + m10) / k, 0.25f * k, (m12 + m21) / k, (m02 - m20) / k);
    } else {
        float k = 2.0f * sqrtf(1.0f + m22 - m00 - m11);
        q = rune_q((m02 + m20) / k, (m12 + m21) / k, 0.25f * k, (m10 - m01) / k);
    }
    return rune_q_normalize(q);
}

/* The target joints that must stay above its floor: all but the legs
 * (the feet are held there by IK) and bones longer than half the legs,
 * with what hangs from them (end bones exporters leave metres long). */
static void body_joints(const rune_rig *dst, const rune_mat4 *rest, const rune_humanoid *h, float legs,
                        uint8_t *body)
{
    for (size_t j = 0; j < rune_rig_joint_count(dst); j++) {
        int32_t p = rune_rig_parent(dst, j);
        bool leg = (int32_t)j == h->bone[HB_THIGH_L] || (int32_t)j == h->bone[HB_THIGH_R];
        float len = 0.0f;
        if (p >= 0) {
            rune_vec3 d = rune_v3(rest[j].m[12] - rest[p].m[12], rest[j].m[13] - rest[p].m[13],
                                  rest[j].m[14] - rest[p].m[14]);
            len = sqrtf(rune_v3_dot(d, d));
        }
        body[j] = !leg && (p < 0 || body[p]) && len <= 0.5f * legs;
    }
}

/* Both rigs in their retarget poses: the offsets from them, the turn
 * between the rigs' frames, floors and heights. */
static rune_status prepare_humanoid(rune_retarget *r, const rune_rig *src, const rune_rig *dst, const rune_mat4 *tm,
                                    retarget_stance stance[2], rune_error *err)
{
    rune_status st = rune__retarget_pose(src, &r->hum.source, &r->alloc, &stance[0], err);
    if (!st)
        st = rune__retarget_pose(dst, &r->hum.target, &r->alloc, &stance[1], err);
    if (st)
        return st;
    retarget_humanoid *h = &r->hum;
    const rune_humanoid *hs = &h->source, *ht = &h->target;
    h->change = rune_q_normalize(rune_q_mul(frame_rotation(ht->left, ht->up, ht->forward),
                                            rune_q_conjugate(frame_rotation(hs->left, hs->up, hs->forward))));
    rune_quat back = rune_q_conjugate(h->change);
    for (size_t t = 0; t < r->nt; t++) {
        int32_t s = r->source_of[t];
        r->offset[t] = s >= 0 ? rune_q_normalize(rune_q_mul(rune_q_conjugate(stance[0].rot[s]),
                                                            rune_q_mul(back, stance[1].rot[t])))
                              : rune_q_identity();
    }
    h->source_level = stance[0].level;
    h->target_level = stance[1].level, h->target_floor = stance[1].floor;
    h->source_legs = stance[0].legs;
    h->target_standing = stance[1].standing;
    if (!(h->body = rune__calloc(&r->alloc, r->nt ? r->nt : 1, 1)))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    body_joints(dst, tm, ht, stance[1].legs, h->body);
    h->target_foot_reach = stance[1].foot_reach;
    h->calibrate = !stance[0].standing && stance[1].standing;
    h->source_hips0 = stance[0].rest_hips, h->target_hips0 = stance[1].rest_hips;
    h->target_hips_pose = stance[1].rot[ht->bone[HB_HIPS]];
    return RUNE_OK;
}

/* Rest data: the offsets, the top joint, the travel ratio. */
static rune_status prepare(rune_retarget *r, const rune_rig *src, const rune_rig *dst, const rune_quat *sr,
                           const rune_mat4 *sm, const rune_quat *tr, const rune_mat4 *tm, rune_error *err)
{
    const rune_allocator *a = &r->alloc;
    retarget_stance stance[2] = {{0}};
    rune_status st = RUNE_OK;
    if (r->humanoid) {
        stance[0].rot = rune__calloc(a, r->ns ? r->ns : 1, sizeof *stance[0].rot);
        stance[1].rot = rune__calloc(a, r->nt ? r->nt : 1, sizeof *stance[1].rot);
        st = stance[0].rot && stance[1].rot ? prepare_humanoid(r, src, dst, tm, stance, err)
                                            : rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    } else {
        for (size_t t = 0; t < r->nt; t++) {
            int32_t s = r->source_of[t];
            r->offset[t] = s >= 0 ? rune_q_normalize(rune_q_mul(rune_q_conjugate(sr[s]), tr[t])) : rune_q_identity();
        }
    }
    if (!st)
        st = find_top(r, dst, err);
    r->scale = 1.0f;
    if (!st && r->top >= 0)
        st = top_rest(r, src, dst, sm, tm, r->humanoid ? stance : NULL, err);
    rune__free(a, stance[0].rot, r->ns ? r->ns : 1, sizeof *stance[0].rot);
    rune__free(a, stance[1].rot, r->nt ? r->nt : 1, sizeof *stance[1].rot);
    return st;
}

/* Profile bone to profile bone, where both rigs have it and neither joint
 * is mapped yet (the explicit pairs come first); the spine's joints in
 * order, as many as both have. */
static void map_humanoid(rune_retarget *r)
{
    const rune_humanoid *hs = &r->hum.source, *ht = &r->hum.target;
    for (int b = 0; b < HB_COUNT; b++) {
        int32_t s = hs->bone[b], t = ht->bone[b];
        if (s >= 0 && t >= 0 && r->target_of[s] == -1 && r->source_of[t] < 0)
            map_joint(r, s, (size_t)t, RUNE_RETARGET_HUMANOID);
    }
    for (size_t i = 1; i < hs->spine_count && i < ht->spine_count; i++) {
        int32_t s = hs->spine[i], t = ht->spine[i];
        if (r->target_of[s] == -1 && r->source_of[t] < 0)
            map_joint(r, s, (size_t)t, RUNE_RETARGET_HUMANOID);
    }
}

/* Both rigs' profiles, when both are humanoids. */
static rune_status find_humanoids(rune_retarget *r, const rune_rig *src, const rune_rig *dst, const rune_mat4 *sm,
                                  const rune_mat4 *tm, rune_error *err)
{
    bool source, target;
    if (rune__humanoid_find(src, sm, &r->alloc, &r->hum.source, &source) ||
        rune__humanoid_find(dst, tm, &r->alloc, &r->hum.target, &target))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    r->humanoid = source && target;
    if (r->humanoid)
        map_humanoid(r);
    return RUNE_OK;
}

rune_status rune_retarget_create(const rune_retarget_desc *desc, const rune_allocator *alloc, rune_retarget **out,
                                 rune_error *err)
{
    RUNE_REQUIRE(err, desc, "desc");
    RUNE_REQUIRE(err, desc->source, "desc->source");
    RUNE_REQUIRE(err, desc->target, "desc->target");
    RUNE_REQUIRE(err, out, "out");
    RUNE_REQUIRE_ARRAY(err, desc->map, "desc->map", desc->map_count, "desc->map_count");
    const rune_rig *src = desc->source, *dst = desc->target;
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_retarget *r = rune__calloc(alloc, 1, sizeof *r);
    if (!r)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    r->alloc = *alloc;
    r->ns = rune_rig_joint_count(src);
    r->nt = rune_rig_joint_count(dst);
    r->target_layout = rune__rig_joint_signature(dst);
    r->top = -1;
    r->hum.foot_ik = !desc->no_foot_ik;
    r->source_of = rune__calloc(alloc, r->nt ? r->nt : 1, sizeof *r->source_of);
    r->how = rune__calloc(alloc, r->nt ? r->nt : 1, sizeof *r->how);
    r->offset = rune__calloc(alloc, r->nt ? r->nt : 1, sizeof *r->offset);
    r->target_of = rune__calloc(alloc, r->ns ? r->ns : 1, sizeof *r->target_of);
    rune_quat *sr = NULL, *tr = NULL;
    rune_mat4 *sm = NULL, *tm = NULL;
    rune_status st = r->source_of && r->how && r->offset && r->target_of
                         ? RUNE_OK
                         : rune_fail(err, RUNE_E_NOMEM, "out of memory creating a retarget mapping");
    for (size_t t = 0; !st && t < r->nt; t++)
        r->source_of[t] = -1;
    for (size_t s = 0; !st && s < r->ns; s++)
        r->target_of[s] = -1;
    if (!st)
        st = map_explicit(r, src, dst, desc->map, desc->map ? desc->map_count : 0, err);
    if (!st && (rest_of(src, alloc, &sr, &sm, err) || rest_of(dst, alloc, &tr, &tm, err)))
        st = RUNE_E_NOMEM;
    if (!st)
        st = find_humanoids(r, src, dst, sm, tm, err);
    if (!st) {
        st = map_names(r, src, dst, full_name, RUNE_RETARGET_EXACT, err);
        if (!st)
            st = map_names(r, src, dst, part_name, RUNE_RETARGET_PART, err);
        if (!st)
            st = map_names(r, src, dst, normal_name, RUNE_RETARGET_NORMALIZED, err);
        for (size_t s = 0; s < r->ns; s++)
            if (r->target_of[s] == -2) /* kept out: unused */
                r->target_of[s] = -1;
        if (!st && !r->mapped)
            st = rune_fail(err, RUNE_E_INVALID, "retarget: no joint of the target rig maps to the source rig");
    }
    if (!st)
        st = prepare(r, src, dst, sr, sm, tr, tm, err);
    if (!st)
        st = copy_rig(src, alloc, &r->source, err);
    rune__free(alloc, sr, r->ns, sizeof *sr), rune__free(alloc, sm, r->ns, sizeof *sm);
    rune__free(alloc, tr, r->nt, sizeof *tr), rune__free(alloc, tm, r->nt, sizeof *tm);
    if (st) {
        rune_retarget_destroy(r);
        return st;
    }
    r->id = atomic_fetch_add(&next_id, 1);
    *out = r;
    return RUNE_OK;
}

rune_vec3 rune__retarget_point(const rune_retarget *rt, rune_vec3 p, float level)
{
    const retarget_humanoid *h = &rt->hum;
    rune_vec3 us = h->source.up, ut = h->target.up;
    rune_vec3 flat = rune_v3_sub(rune_v3_sub(p, rune_v3_scale(us, rune_v3_dot(p, us))),
                                 rune_v3_sub(h->source_hips0, rune_v3_scale(us, rune_v3_dot(h->source_hips0, us))));
    rune_vec3 base = rune_v3_sub(h->target_hips0, rune_v3_scale(ut, rune_v3_dot(h->target_hips0, ut)));
    float up = h->target_level + rt->scale * (rune_v3_dot(p, us) - level);
    return rune_v3_add(rune_v3_add(base, rune_v3_scale(rune_q_rotate(h->change, flat), rt->scale)),
                       rune_v3_scale(ut, up));
}

static rune_vec3 apply3(const float a[9], rune_vec3 v)
{
    return rune_v3(a[0] * v.x + a[3] * v.y + a[6] * v.z, a[1] * v.x + a[4] * v.y + a[7] * v.z,
                   a[2] * v.x + a[5] * v.y + a[8] * v.z);
}

rune_vec3 rune__retarget_top(const rune_retarget *rt, const rune_rig *target, const rune_mat4 *source_mats,
                             float level, float lift)
{
    size_t t = (size_t)rt->top;
    const rune_mat4 *m = &source_mats[rt->source_of[t]];
    rune_vec3 p = rune_v3(m->m[12], m->m[13], m->m[14]), at;
    if (rt->humanoid)
        at = rune_v3_add(rune__retarget_point(rt, p, level), rune_v3_scale(rt->hum.target.up, lift));
    else
        at = rune_v3_add(rt->target_rest, rune_v3_scale(rune_v3_sub(p, rt->source_rest), rt->scale));
    rune_xform f = rune_rig_frame(target, t);
    rune_vec3 v = rune_q_rotate(rune_q_conjugate(f.r),
                                rune_v3_sub(apply3(rt->parent_inverse, rune_v3_sub(at, rt->parent_origin)), f.t));
    rune_vec3 s = rune_rig_frame_scale(target, t);
    return rune_v3(rune_clamp_magnitude(s.x != 0.0f ? v.x / s.x : 0.0f),
                   rune_clamp_magnitude(s.y != 0.0f ? v.y / s.y : 0.0f),
                   rune_clamp_magnitude(s.z != 0.0f ? v.z / s.z : 0.0f));
}

rune_retarget_joint rune_retarget_target(const rune_retarget *r, size_t t)
{
    return (rune_retarget_joint){rune_retarget_source_of(r, t), rune_retarget_how(r, t), rune_retarget_bone(r, t)};
}

uint32_t rune_retarget_id(const rune_retarget *r) { return r ? r->id : 0; }
int32_t rune_retarget_source_of(const rune_retarget *r, size_t t) { return t < r->nt ? r->source_of[t] : -1; }
rune_retarget_match rune_retarget_how(const rune_retarget *r, size_t t)
{
    return t < r->nt ? (rune_retarget_match)r->how[t] : RUNE_RETARGET_UNMAPPED;
}
int32_t rune_retarget_target_of(const rune_retarget *r, size_t s) { return s < r->ns ? r->target_of[s] : -1; }
size_t rune_retarget_mapped_count(const rune_retarget *r) { return r->mapped; }
float rune_retarget_scale(const rune_retarget *r) { return r->scale; }
size_t rune_retarget_source_joints(const rune_retarget *r) { return r->ns; }
size_t rune_retarget_target_joints(const rune_retarget *r) { return r->nt; }

rune_retarget_info rune_retarget_describe(const rune_retarget *r)
{
    rune_retarget_info info = {r->mapped, r->scale, r->ns, r->nt, r->humanoid, 0, HB_COUNT, 0.0f,
                               r->humanoid && r->hum.foot_ik};
    if (r->humanoid) {
        size_t confirmed = 0;
        for (int b = 0; b < HB_COUNT; b++) {
            int32_t t = r->hum.target.bone[b];
            info.profile_mapped += t >= 0 && r->source_of[t] == r->hum.source.bone[b] && r->source_of[t] >= 0;
        }
        confirmed = r->hum.source.confirmed + r->hum.target.confirmed;
        size_t found = r->hum.source.found + r->hum.target.found;
        info.confidence = found ? (float)confirmed / (float)found : 0.0f;
    }
    return info;
}

const char *rune_retarget_bone(const rune_retarget *r, size_t target_joint)
{
    for (int b = 0; r->humanoid && b < HB_COUNT; b++)
        if (r->hum.target.bone[b] == (int32_t)target_joint)
            return rune__humanoid_bone_name((humanoid_bone)b);
    return NULL;
}
