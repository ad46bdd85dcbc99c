/* The compressor's input: the clip's time grid (every key on one uniform
 * grid, linear, constant weights, or why not), its tracks sampled on the
 * grid, constant channels told from animated ones, each rotation's
 * dropped component per segment and every subtrack's clip range. */
#include "compress_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The grid every key of the clip lies on, or a message saying why not. */
rune_status rune__compress_find_grid(planner *p, rune_error *err)
{
    const rune_clip *c = p->clip;
    const char *id = rune_clip_describe(c).id;
    size_t longest = 0, most = 0;
    double first = INFINITY, last = -INFINITY, gap = INFINITY;
    for (size_t t = 0; t < p->tracks; t++) {
        size_t n = rune_clip_track(c, t).key_count;
        rune_key_pose_desc k0;
        float time;
        rune_clip_track_key(c, t, 0, &time, &k0);
        first = time < first ? time : first;
        float before = time;
        for (size_t k = 0; k < n; k++) {
            rune_key_pose_desc d;
            rune_clip_track_key(c, t, k, &time, &d);
            last = time > last ? time : last;
            if (k > 0 && time - before < gap)
                gap = (double)time - before;
            before = time;
            if (k > 0 && d.easing != RUNE_EASE_LINEAR)
                return rune_fail(err, RUNE_E_INVALID,
                                 "clip \"%s\": track %s/%s key %zu is eased: only linear keys compress", id, d.parent,
                                 d.part, k);
            if (d.weight != k0.weight || d.mask_weight != k0.mask_weight)
                return rune_fail(err, RUNE_E_INVALID,
                                 "clip \"%s\": track %s/%s: its weight or mask weight changes: compressed tracks "
                                 "keep them constant",
                                 id, d.parent, d.part);
        }
        if (n > most)
            most = n, longest = t;
    }
    if (p->tracks == 0 || most < 2) {
        p->t0 = p->tracks ? (float)first : 0.0f, p->dt = 1.0f, p->samples = 1;
        return RUNE_OK;
    }
    /* the step: the smallest gap between keys, refined over a long span
     * (a single gap late in a clip carries the rounding of its times):
     * the longest track's, when it is uniform, else the whole clip's */
    float a, b;
    rune_key_pose_desc d;
    rune_clip_track_key(c, longest, 0, &a, &d);
    rune_clip_track_key(c, longest, most - 1, &b, &d);
    if (!(gap > 0.0) || !isfinite(gap) || !((last - first) / gap < PACK_MAX_SAMPLES))
        return rune_fail(err, RUNE_E_INVALID, "clip \"%s\": no usable time step between keys", id);
    double dt = fabs(((double)b - a) / gap - (double)(most - 1)) < 0.01 * (double)(most - 1)
                    ? ((double)b - a) / (double)(most - 1)
                    : (last - first) / floor((last - first) / gap + 0.5);
    double steps = (last - first) / dt;
    if (steps + 1.0 > PACK_MAX_SAMPLES)
        return rune_fail(err, RUNE_E_INVALID, "clip \"%s\": %.0f samples, more than %u", id, steps + 1.0,
                         PACK_MAX_SAMPLES);
    for (size_t t = 0; t < p->tracks; t++) {
        size_t n = rune_clip_track(c, t).key_count;
        for (size_t k = 0; n > 1 && k < n; k++) {
            float time;
            rune_clip_track_key(c, t, k, &time, &d);
            double at = (time - first) / dt;
            if (fabs(at - floor(at + 0.5)) > 0.01)
                return rune_fail(err, RUNE_E_INVALID,
                                 "clip \"%s\": track %s/%s key %zu at %g s is off the grid of %g s steps from %g s: "
                                 "only uniformly sampled clips compress",
                                 id, d.parent, d.part, k, (double)time, dt, first);
        }
    }
    p->t0 = (float)first;
    p->dt = (float)dt;
    p->samples = (size_t)floor(steps + 0.5) + 1;
    return RUNE_OK;
}

/* Every track sampled on the grid (rotations with w >= 0): its keys
 * where it has one a sample, as the sampler finds them at their own
 * times (t0 + i dt in float is not exactly a key's time). */
void rune__compress_sample_exact(planner *p)
{
    for (size_t t = 0; t < p->tracks; t++)
        for (size_t i = 0; i < p->samples; i++) {
            rune_key_sample s;
            float time = p->t0 + (float)i * p->dt;
            if (rune_clip_track(p->clip, t).key_count == p->samples) {
                rune_key_pose_desc key;
                rune_clip_track_key(p->clip, t, i, &time, &key);
            }
            rune_clip_sample_track(p->clip, t, time, &s);
            if (s.r.w < 0.0f)
                s.r = rune_q_negate(s.r);
            float *v = &p->val[(t * p->samples + i) * V_COUNT];
            float x[V_COUNT] = {s.r.x, s.r.y, s.r.z, s.r.w, s.t.x, s.t.y, s.t.z, s.s.x, s.s.y, s.s.z};
            memcpy(v, x, sizeof x);
        }
}

