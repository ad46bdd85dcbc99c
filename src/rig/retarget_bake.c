/* A clip retargeted for a binding (docs/semantics.md, "Retargeting"):
 * built once from the source clip, sampled like any clip of the target
 * rig. At each key time the source pose is sampled and taken through the
 * source rig's hierarchy; each mapped target joint gets model rotation
 * source model * (source rest model^-1 * target rest model) and, back
 * through its parent, a local key; the topmost mapped joint also its
 * scaled travel. A target joint keys the times of the source tracks its
 * rotation depends on (its source joint's, and those between it and its
 * mapped parent's source joint), with their easing when they are one
 * track's -- which makes a chain mapped joint to joint exact between keys
 * too: the local rotation is a fixed rotation either side of the source
 * local one, and such maps commute with slerp. */
#include "retarget_internal.h"
#include "rig_internal.h"
#include "../base/alloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct track_times {
    float *time;
    size_t count, cap;
    int32_t single; /* the one source track the times come from, or -1 */
    size_t cursor;
    bool still;     /* mapped, its source path unkeyed: keyed at every time of the clip */
} track_times;

typedef struct bake {
    const rune_retarget *rt;
    const rune_rig *target;
    const rune_clip *clip;
    rune_binding *source;
    const rune_allocator *alloc;
    track_times *tracks; /* per target joint */
    uint8_t *mark;       /* per source joint */
    float *all;          /* every key time, sorted, distinct */
    size_t all_count, all_cap;
    rune_key_pose_desc *poses;
    rune_keyframe_desc *frames; /* the joints' keys by time, then one a curve key */
    rune_curve_key_desc *curves;
    size_t pose_count, pose_cap;
    rune_marker_desc *markers;
    rune_pose pose;
    rune_mat4 *mats;
    rune_quat *sm, *tm;
    float level;            /* humanoids: where the source's ankles are when it stands */
    float *hold;            /* with foot IK: per key time, how much each foot is held */
    rune_pose target_pose;  /* and scratch for the target */
    rune_mat4 *target_mats;
} bake;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static size_t sort_unique(float *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_float);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* Marks (xor) a source joint and its ancestors. */
static void mark_path(bake *b, int32_t s)
{
    for (; s >= 0; s = rune_rig_parent(b->rt->source, (size_t)s))
        b->mark[s] ^= 1;
}

/* The source joint of t's nearest mapped ancestor, or -1. */
static int32_t mapped_parent_source(const bake *b, size_t t)
{
    for (int32_t p = rune_rig_parent(b->target, t); p >= 0; p = rune_rig_parent(b->target, (size_t)p))
        if (b->rt->source_of[p] >= 0)
            return b->rt->source_of[p];
    return -1;
}

/* Whether foot IK may turn target joint t: 1 + the profile bone of the
 * source foot it follows (HB_FOOT_L or _R) for thighs, shins and feet,
 * else 0. */
static int held_leg(const rune_retarget *rt, size_t t)
{
    if (!rt->humanoid || !rt->hum.foot_ik || rt->top < 0)
        return 0;
    for (int side = 0; side < 2; side++)
        for (int bone = HB_THIGH_L; bone <= HB_FOOT_L; bone += 2)
            if (rt->hum.target.bone[bone + side] == (int32_t)t)
                return 1 + HB_FOOT_L + side;
    return 0;
}

/* The key times of target joint t: those of the source tracks on the
 * paths that differ between its source joint and its mapped parent's. */
