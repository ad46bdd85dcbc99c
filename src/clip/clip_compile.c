/* Keyframe sequence -> compiled clip: validation, grouping poses into
 * tracks, sorting keys and markers, and packing everything in one block. */
#include "clip_internal.h"
#include "clip_packed.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct key_ref {
    const rune_key_pose_desc *pose;
    float time;
    size_t order; /* position in the input, for "later key wins" */
} key_ref;

static int cmp_names(const char *ap, const char *aq, const char *bp, const char *bq)
{
    int c = strcmp(ap, bp);
    return c ? c : strcmp(aq, bq);
}

static int cmp_key_ref(const void *a, const void *b)
{
    const key_ref *x = a, *y = b;
    int c = cmp_names(x->pose->parent, x->pose->part, y->pose->parent, y->pose->part);
    if (c)
        return c;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

static bool same_track(const key_ref *a, const key_ref *b)
{
    return cmp_names(a->pose->parent, a->pose->part, b->pose->parent, b->pose->part) == 0;
}

/* Several keys of one track at one time: only the last listed survives
 * (refs are sorted by track, time, then input order). */
static bool superseded(const key_ref *refs, size_t n, size_t i)
{
    return i + 1 < n && same_track(&refs[i], &refs[i + 1]) && refs[i + 1].time == refs[i].time;
}

static bool in_range3(rune_vec3 v) { return rune_in_range(v.x) && rune_in_range(v.y) && rune_in_range(v.z); }

static rune_status validate(const rune_sequence_desc *d, rune_error *err)
{
    if (!d->id || !d->id[0])
        return rune_fail(err, RUNE_E_INVALID, "id: must be a non-empty string");
    if (d->priority < 0 || d->priority >= RUNE_PRIORITY_COUNT)
        return rune_fail(err, RUNE_E_INVALID, "priority: %d is outside 0..%d", d->priority,
                         RUNE_PRIORITY_COUNT - 1);
    if (!(d->length >= 0.0f) || !rune_in_range(d->length))
        return rune_fail(err, RUNE_E_INVALID, "length: not a finite number of 0 to %g", (double)RUNE_MAX_MAGNITUDE);
    for (size_t i = 0; i < d->keyframe_count; i++) {
        const rune_keyframe_desc *k = &d->keyframes[i];
        if (!rune_in_range(k->time))
            return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].time: not a finite number of at most %g", i,
                             (double)RUNE_MAX_MAGNITUDE);
        for (size_t j = 0; j < k->pose_count; j++) {
            const rune_key_pose_desc *p = &k->poses[j];
            const rune_quat q = p->r;
            if (!p->part || !p->part[0])
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].part: empty name", i, j);
            if (!p->parent)
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].parent: missing", i, j);
            if (!in_range3(p->t))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].t: not finite, or beyond %g", i, j,
                                 (double)RUNE_MAX_MAGNITUDE);
            if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].r: not finite", i, j);
            if (!(rune_q_dot(q, q) > 1e-12f))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].r: zero-length quaternion", i, j);
            if (!rune_in_range(p->weight))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].weight: not finite, or beyond %g", i, j,
                                 (double)RUNE_MAX_MAGNITUDE);
            if (!rune_in_range(p->mask_weight))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].mask_weight: not finite, or beyond %g",
                                 i, j, (double)RUNE_MAX_MAGNITUDE);
            if ((unsigned)p->easing >= RUNE_EASE_STYLE_COUNT)
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].easing: unknown style", i, j);
            if ((unsigned)p->direction >= RUNE_EASE_DIR_COUNT)
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].direction: unknown direction", i, j);
            if (p->scaled && !in_range3(p->s))
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].poses[%zu].s: not finite, or beyond %g", i, j,
                                 (double)RUNE_MAX_MAGNITUDE);
        }
    }
    for (size_t i = 0; i < d->marker_count; i++) {
        if (!rune_in_range(d->markers[i].time))
            return rune_fail(err, RUNE_E_INVALID, "markers[%zu].time: not a finite number of at most %g", i,
                             (double)RUNE_MAX_MAGNITUDE);
        if (!d->markers[i].name)
            return rune_fail(err, RUNE_E_INVALID, "markers[%zu].name: missing", i);
    }
    return RUNE_OK;
}