/* Constant channels (every sample equal to within float noise) keep one
 * exact value; the others become subtracks. (Rotations: x, y, z equal
 * with w >= 0 means w equal too.) */
size_t rune__compress_classify(planner *p, bool fill)
{
    size_t subs = 0;
    for (size_t t = 0; t < p->tracks; t++) {
        const float *v0 = rune__compress_value(p, t, 0);
        packed_track *k = &p->packed[t];
        rune_key_pose_desc d;
        float time;
        rune_clip_track_key(p->clip, t, 0, &time, &d);
        *k = (packed_track){{PACK_CONSTANT, PACK_CONSTANT, PACK_CONSTANT}, d.weight, d.mask_weight,
                            rune_q(v0[V_RX], v0[V_RY], v0[V_RZ], v0[V_RW]), rune_v3(v0[V_TX], v0[V_TY], v0[V_TZ]),
                            rune_v3(v0[V_SX], v0[V_SY], v0[V_SZ])};
        for (int ch = 0; ch < PACK_CHANNELS; ch++) {
            int f = channel_first[ch];
            float lo[3], hi[3];
            bool constant = true;
            for (int c = 0; c < 3; c++) {
                lo[c] = hi[c] = v0[f + c];
                for (size_t i = 1; i < p->samples; i++) {
                    float x = rune__compress_value(p, t, i)[f + c];
                    lo[c] = x < lo[c] ? x : lo[c];
                    hi[c] = x > hi[c] ? x : hi[c];
                }
                float mag = fabsf(lo[c]) > fabsf(hi[c]) ? fabsf(lo[c]) : fabsf(hi[c]);
                constant &= hi[c] - lo[c] <= 1e-7f * (mag > 1.0f ? mag : 1.0f);
            }
            if (constant)
                continue;
            if (fill) {
                k->sub[ch] = (uint32_t)subs;
                p->sub[subs] = (sub_info){(uint32_t)t, ch};
            }
            subs++;
        }
    }
    return subs;
}

/* Stored value c (0..2) of subtrack a at sample i of segment g: a
 * rotation's components other than the segment's dropped one, the
 * quaternion's sign making that one positive. */
float rune__compress_stored(const planner *p, size_t a, size_t g, size_t i, unsigned c)
{
    const sub_info *s = &p->sub[a];
    const float *v = rune__compress_value(p, s->track, i) + channel_first[s->ch];
    if (s->ch != PACK_ROT)
        return v[c];
    unsigned d = p->drop[g * p->subs + a];
    return v[d] < 0.0f ? -v[pack_kept(d, c)] : v[pack_kept(d, c)];
}

/* The range component stored value c of subtrack a uses in segment g. */
unsigned rune__compress_range_index(const planner *p, size_t a, size_t g, unsigned c)
{
    return p->sub[a].ch == PACK_ROT ? pack_kept(p->drop[g * p->subs + a], c) : c;
}

size_t rune__compress_segment_end(const planner *p, size_t g)
{
    return g * PACK_SEGMENT + PACK_SEGMENT < p->samples ? g * PACK_SEGMENT + PACK_SEGMENT : p->samples;
}

/* Each rotation subtrack's dropped component per segment (the one whose
 * smallest magnitude over the segment is largest), then every
 * subtrack's clip range over what it stores. */
void rune__compress_choose_ranges(planner *p)
{
    for (size_t a = 0; a < p->subs; a++) {
        const sub_info *s = &p->sub[a];
        float *r = &p->range[a * PACK_RANGE];
        float lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        for (size_t g = 0; g < p->segments; g++) {
            unsigned best = 3;
            if (s->ch == PACK_ROT) {
                float most = -1.0f;
                for (unsigned c = 0; c < 4; c++) {
                    float least = INFINITY;
                    for (size_t i = g * PACK_SEGMENT; i < rune__compress_segment_end(p, g); i++) {
                        float m = fabsf(rune__compress_value(p, s->track, i)[V_RX + c]);
                        least = m < least ? m : least;
                    }
                    if (least > most)
                        most = least, best = c;
                }
            }
            p->drop[g * p->subs + a] = (uint8_t)best;
            for (size_t i = g * PACK_SEGMENT; i < rune__compress_segment_end(p, g); i++)
                for (unsigned c = 0; c < 3; c++) {
                    unsigned x = rune__compress_range_index(p, a, g, c);
                    float v = rune__compress_stored(p, a, g, i, c);
                    lo[x] = v < lo[x] ? v : lo[x];
                    hi[x] = v > hi[x] ? v : hi[x];
                }
        }
        for (unsigned x = 0; x < 4; x++) {
            r[x] = lo[x] <= hi[x] ? lo[x] : 0.0f;
            r[4 + x] = lo[x] <= hi[x] ? hi[x] - lo[x] : 0.0f;
        }
    }
}
