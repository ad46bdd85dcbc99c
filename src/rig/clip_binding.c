/* Clip binding: which rig joint each clip track drives, matched by parent
 * and part names with an unambiguous part-only fallback, and sampling
 * through it (binding_create.c makes bindings, retargeted ones too;
 * binding_cache.c keeps them). */
#include "rune/rig.h"
#include "rig_internal.h"
#include "../base/alloc.h"
#include "../base/name_index.h"
#include "../clip/sample_dest.h"
#include "../base/require.h"

#include <string.h>

struct rune_binding {
    rune_allocator alloc;
    const rune_clip *clip;        /* what is sampled: source_clip, or owned */
    const rune_clip *source_clip; /* what the binding was made from */
    rune_clip *owned;             /* the retargeted copy, or NULL */
    uint32_t retarget_id;
    size_t joint_count;
    size_t track_count;
    size_t bound;
    int32_t *joint_of_track;
    int32_t *track_of_joint; /* the lane map of the binding's samplers */
    size_t curve_count;      /* the rig's curves when bound */
    int32_t *curve_of_rig;   /* per rig curve: the clip's curve, or -1 */
    void *plan_block;        /* the plan its samplers share, if any (sample_dest.h) */
    size_t plan_bytes;
    const sample_plan *plan;
};

/* The joint track t drives: the joint of the same parent and part, else
 * the one joint of its part when the clip has one track of that part
 * (`parts` counts the clip's tracks by part), else -1. */
static int32_t match_track(const rune_rig *rig, const rune_clip *clip, const rune__name_index *parts, size_t t)
{
    const char *part = rune_clip_track_part(clip, t);
    int32_t j = rune__rig_find_pair(rig, rune_clip_track_parent(clip, t), part);
    if (j >= 0)
        return j;
    uint32_t in_rig, in_clip;
    j = rune__rig_find_part(rig, part, &in_rig);
    rune__name_index_find(parts, NULL, 0, part, &in_clip);
    return in_rig == 1 && in_clip == 1 ? j : -1;
}

/* The clip's tracks counted by part name; false: out of memory. */
static bool index_parts(const rune_clip *clip, rune__name_index *parts)
{
    for (size_t t = 0; t < rune_clip_track_count(clip); t++)
        if (!rune__name_index_add(parts, NULL, 0, rune_clip_track_part(clip, t), (int32_t)t))
            return false;
    return true;
}

rune_status rune__binding_make(const rune_rig *rig, const rune_clip *clip, const rune_clip *source, rune_clip *owned,
                               uint32_t retarget_id, const rune_allocator *alloc, rune_binding **out, rune_error *err)
{
    *out = NULL;
    rune_binding *b = rune__calloc(alloc, 1, sizeof *b);
    size_t tracks = rune_clip_track_count(clip), joints = rune_rig_joint_count(rig);
    int32_t *map = rune__calloc(alloc, tracks, sizeof *map);
    int32_t *lanes = rune__calloc(alloc, joints, sizeof *lanes);
    size_t curves = rune_rig_curve_count(rig);
    int32_t *curve_map = rune__calloc(alloc, curves, sizeof *curve_map);
    if (!b || !map || !lanes || !curve_map) {
        rune__free(alloc, b, 1, sizeof *b);
        rune__free(alloc, map, tracks, sizeof *map);
        rune__free(alloc, lanes, joints, sizeof *lanes);
        rune__free(alloc, curve_map, curves, sizeof *curve_map);
        rune_clip_destroy(owned);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory binding clip \"%s\"", rune_clip_id(source));
    }
    b->alloc = *alloc;
    b->clip = clip;
    b->source_clip = source;
    b->owned = owned;
    b->curve_count = curves;
    b->curve_of_rig = curve_map;
    for (size_t c = 0; c < curves; c++)
        curve_map[c] = rune_clip_find_curve(clip, rune_rig_curve_name(rig, c));
    b->retarget_id = retarget_id;
    b->joint_count = joints;
    b->track_count = tracks;
    b->joint_of_track = map;
    b->track_of_joint = lanes;
    for (size_t j = 0; j < joints; j++)
        lanes[j] = -1;
    rune__name_index parts;
    rune__name_index_init(&parts, alloc);
    if (!index_parts(clip, &parts)) {
        rune__name_index_release(&parts);
        rune_status st = rune_fail(err, RUNE_E_NOMEM, "out of memory binding clip \"%s\"", rune_clip_id(source));
        rune_binding_destroy(b);
        return st;
    }
    for (size_t t = 0; t < tracks; t++) {
        map[t] = match_track(rig, clip, &parts, t);
        /* (parent, part) pairs are unique, so bound tracks drive distinct joints */
        if (map[t] >= 0) {
            lanes[map[t]] = (int32_t)t;
            b->bound++;
        }
    }
    rune__name_index_release(&parts);
    /* the samplers' plan follows the lane map just made */
    b->plan_bytes = rune__sample_plan_bytes(clip, lanes, joints);
    b->plan_block = b->plan_bytes ? rune__calloc(alloc, 1, b->plan_bytes) : NULL;
    if (b->plan_bytes && !b->plan_block) {
        rune_status st = rune_fail(err, RUNE_E_NOMEM, "out of memory binding clip \"%s\"", rune_clip_id(source));
        rune_binding_destroy(b);
        return st;
    }
    b->plan = b->plan_block ? rune__sample_plan_init(clip, lanes, joints, b->plan_block) : NULL;
    *out = b;
    return RUNE_OK;
}

