/* Per-joint priority composition: weighted means per rank, overlaid from
 * the lowest rank up by each rank's coverage. Composition runs over chunks
 * of joints in structure-of-arrays form through the vectorized kernels of
 * mix_kernel.c, reading finished poses and writing the result in place;
 * only sampled tracks and the rank sums live on the stack. */
#include "rune/mix.h"
#include "mix_chunks.h"
#include "curve_mixer.h"
#include "../clip/sample_dest.h"
#include "mix_internal.h"

#include <string.h>

static int rank_of(const rune_contribution *c) { return rune_priority_clamp(c->priority); }

void rune_mix_overlay_joint(rune_pose *pose, size_t j, rune_vec3 t, rune_quat r, float coverage)
{
    float c = rune_clamp01(coverage);
    if (c <= 0.0f)
        return;
    if (c >= 1.0f) { /* a full overlay replaces: slerp(a, b, 1) is b */
        rune_pose_set(pose, j, t, r, 1.0f);
        return;
    }
    rune_pose_set_t(pose, j, rune_v3_lerp(rune_pose_t(pose, j), t, c));
    rune_pose_set_r(pose, j, rune_q_slerp(rune_pose_r(pose, j), r, c));
    pose->coverage[j] += c * (1.0f - pose->coverage[j]);
}

/* The view is written into `v`, not returned: a returned copy of a view
 * just passed by address reads it back in 16-byte pieces across its
 * 8-byte stores, which the core cannot forward (a stall a contribution
 * and chunk). */
void rune__mix_contribution_view(const rune_contribution *c, size_t first, size_t n, size_t lanes,
                                 rune_sample_chunk *scratch, mix_view *v)
{
    if (c->pose && c->pose->count >= first + n && c->pose->stride >= first + lanes) {
        *v = rune__pose_view(c->pose, first);
        return;
    }
    size_t got = 0;
    scratch->scaled = false;
    if (c->pose) { /* a pose shorter than the rig: copy what it has */
        const rune_pose *p = c->pose;
        got = p->count > first ? (p->count - first < n ? p->count - first : n) : 0;
        const float *from[11] = {p->tx, p->ty, p->tz, p->qx, p->qy, p->qz, p->qw, p->sx, p->sy, p->sz, p->coverage};
        float *const to[11] = {scratch->x,  scratch->y,  scratch->z,  scratch->qx, scratch->qy,      scratch->qz,
                               scratch->qw, scratch->sx, scratch->sy, scratch->sz, scratch->coverage};
        for (int k = 0; k < 11; k++)
            memcpy(to[k], from[k] + first, got * sizeof(float));
        scratch->scaled = p->scaled;
    } else if (c->track) {
        const rune_track *tr = c->track;
        got = rune_binding_sample_chunk(tr->binding, tr->cache, rune_track_sample_time(tr), first, n, scratch);
    }
    *v = rune__chunk_view(scratch);
    rune__mix_identity(v, got, lanes);
}

