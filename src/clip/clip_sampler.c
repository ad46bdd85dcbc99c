/* The key sampler: locate the interval, ease it with the destination key's
 * curve, interpolate, and derive coverage. */
#include "clip_internal.h"
#include "clip_packed.h"
#include "sample_lane.h" /* rune__segment_u, rune__segment_rotation */

static void take_key(const rune_clip *c, size_t k, rune_key_sample *out)
{
    out->t = c->key_t[k];
    out->r = c->key_r[k];
    out->weight = c->key_weight[k];
    out->mask_weight = c->key_mask[k];
    out->s = c->key_s ? c->key_s[k] : rune_v3(1.0f, 1.0f, 1.0f);
}

/* First key index in [lo, hi) whose time is >= t; hi when none. */
static size_t first_at_or_after(const float *times, size_t lo, size_t hi, float t)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (times[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A packed clip: the two grid samples around t, translation and scale
 * lerped, rotation nlerped (the grid is fine enough that slerp and nlerp
 * agree to well within the compression's error). */
static void sample_packed(const clip_packed *p, size_t track, float t, rune_key_sample *out)
{
    uint32_t i0, i1;
    float u;
    pack_locate(p, t, &i0, &i1, &u);
    rune__pack_track_sample(p, track, i0, out);
    if (i1 == i0)
        return;
    rune_key_sample b;
    rune__pack_track_sample(p, track, i1, &b);
    out->t = rune_v3_lerp(out->t, b.t, u);
    out->r = rune_q_nlerp(out->r, b.r, u);
    out->s = rune_v3_lerp(out->s, b.s, u);
}

void rune_clip_sample_track(const rune_clip *c, size_t track, float t, rune_key_sample *out)
{
    if (c->packed) {
        sample_packed(c->packed, track, t, out);
        return;
    }
    const clip_track *tr = &c->tracks[track];
    size_t first = tr->first_key, end = first + tr->key_count;
    size_t b = first_at_or_after(c->key_time, first, end, t);
    if (b == end) {
        take_key(c, end - 1, out); /* past the last key: hold it */
    } else if (b == first || c->key_time[b] == t) {
        take_key(c, b, out); /* before the first key, or exactly on a key */
    } else {
        size_t a = b - 1;
        /* keys are strictly increasing after compile, so span > 0 */
        float u = (t - c->key_time[a]) / (c->key_time[b] - c->key_time[a]);
        float e = rune_ease((rune_easing_style)c->key_style[b], (rune_easing_dir)c->key_dir[b], u);
        out->t = rune_v3_lerp(c->key_t[a], c->key_t[b], e);
        out->r = rune_q_slerp(c->key_r[a], c->key_r[b], e);
        out->weight = c->key_weight[a] + (c->key_weight[b] - c->key_weight[a]) * e;
        out->mask_weight = c->key_mask[a] + (c->key_mask[b] - c->key_mask[a]) * e;
        out->s = c->key_s ? rune_v3_lerp(c->key_s[a], c->key_s[b], e) : rune_v3(1.0f, 1.0f, 1.0f);
    }
    out->coverage = rune_clamp01(out->weight * (1.0f - out->mask_weight));
}

/* The key whose segment holds t: the last key at or before t, the first
 * key before it (and for a NaN t, which every comparison fails). `guess`
 * (relative to the track's first key) is tried first, then the key after
 * it; either is taken only where the search would find it. */
static size_t segment_key(const rune_clip *c, const clip_track *tr, float t, uint32_t guess)
{
    size_t first = tr->first_key, last = first + tr->key_count - 1;
    const float *times = c->key_time;
    for (size_t k = first + guess; k <= last && k <= first + (size_t)guess + 1; k++)
        if ((k == first || times[k] <= t) && (k == last || t < times[k + 1]))
            return k;
    size_t b = first_at_or_after(times, first, last + 1, t);
    return b <= last && times[b] == t ? b : (b == first ? first : b - 1);
}

void rune_clip_sample_transform_near(const rune_clip *c, size_t track, float t, uint32_t *key, rune_vec3 *translation,
                                     rune_quat *rotation)
{
    const clip_track *tr = c->packed || c->tracks[track].key_count == 0 ? NULL : &c->tracks[track];
    size_t k = tr ? segment_key(c, tr, t, *key) : 0;
    uint32_t seg = tr ? clip_first_seg(c, track) + (uint32_t)(k - tr->first_key) * c->seg_stride : 0;
    *key = tr ? (uint32_t)(k - tr->first_key) : 0;
    /* any_eased first: key_fast's entries of one track lie a row apart in
     * a time-major clip, so each read is a line of its own */
    if (!tr || (c->any_eased && !c->key_fast[seg])) { /* packed, eased or keyless */
        rune_key_sample s;
        rune_clip_sample_track(c, track, t, &s);
        *translation = s.t;
        *rotation = s.r;
        return;
    }
    const clip_segment *g = &c->segments[seg];
    float u = rune__segment_u(t, g->time, g->end); /* as the kernel does */
    *translation = rune_v3(g->x + g->dx * u, g->y + g->dy * u, g->z + g->dz * u);
    *rotation = rune__segment_rotation(u, g->q, g->v);
}

void rune_clip_sample_transform(const rune_clip *c, size_t track, float t, rune_vec3 *translation, rune_quat *rotation)
{
    uint32_t key = 0;
    rune_clip_sample_transform_near(c, track, t, &key, translation, rotation);
}