static bool key_scaled(const rune_key_pose_desc *p)
{
    return p->scaled && (p->s.x != 1.0f || p->s.y != 1.0f || p->s.z != 1.0f);
}

/* As pack, on a 64-byte boundary (a cache line) whatever the block's own
 * alignment: both passes advance by the same 64 bytes of slack. */
static void *pack_line(packer *p, size_t bytes)
{
    size_t pad = 0;
    if (p->base) {
        uintptr_t at = (uintptr_t)(p->base + p->used);
        pad = (size_t)((64u - at % 64u) % 64u);
    }
    p->used += pad;
    void *r = pack(p, bytes);
    p->used += 64 - pad;
    return r;
}

/* Lays out (when p->base is NULL: only measures) the clip's block; scale
 * arrays only when `scaled` (some kept key has a scale). */
typedef struct curve_input {
    clip_curve_key *keys;
    size_t count, cap, curves;
} curve_input;

static void layout(packer *p, rune_clip *c, const rune_sequence_desc *d, const key_ref *refs,
                   size_t ref_count, size_t tracks, size_t keys, bool scaled, const curve_input *ci)
{
    c->id = pack_str(p, d->id);
    c->tracks = pack(p, tracks * sizeof *c->tracks);
    size_t stored = keys + CLIP_NULL_KEYS;
    c->key_time = pack(p, stored * sizeof(float));
    c->key_t = pack(p, stored * sizeof(rune_vec3));
    c->key_r = pack(p, stored * sizeof(rune_quat));
    c->key_weight = pack(p, stored * sizeof(float));
    c->key_mask = pack(p, stored * sizeof(float));
    c->key_style = pack(p, stored);
    c->key_dir = pack(p, stored);
    c->key_s = scaled ? pack(p, stored * sizeof(rune_vec3)) : NULL;
    c->segments = pack_line(p, stored * sizeof *c->segments);
    c->covers = pack(p, stored * sizeof *c->covers);
    c->scales = scaled ? pack(p, stored * sizeof *c->scales) : NULL;
    c->key_fast = pack(p, stored);
    c->markers = pack(p, d->marker_count * sizeof *c->markers);

    size_t t = 0, k = 0;
    const key_ref *last = NULL; /* the last key kept */
    for (size_t i = 0; i < ref_count; i++) {
        const key_ref *r = &refs[i];
        if (superseded(refs, ref_count, i))
            continue;
        bool new_track = !last || !same_track(r, last);
        last = r;
        if (new_track) {
            const char *parent = pack_str(p, r->pose->parent);
            const char *part = pack_str(p, r->pose->part);
            if (p->base) {
                c->tracks[t].parent = parent;
                c->tracks[t].part = part;
                c->tracks[t].first_key = (uint32_t)k;
                c->tracks[t].key_count = 0;
            }
            t++;
        }
        if (p->base) {
            c->tracks[t - 1].key_count++;
            c->key_time[k] = r->time;
            c->key_t[k] = r->pose->t;
            c->key_r[k] = rune_q_unit(r->pose->r);
            c->key_weight[k] = r->pose->weight;
            c->key_mask[k] = r->pose->mask_weight;
            c->key_style[k] = (uint8_t)r->pose->easing;
            c->key_dir[k] = (uint8_t)r->pose->direction;
            if (c->key_s)
                c->key_s[k] = r->pose->scaled ? r->pose->s : rune_v3(1.0f, 1.0f, 1.0f);
        }
        k++;
    }
    for (size_t i = 0; i < d->marker_count; i++) {
        const char *name = pack_str(p, d->markers[i].name);
        const char *value = pack_str(p, d->markers[i].value);
        if (p->base)
            c->markers[i] = rune__clip_marker(c, &d->markers[i], name, value);
    }
    rune__curves_layout(p, c, ci->keys, ci->count, ci->curves);
}