/* Stable insertion sort of contribution indexes by rank: lists are short. */
static void sort_by_rank(const rune_contribution *cs, size_t count, size_t *order)
{
    for (size_t i = 0; i < count; i++) {
        size_t k = i;
        while (k > 0 && rank_of(&cs[order[k - 1]]) > rank_of(&cs[i])) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
}

/* A track's row plan chunk for joints [first, first + n) -- when its
 * sampler has one, its sample would be those fields alone, the mixer's
 * kernels are the sampler's level (so they give what sampling gives: the
 * same bits without FMA, within the levels' 2 ulps with it) and the
 * binding has every lane of the chunk (none padded with the identity);
 * else false. */
static bool track_fields(const mix_kernels *k, const rune_track *tr, size_t first, size_t n, size_t lanes,
                         row_fields *rf)
{
    if (n != lanes || !tr->cache || rune_sample_cache_level(tr->cache) != k->level ||
        !rune_binding_sampler_matches(tr->binding, tr->cache) || rune_sample_cache_lane_count(tr->cache) < first + n)
        return false;
    return rune__sample_cache_fields(tr->cache, rune_track_sample_time(tr), first, rf);
}

bool rune__mix_accumulate_chunk(const mix_kernels *k, const rune_contribution *cs, const size_t *idx, size_t count,
                             size_t first, size_t n, size_t lanes, mix_lanes *sums, mix_view *acc)
{
    rune_sample_chunk scratch;
    bool started = false;
    *acc = rune__mix_sums_view(sums); /* unscaled until a scaled contribution arrives */
    for (size_t i = 0; i < count; i++) {
        const rune_contribution *c = &cs[idx ? idx[i] : i];
        if (!c->pose && !c->track)
            continue;
        /* two finished poses in one pass over the sums (the common case of
         * blend spaces and cross-fades): half the traffic */
        const rune_contribution *d = i + 1 < count ? &cs[idx ? idx[i + 1] : i + 1] : NULL;
        if (c->pose && d && d->pose && !c->pose->scaled && !d->pose->scaled && (!started || !acc->scaled)) {
            mix_view a = rune__pose_view(c->pose, first), b = rune__pose_view(d->pose, first);
            k->accumulate2(acc, &a, isfinite(c->weight) ? c->weight : 0.0f, &b, isfinite(d->weight) ? d->weight : 0.0f,
                           !started, lanes);
            acc->scaled = false;
            started = true;
            i++;
            continue;
        }
        row_fields rf;
        if (c->track && !c->pose && (!started || !acc->scaled) && track_fields(k, c->track, first, n, lanes, &rf)) {
            /* sampled straight into the sums: no chunk in between */
            k->accumulate_fields(sums, &rf, rune_track_sample_time(c->track), isfinite(c->weight) ? c->weight : 0.0f,
                                 !started, lanes);
            acc->scaled = false; /* an unscaled sample onto unscaled sums */
            started = true;
            continue;
        }
        mix_view v;
        rune__mix_contribution_view(c, first, n, lanes, &scratch, &v);
        k->accumulate(acc, &v, isfinite(c->weight) ? c->weight : 0.0f, !started, lanes);
        acc->scaled = (started && acc->scaled) || v.scaled;
        started = true;
    }
    return started;
}

void rune__pose_unscale(rune_pose *p, size_t from)
{
    if (!p->scaled)
        return;
    for (size_t i = from; i < p->stride; i++)
        p->sx[i] = p->sy[i] = p->sz[i] = 1.0f;
    p->scaled = false;
}

void rune_mix_mean(const rune_contribution *cs, size_t count, rune_simd_level level, rune_pose *out)
{
    const mix_kernels *k = rune__mix_kernels(level);
    rune__pose_unscale(out, 0);
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes sums;
        mix_view acc, o = rune__pose_view(out, first);
        if (!rune__mix_accumulate_chunk(k, cs, NULL, count, first, n, lanes, &sums, &acc)) {
            rune__mix_identity(&o, 0, lanes);
            continue;
        }
        k->mean(&acc, &o, lanes);
        out->scaled |= acc.scaled;
    }
    if (out->curve_count)
        rune__mix_curves_mean(cs, count, out);
}

void rune_mix_compose(const rune_contribution *cs, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out)
{
    const mix_kernels *k = rune__mix_kernels(level);
    sort_by_rank(cs, count, order);
    bool in_place = false;
    for (size_t i = 0; i < count; i++)
        in_place |= cs[i].pose == out;
    /* in place, a chunk's stale scale lanes are reset with its identity,
     * once the lowest rank has read them, and the pose keeps its flag
     * until the end (its views read it) */
    bool stale_scale = in_place && out->scaled, scaled = false;
    size_t covered = 0; /* lanes the chunks wrote */
    if (!in_place)
        rune__pose_unscale(out, 0);
    /* a frame's one contribution, in place (a character playing one
     * graph): chunks whose lanes are all taken whole or not at all skip
     * the sums (rune__mix_sole) */
    bool sole = count == 1 && in_place && !out->scaled;
    float sole_weight = sole && isfinite(cs[0].weight) ? cs[0].weight : 0.0f;
    /* joint chunks outermost: a chunk's sums and samples stay in L1 from
     * the first contribution to the result */
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        covered = first + lanes;
        mix_lanes sums, means;
        float wide[RUNE_SAMPLE_CHUNK];
        mix_view o = rune__pose_view(out, first), acc;
        if (sole && k->sole(&o, sole_weight, lanes))
            continue;
        o.scaled = stale_scale;
        bool reset = false;
        for (size_t lo = 0; lo < count;) {
            size_t hi = lo + 1;
            while (hi < count && rank_of(&cs[order[hi]]) == rank_of(&cs[order[lo]]))
                hi++;
            bool any = rune__mix_accumulate_chunk(k, cs, order + lo, hi - lo, first, n, lanes, &sums, &acc);
            if (!reset) /* the result starts at identity once the lowest rank is read */
                rune__mix_identity(&o, 0, lanes), reset = true;
            if (any) {
                mix_view mean = rune__lanes_view(&means, acc.scaled);
                k->mean(&acc, &mean, lanes);
                o.scaled = stale_scale || scaled;
                if (k->overlay(&mean, mean.c, mean.c, &o, wide, lanes))
                    rune__mix_overlay_wide(&mean, mean.c, &o, wide, lanes);
                scaled |= mean.scaled;
            }
            lo = hi;
        }
        if (!reset)
            rune__mix_identity(&o, 0, lanes);
    }
    if (stale_scale) /* the padding past the chunks' lanes */
        rune__pose_unscale(out, covered);
    out->scaled = scaled;
    if (out->curve_count)
        rune__mix_curves_compose(cs, count, order, out);
}