void rune_binding_destroy(rune_binding *b)
{
    if (!b)
        return;
    rune_allocator a = b->alloc;
    rune__free(&a, b->joint_of_track, b->track_count, sizeof *b->joint_of_track);
    rune__free(&a, b->track_of_joint, b->joint_count, sizeof *b->track_of_joint);
    rune__free(&a, b->curve_of_rig, b->curve_count, sizeof *b->curve_of_rig);
    rune__free(&a, b->plan_block, 1, b->plan_bytes);
    rune_clip_destroy(b->owned);
    rune__free(&a, b, 1, sizeof *b);
}

const rune_clip *rune_binding_clip(const rune_binding *b) { return b->clip; }
const rune_clip *rune_binding_source_clip(const rune_binding *b) { return b->source_clip; }
uint32_t rune_binding_retarget_id(const rune_binding *b) { return b->retarget_id; }
int32_t rune_binding_joint(const rune_binding *b, size_t track) { return b->joint_of_track[track]; }
size_t rune_binding_bound_count(const rune_binding *b) { return b->bound; }

size_t rune_binding_bytes(const rune_binding *b)
{
    return sizeof *b + (b->track_count + b->joint_count + b->curve_count) * sizeof(int32_t) + b->plan_bytes +
           (b->owned ? rune_clip_bytes(b->owned) : 0);
}

int32_t rune_binding_track_of(const rune_binding *b, int32_t joint)
{
    return joint >= 0 && (size_t)joint < b->joint_count ? b->track_of_joint[joint] : -1;
}

size_t rune_binding_curve_count(const rune_binding *b) { return b->curve_count; }

void rune_binding_sample_curves(const rune_binding *b, float t, size_t first, size_t count, float *value,
                                float *coverage)
{
    for (size_t i = 0; i < count; i++) {
        size_t c = first + i;
        int32_t k = c < b->curve_count ? b->curve_of_rig[c] : -1;
        rune_curve_sample s = {0.0f, 0.0f, 0.0f, 0.0f};
        if (k >= 0)
            rune_clip_sample_curve(b->clip, (size_t)k, t, &s);
        value[i] = s.value;
        coverage[i] = s.coverage;
    }
}

void rune_binding_sample(const rune_binding *b, float t, rune_pose *pose)
{
    rune_pose_reset(pose);
    rune_binding_sample_curves(b, t, 0, pose->curve_count, pose->curve, pose->curve_cov);
    for (size_t k = 0; k < b->track_count; k++) {
        int32_t j = b->joint_of_track[k];
        if (j < 0 || (size_t)j >= pose->count)
            continue;
        rune_key_sample s;
        rune_clip_sample_track(b->clip, k, t, &s);
        rune_pose_set(pose, (size_t)j, s.t, s.r, s.coverage);
        rune_pose_set_s(pose, (size_t)j, s.s);
    }
}

rune_status rune_binding_sampler_create(const rune_binding *b, rune_simd_level level, const rune_allocator *alloc,
                                        rune_sample_cache **out, rune_error *err)
{
    RUNE_REQUIRE(err, b, "binding");
    RUNE_REQUIRE(err, out, "out");
    return rune__sample_cache_create_planned(b->clip, b->track_of_joint, b->joint_count, b->plan, level, alloc, out,
                                             err);
}