/* Segment at position `pos`: key k and the way to key `next` (k itself
 * when holding). The rotation tangent is computed in double: v = theta n / |n| with
 * n = q1 - (q . q1) q, the part of the sign-aligned next key orthogonal to
 * q, and theta = atan2(|n|, q . q1), accurate for small angles too. */
static void fill_segment(rune_clip *c, size_t pos, size_t k, size_t next)
{
    clip_segment *s = &c->segments[pos];
    rune_vec3 a = c->key_t[k], b = c->key_t[next];
    s->x = a.x, s->y = a.y, s->z = a.z;
    s->dx = b.x - a.x, s->dy = b.y - a.y, s->dz = b.z - a.z;
    s->time = c->key_time[k];
    s->end = next != k ? c->key_time[next] : INFINITY;
    rune_quat p = c->key_r[k], q = c->key_r[next];
    double d = (double)p.x * q.x + (double)p.y * q.y + (double)p.z * q.z + (double)p.w * q.w;
    double sign = d < 0.0 ? -1.0 : 1.0;
    d *= sign;
    double n[4] = {sign * q.x - d * p.x, sign * q.y - d * p.y, sign * q.z - d * p.z, sign * q.w - d * p.w};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] + n[3] * n[3]);
    double scale = len > 0.0 ? atan2(len, d) / len : 0.0;
    s->q = p;
    s->v = rune_q((float)(n[0] * scale), (float)(n[1] * scale), (float)(n[2] * scale), (float)(n[3] * scale));
    clip_segment_cover *cv = &c->covers[pos];
    cv->w = c->key_weight[k], cv->dw = c->key_weight[next] - c->key_weight[k];
    cv->m = c->key_mask[k], cv->dm = c->key_mask[next] - c->key_mask[k];
    if (c->scales) {
        rune_vec3 sa = c->key_s[k], sb = c->key_s[next];
        c->scales[pos] = (clip_scale_segment){sa.x, sa.y, sa.z, sb.x - sa.x, sb.y - sa.y, sb.z - sa.z};
    }
    c->key_fast[pos] = next == k || c->key_style[next] == RUNE_EASE_LINEAR;
    c->any_eased |= !c->key_fast[pos];
}

/* Whether every track has its keys at the same times as the first. */
static bool keys_aligned(const rune_clip *c)
{
    const clip_track *t0 = &c->tracks[0];
    for (size_t t = 1; t < c->track_count; t++) {
        const clip_track *tr = &c->tracks[t];
        if (tr->key_count != t0->key_count ||
            memcmp(&c->key_time[tr->first_key], &c->key_time[t0->first_key], t0->key_count * sizeof(float)) != 0)
            return false;
    }
    return true;
}

/* The batch sampler's per-key data in its order (see rune_clip), and the
 * null key (the block is zeroed: time, translation, weight and mask are
 * already 0). */
static void prepare_segments(rune_clip *c)
{
    bool time_major = c->track_count > 1 && keys_aligned(c);
    c->plain_covers = true;
    for (size_t k = 0; k < c->key_count && c->plain_covers; k++)
        c->plain_covers = c->key_weight[k] == 1.0f && c->key_mask[k] == 0.0f && !signbit(c->key_mask[k]);
    c->seg_stride = time_major ? (uint32_t)c->track_count : 1;
    for (size_t t = 0; t < c->track_count; t++) {
        const clip_track *tr = &c->tracks[t];
        size_t first = tr->first_key, last = first + tr->key_count - 1;
        for (size_t k = first; k <= last; k++)
            fill_segment(c, clip_first_seg(c, t) + (k - first) * c->seg_stride, k, k < last ? k + 1 : k);
    }
    for (size_t k = c->key_count; k < c->key_count + CLIP_NULL_KEYS; k++) {
        c->key_r[k] = rune_q_identity();
        if (c->key_s)
            c->key_s[k] = rune_v3(1.0f, 1.0f, 1.0f);
        fill_segment(c, k, k, k);
        c->segments[k].time = -INFINITY;
    }
}