static rune_status times_of(bake *b, size_t t)
{
    track_times *tt = &b->tracks[t];
    tt->single = -1;
    int32_t s = b->rt->source_of[t];
    if (s < 0)
        return RUNE_OK;
    memset(b->mark, 0, b->rt->ns);
    int leg = held_leg(b->rt, t);
    if (leg) /* the leg follows its foot: every joint above it */
        mark_path(b, b->rt->hum.source.bone[leg - 1]);
    else
        mark_path(b, s);
    if (!leg && (int32_t)t != b->rt->top) /* the top takes travel from the whole path */
        mark_path(b, mapped_parent_source(b, t));
    size_t n = 0, tracks = 0;
    for (size_t j = 0; j < b->rt->ns; j++) {
        int32_t k = b->mark[j] ? rune_binding_track_of(b->source, (int32_t)j) : -1;
        if (k >= 0)
            n += rune_clip_track_key_count(b->clip, (size_t)k), tracks++, tt->single = k;
    }
    if (tracks != 1)
        tt->single = -1;
    /* between humanoids a joint whose source stands still still turns:
     * its rest is not the source's (keys at every time: see still_times) */
    tt->still = !n && b->rt->humanoid;
    if (!n)
        return RUNE_OK;
    if (!(tt->time = rune__calloc(b->alloc, n, sizeof *tt->time)))
        return RUNE_E_NOMEM;
    tt->cap = n;
    for (size_t j = 0; j < b->rt->ns; j++) {
        int32_t k = b->mark[j] ? rune_binding_track_of(b->source, (int32_t)j) : -1;
        for (size_t i = 0; k >= 0 && i < rune_clip_track_key_count(b->clip, (size_t)k); i++)
            tt->time[tt->count++] = rune_clip_track_key_time(b->clip, (size_t)k, i);
    }
    tt->count = sort_unique(tt->time, tt->count);
    return RUNE_OK;
}

/* The keys of the joints whose source stands still: one at every key
 * time of the clip (b->all; a constant track on the clip's own grid keeps
 * the batch sampler at one segment a key, which a single key would not). */
static rune_status still_times(bake *b)
{
    for (size_t t = 0; t < b->rt->nt; t++) {
        track_times *tt = &b->tracks[t];
        if (!tt->still)
            continue;
        if (!(tt->time = rune__calloc(b->alloc, b->all_count, sizeof *tt->time)))
            return RUNE_E_NOMEM;
        tt->cap = tt->count = b->all_count;
        memcpy(tt->time, b->all, b->all_count * sizeof *tt->time);
    }
    return RUNE_OK;
}

/* Every target joint's model rotation at the sampled source pose: a
 * mapped joint's from its source joint's, the others' from their parents'. */
static void target_rotations(bake *b)
{
    const rune_retarget *rt = b->rt;
    for (size_t t = 0; t < rt->nt; t++) {
        int32_t p = rune_rig_parent(b->target, t), s = rt->source_of[t];
        rune_quat q = s < 0 ? rune_q_mul(p >= 0 ? b->tm[p] : rune_q_identity(), rune_rig_frame(b->target, t).r)
                            : rune_q_mul(b->sm[s], rt->offset[t]);
        if (s >= 0 && rt->humanoid)
            q = rune_q_mul(rt->hum.change, q);
        b->tm[t] = rune_q_normalize(q);
    }
}

/* Every target key at key time number g, appended to b->poses. */
static size_t keys_at(bake *b, size_t g)
{
    const rune_retarget *rt = b->rt;
    const rune_rig *src = rt->source;
    float time = b->all[g];
    rune_binding_sample(b->source, time, &b->pose);
    for (size_t j = 0; j < rt->ns; j++) {
        int32_t p = rune_rig_parent(src, j);
        rune_quat local = rune_q_mul(rune_rig_frame(src, j).r, rune_pose_r(&b->pose, j));
        b->sm[j] = rune_q_normalize(p >= 0 ? rune_q_mul(b->sm[p], local) : local);
    }
    if (rt->top >= 0)
        rune_rig_model_matrices(src, &b->pose, b->mats);
    target_rotations(b);
    float lift = 0.0f;
    if (b->hold)
        rune__retarget_ground(rt, b->target, b->mats, b->level, &b->hold[2 * g], b->tm, &b->target_pose,
                              b->target_mats, &lift);
    size_t emitted = 0;
    for (size_t t = 0; t < rt->nt; t++) {
        int32_t p = rune_rig_parent(b->target, t), s = rt->source_of[t];
        track_times *tt = &b->tracks[t];
        if (tt->cursor >= tt->count || tt->time[tt->cursor] != time)
            continue;
        rune_quat above = rune_q_mul(p >= 0 ? b->tm[p] : rune_q_identity(), rune_rig_frame(b->target, t).r);
        rune_key_pose_desc *k = &b->poses[b->pose_count + emitted++];
        *k = (rune_key_pose_desc){rune_rig_parent_part(b->target, t), rune_rig_part(b->target, t), rune_v3(0, 0, 0),
                                  rune_q_normalize(rune_q_mul(rune_q_conjugate(above), b->tm[t])), 1.0f, 0.0f,
                                  RUNE_EASE_LINEAR, RUNE_EASE_IN, rune_v3(1, 1, 1), false};
        if ((int32_t)t == rt->top)
            k->t = rune__retarget_top(rt, b->target, b->mats, b->level, lift);
        int32_t own = rune_binding_track_of(b->source, s);
        if (own >= 0) { /* the source joint's own weights */
            rune_key_sample smp;
            rune_clip_sample_track(b->clip, (size_t)own, time, &smp);
            k->weight = smp.weight, k->mask_weight = smp.mask_weight;
        }
        if (tt->single >= 0) { /* one track's times: its easing */
            float kt;
            rune_key_pose_desc kd;
            rune_clip_track_key(b->clip, (size_t)tt->single, tt->cursor, &kt, &kd);
            k->easing = kd.easing, k->direction = kd.direction;
        }
        tt->cursor++;
    }
    return emitted;
}