bool rune_binding_sampler_matches(const rune_binding *b, const rune_sample_cache *cache)
{
    /* the map pointer alone could be a freed binding's reused address */
    return cache && rune_sample_cache_lane_tracks(cache) == b->track_of_joint &&
           rune_sample_cache_clip(cache) == b->clip && rune_sample_cache_lane_count(cache) == b->joint_count;
}

size_t rune_binding_sample_chunk(const rune_binding *b, rune_sample_cache *cache, float t, size_t first, size_t count,
                                 rune_sample_chunk *out)
{
    if (first >= b->joint_count || first % RUNE_SAMPLE_CHUNK != 0)
        return 0;
    if (count > b->joint_count - first)
        count = b->joint_count - first;
    if (count > RUNE_SAMPLE_CHUNK)
        count = RUNE_SAMPLE_CHUNK;
    if (rune_binding_sampler_matches(b, cache)) {
        rune_sample_cache_sample(cache, t, first, count, out);
        return count;
    }
    out->scaled = false;
    for (size_t i = 0; i < count; i++) { /* no fast sampler: the exact one */
        int32_t k = b->track_of_joint[first + i];
        rune_key_sample s = {{0, 0, 0}, {0, 0, 0, 1}, 0, 0, 0, {1, 1, 1}};
        if (k >= 0)
            rune_clip_sample_track(b->clip, (size_t)k, t, &s);
        rune_sample_chunk_set(out, i, &s);
    }
    return count;
}

void rune_binding_sample_cached(const rune_binding *b, rune_sample_cache *cache, float t, rune_pose *pose)
{
    rune_binding_sample_curves(b, t, 0, pose->curve_count, pose->curve, pose->curve_cov);
    size_t joints = pose->count < b->joint_count ? pose->count : b->joint_count;
    if (pose->scaled) { /* unscaled samples leave the scale channels alone: they must be 1 */
        for (size_t j = 0; j < pose->stride; j++)
            pose->sx[j] = pose->sy[j] = pose->sz[j] = 1.0f;
        pose->scaled = false;
    }
    bool direct = rune_binding_sampler_matches(b, cache);
    for (size_t first = 0; first < joints; first += RUNE_SAMPLE_CHUNK) {
        size_t n = joints - first < RUNE_SAMPLE_CHUNK ? joints - first : RUNE_SAMPLE_CHUNK;
        if (direct) {
            /* the kernel writes the pose's own channels (their padding to
             * RUNE_POSE_LANES covers the kernel's padded lanes); weight
             * and mask, which a pose does not keep, go to scratch */
            float weight[RUNE_SAMPLE_CHUNK], mask[RUNE_SAMPLE_CHUNK];
            sample_dest d = {pose->tx + first, pose->ty + first, pose->tz + first, pose->qx + first,
                             pose->qy + first, pose->qz + first, pose->qw + first, pose->sx + first,
                             pose->sy + first, pose->sz + first, weight,           mask,
                             pose->coverage + first};
            pose->scaled |= rune__sample_cache_sample_to(cache, t, first, n, &d);
            continue;
        }
        rune_sample_chunk s;
        n = rune_binding_sample_chunk(b, cache, t, first, n, &s);
        const float *from[11] = {s.x, s.y, s.z, s.qx, s.qy, s.qz, s.qw, s.coverage, s.sx, s.sy, s.sz};
        float *const to[11] = {pose->tx, pose->ty, pose->tz, pose->qx, pose->qy, pose->qz,
                               pose->qw, pose->coverage, pose->sx, pose->sy, pose->sz};
        for (int c = 0; c < (s.scaled ? 11 : 8); c++) /* SoA to SoA: a copy per channel */
            memcpy(to[c] + first, from[c], n * sizeof(float));
        pose->scaled |= s.scaled;
    }
    for (size_t j = joints; j < pose->count; j++) { /* joints the binding's rig lacks */
        rune_pose_set(pose, j, rune_v3(0.0f, 0.0f, 0.0f), rune_q_identity(), 0.0f);
        rune_pose_set_s(pose, j, rune_v3(1.0f, 1.0f, 1.0f));
    }
}