rune_status rune_clip_compile(const rune_sequence_desc *d, const rune_allocator *alloc,
                              rune_clip **out, rune_error *err)
{
    RUNE_REQUIRE(err, d, "desc");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_status st = validate(d, err);
    if (st)
        return st;

    size_t ref_count = 0;
    for (size_t i = 0; i < d->keyframe_count; i++)
        ref_count += d->keyframes[i].pose_count;
    key_ref *refs = rune__calloc(alloc, ref_count, sizeof *refs);
    if (!refs)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compiling clip \"%s\"", d->id);
    float length = 0.0f;
    size_t n = 0;
    for (size_t i = 0; i < d->keyframe_count; i++)
        for (size_t j = 0; j < d->keyframes[i].pose_count; j++) {
            refs[n].pose = &d->keyframes[i].poses[j];
            refs[n].time = d->keyframes[i].time;
            refs[n].order = n;
            n++;
            if (d->keyframes[i].time > length)
                length = d->keyframes[i].time;
        }
    if (d->length > length)
        length = d->length;
    /* keys written by rune (assets, importers) come sorted: one pass checks */
    bool sorted = true;
    for (size_t i = 1; sorted && i < ref_count; i++)
        sorted = cmp_key_ref(&refs[i - 1], &refs[i]) < 0;
    if (!sorted)
        qsort(refs, ref_count, sizeof *refs, cmp_key_ref);

    size_t tracks = 0, keys = 0;
    bool scaled = false;
    const key_ref *last = NULL;
    for (size_t i = 0; i < ref_count; i++) {
        if (superseded(refs, ref_count, i))
            continue;
        tracks += !last || !same_track(&refs[i], last);
        last = &refs[i];
        keys++;
        scaled |= key_scaled(refs[i].pose);
    }

    if (keys >= CLIP_MAX_KEYS) {
        rune__free(alloc, refs, ref_count, sizeof *refs);
        return rune_fail(err, RUNE_E_INVALID, "clip \"%s\": %zu keys, more than the %u a clip may hold", d->id, keys,
                         (unsigned)CLIP_MAX_KEYS - 1);
    }
    curve_input ci = {0};
    rune_status cst = rune__curves_gather(d, alloc, &ci.keys, &ci.count, &ci.cap, &ci.curves, err);
    if (cst) {
        rune__free(alloc, refs, ref_count, sizeof *refs);
        return cst;
    }
    for (size_t i = 0; i < ci.count; i++)
        length = ci.keys[i].time > length ? ci.keys[i].time : length;
    rune_clip probe = {0};
    probe.loop = d->loop;
    probe.length = length;
    packer measure = {NULL, 0};
    layout(&measure, &probe, d, refs, ref_count, tracks, keys, scaled, &ci);

    size_t head = align16(sizeof(rune_clip));
    char *block = rune__calloc(alloc, head + measure.used, 1);
    if (!block) {
        rune__free(alloc, refs, ref_count, sizeof *refs);
        rune__free(alloc, ci.keys, ci.cap, sizeof *ci.keys);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compiling clip \"%s\"", d->id);
    }
    rune_clip *c = (rune_clip *)block;
    rune__clip_head(c, alloc, head + measure.used, d->revision, d->loop, d->priority, length, tracks, d->marker_count);
    c->key_count = keys;
    packer fill = {block + head, 0};
    layout(&fill, c, d, refs, ref_count, tracks, keys, scaled, &ci);
    prepare_segments(c);
    rune__clip_sort_markers(c->markers, c->marker_count);
    rune__free(alloc, refs, ref_count, sizeof *refs);
    rune__free(alloc, ci.keys, ci.cap, sizeof *ci.keys);
    *out = c;
    return RUNE_OK;
}