/* How much each source foot is planted at each key time (b->hold). */
static rune_status plant(bake *b)
{
    const rune_retarget *rt = b->rt;
    const rune_allocator *a = b->alloc;
    rune_vec3 *ankles = rune__calloc(a, 2 * b->all_count, sizeof *ankles);
    b->hold = rune__calloc(a, 2 * b->all_count, sizeof *b->hold);
    if (!ankles || !b->hold || rune_pose_init(&b->target_pose, rt->nt, a, NULL) ||
        !(b->target_mats = rune__calloc(a, rt->nt, sizeof *b->target_mats))) {
        rune__free(a, ankles, 2 * b->all_count, sizeof *ankles);
        return RUNE_E_NOMEM;
    }
    for (size_t g = 0; g < b->all_count; g++) {
        rune_binding_sample(b->source, b->all[g], &b->pose);
        rune_rig_model_matrices(rt->source, &b->pose, b->mats);
        for (int side = 0; side < 2; side++) {
            const float *m = b->mats[rt->hum.source.bone[HB_FOOT_L + side]].m;
            ankles[2 * g + side] = rune_v3(m[12], m[13], m[14]);
        }
    }
    rune_status st = rune__retarget_contacts(rt, b->all, ankles, b->all_count, a, &b->level, b->hold);
    rune__free(a, ankles, 2 * b->all_count, sizeof *ankles);
    return st;
}

static void bake_free(bake *b)
{
    const rune_allocator *a = b->alloc;
    size_t nt = b->rt->nt, ns = b->rt->ns;
    for (size_t t = 0; b->tracks && t < nt; t++)
        rune__free(a, b->tracks[t].time, b->tracks[t].cap, sizeof(float));
    rune__free(a, b->tracks, nt, sizeof *b->tracks);
    rune__free(a, b->mark, ns ? ns : 1, 1);
    rune__free(a, b->all, b->all_cap ? b->all_cap : 1, sizeof *b->all);
    rune__free(a, b->poses, b->pose_cap ? b->pose_cap : 1, sizeof *b->poses);
    rune__free(a, b->frames, b->all_count + rune_clip_curve_key_total(b->clip), sizeof *b->frames);
    rune__free(a, b->curves, rune_clip_curve_key_total(b->clip), sizeof *b->curves);
    rune__free(a, b->markers, rune_clip_marker_count(b->clip), sizeof *b->markers);
    rune__free(a, b->mats, ns ? ns : 1, sizeof *b->mats);
    rune__free(a, b->sm, ns ? ns : 1, sizeof *b->sm);
    rune__free(a, b->tm, nt ? nt : 1, sizeof *b->tm);
    rune__free(a, b->hold, 2 * b->all_count, sizeof *b->hold);
    rune__free(a, b->target_mats, nt, sizeof *b->target_mats);
    rune_pose_release(&b->target_pose);
    rune_pose_release(&b->pose);
    rune_binding_destroy(b->source);
}

rune_status rune__retarget_bake(const rune_retarget *rt, const rune_rig *target, const rune_clip *clip,
                                const rune_allocator *alloc, rune_clip **out, rune_error *err)
{
    *out = NULL;
    bake b;
    memset(&b, 0, sizeof b);
    b.rt = rt, b.target = target, b.clip = clip, b.alloc = alloc;
    b.level = rt->hum.source_level;
    size_t ns = rt->ns, nt = rt->nt, markers = rune_clip_marker_count(clip);
    rune_status st = rune__binding_make(rt->source, clip, clip, NULL, 0, alloc, &b.source, err);
    if (st)
        return st;
    if (rune_pose_init(&b.pose, ns, alloc, err) != RUNE_OK) {
        rune_binding_destroy(b.source);
        return RUNE_E_NOMEM;
    }
    b.tracks = rune__calloc(alloc, nt, sizeof *b.tracks);
    b.mark = rune__calloc(alloc, ns ? ns : 1, 1);
    b.mats = rune__calloc(alloc, ns ? ns : 1, sizeof *b.mats);
    b.sm = rune__calloc(alloc, ns ? ns : 1, sizeof *b.sm);
    b.tm = rune__calloc(alloc, nt ? nt : 1, sizeof *b.tm);
    b.markers = rune__calloc(alloc, markers, sizeof *b.markers);
    bool ok = b.tracks && b.mark && b.mats && b.sm && b.tm && (b.markers || !markers);
    for (size_t t = 0; ok && t < nt; t++) {
        ok = times_of(&b, t) == RUNE_OK;
        b.all_cap += b.tracks[t].count;
    }
    if (ok) {
        b.all = rune__calloc(alloc, b.all_cap ? b.all_cap : 1, sizeof *b.all);
        ok = b.all != NULL;
    }
    if (ok) {
        for (size_t t = 0; t < nt; t++)
            if (b.tracks[t].count) {
                memcpy(b.all + b.all_count, b.tracks[t].time, b.tracks[t].count * sizeof *b.all);
                b.all_count += b.tracks[t].count;
            }
        b.all_count = sort_unique(b.all, b.all_count);
        bool still = false;
        for (size_t t = 0; t < nt; t++)
            still |= b.tracks[t].still;
        if (still && !b.all_count) /* the still joints' one key, at 0 (b.all holds room for it) */
            b.all_count = 1;
        ok = still_times(&b) == RUNE_OK;
        for (size_t t = 0; ok && t < nt; t++)
            b.pose_cap += b.tracks[t].count;
        b.poses = rune__calloc(alloc, b.pose_cap ? b.pose_cap : 1, sizeof *b.poses);
        ok = ok && b.poses;
    }
    if (ok) {
        b.frames = rune__calloc(alloc, b.all_count + rune_clip_curve_key_total(clip), sizeof *b.frames);
        b.curves = rune__calloc(alloc, rune_clip_curve_key_total(clip), sizeof *b.curves);
        ok = b.frames && b.curves;
        if (ok && rt->humanoid && rt->hum.foot_ik && rt->top >= 0 && b.all_count)
            ok = plant(&b) == RUNE_OK;
    }
    if (!ok) {
        bake_free(&b);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory retargeting clip \"%s\"", rune_clip_id(clip));
    }
    for (size_t g = 0; g < b.all_count; g++) {
        size_t first = b.pose_count, n = keys_at(&b, g);
        b.frames[g] = (rune_keyframe_desc){b.all[g], b.poses + first, n, NULL, 0};
        b.pose_count += n;
    }
    /* curves go over as they are: they name no joint */
    size_t frames = b.all_count;
    for (size_t i = 0; i < rune_clip_curve_count(clip); i++)
        for (size_t k = 0; k < rune_clip_curve_key_count(clip, i); k++, frames++) {
            rune_curve_key_desc *cd = &b.curves[frames - b.all_count];
            float time;
            rune_clip_curve_key(clip, i, k, &time, cd);
            b.frames[frames] = (rune_keyframe_desc){time, NULL, 0, cd, 1};
        }
    const rune_marker *m = rune_clip_markers(clip);
    for (size_t i = 0; i < markers; i++)
        b.markers[i] = (rune_marker_desc){m[i].time, m[i].name, m[i].value};
    rune_sequence_desc d = {rune_clip_id(clip), rune_clip_revision(clip), rune_clip_loops(clip),
                            rune_clip_priority(clip), b.frames, frames, b.markers, markers,
                            rune_clip_length(clip)};
    st = rune_clip_compile(&d, alloc, out, err);
    if (st)
        rune_error_prefix(err, "retargeting clip \"%s\": ", rune_clip_id(clip));
    bake_free(&b);
    return st;
}