void rune_clip_destroy(rune_clip *clip)
{
    if (clip) {
        rune_allocator a = clip->alloc;
        rune__free(&a, clip, clip->block_size, 1);
    }
}

const char *rune_clip_id(const rune_clip *c) { return c->id; }
uint32_t rune_clip_revision(const rune_clip *c) { return c->revision; }
uint64_t rune_clip_serial(const rune_clip *c) { return c->serial; }
float rune_clip_length(const rune_clip *c) { return c->length; }
bool rune_clip_loops(const rune_clip *c) { return c->loop; }
int rune_clip_priority(const rune_clip *c) { return c->priority; }
size_t rune_clip_track_count(const rune_clip *c) { return c->track_count; }
const char *rune_clip_track_parent(const rune_clip *c, size_t t) { return c->tracks[t].parent; }
const char *rune_clip_track_part(const rune_clip *c, size_t t) { return c->tracks[t].part; }
size_t rune_clip_track_key_count(const rune_clip *c, size_t t) { return c->tracks[t].key_count; }
float rune_clip_track_key_time(const rune_clip *c, size_t t, size_t k)
{
    if (c->packed)
        return c->packed->t0 + (float)k * c->packed->dt;
    return c->key_time[c->tracks[t].first_key + k];
}
size_t rune_clip_marker_count(const rune_clip *c) { return c->marker_count; }
const rune_marker *rune_clip_markers(const rune_clip *c) { return c->markers; }
bool rune_clip_has_scale(const rune_clip *c) { return c->packed ? c->packed->scaled : c->key_s != NULL; }
size_t rune_clip_bytes(const rune_clip *c) { return c->block_size; }
size_t rune_clip_key_count(const rune_clip *c) { return c->key_count; }

rune_clip_info rune_clip_describe(const rune_clip *c)
{
    RUNE_ASSUME(c);
    return (rune_clip_info){c->id,
                            c->revision,
                            c->length,
                            c->loop,
                            c->priority,
                            c->track_count,
                            c->key_count,
                            c->curve_count,
                            c->curve_key_count,
                            c->marker_count,
                            c->markers,
                            rune_clip_has_scale(c),
                            c->packed != NULL,
                            c->block_size};
}

rune_clip_track_info rune_clip_track(const rune_clip *c, size_t t)
{
    RUNE_ASSUME(c);
    if (t >= c->track_count)
        return (rune_clip_track_info){"", "", 0};
    return (rune_clip_track_info){c->tracks[t].parent, c->tracks[t].part, c->tracks[t].key_count};
}

void rune_clip_track_key(const rune_clip *c, size_t t, size_t k, float *time, rune_key_pose_desc *out)
{
    if (c->packed) { /* sample k of the grid, a linear key */
        rune_key_sample s;
        rune__pack_track_sample(c->packed, t, (uint32_t)k, &s);
        *time = rune_clip_track_key_time(c, t, k);
        *out = (rune_key_pose_desc){c->tracks[t].parent, c->tracks[t].part, s.t, s.r, s.weight, s.mask_weight,
                                    RUNE_EASE_LINEAR, RUNE_EASE_IN, s.s, c->packed->scaled};
        return;
    }
    size_t i = c->tracks[t].first_key + k;
    *time = c->key_time[i];
    *out = (rune_key_pose_desc){c->tracks[t].parent, c->tracks[t].part, c->key_t[i], c->key_r[i],
                                c->key_weight[i], c->key_mask[i], (rune_easing_style)c->key_style[i],
                                (rune_easing_dir)c->key_dir[i], rune_v3(1.0f, 1.0f, 1.0f), false};
    if (c->key_s) {
        out->s = c->key_s[i];
        out->scaled = true;
    }
}
