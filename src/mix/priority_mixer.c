/* Per-joint priority composition: weighted means per rank, overlaid from the
 * lowest rank up by each rank's coverage. Composition runs over chunks of
 * joints in structure-of-arrays form through the vectorized kernels of
 * mix_kernel.c, as do the weighted means of blend spaces and cross-fades;
 * the per-joint overlay serves graph layers. */
#include "rune/mix.h"
#include "mix_chunks.h"

#include <string.h>

static int rank_of(const rune_contribution *c) { return rune_priority_clamp(c->priority); }

void rune_mix_overlay_joint(rune_pose *pose, size_t j, rune_vec3 t, rune_quat r, float coverage)
{
    float c = rune_clamp01(coverage);
    if (c <= 0.0f)
        return;
    if (c >= 1.0f) { /* a full overlay replaces: slerp(a, b, 1) is b */
        pose->t[j] = t;
        pose->r[j] = r;
        pose->coverage[j] = 1.0f;
        return;
    }
    pose->t[j] = rune_v3_lerp(pose->t[j], t, c);
    pose->r[j] = rune_q_slerp(pose->r[j], r, c);
    pose->coverage[j] += c * (1.0f - pose->coverage[j]);
}


/* A contribution's joints [first, first + n) as a chunk; lanes up to
 * `lanes` (the padded count) past what it covers get coverage 0. */
static void contribution_chunk(const rune_contribution *c, size_t first, size_t n, size_t lanes,
                               rune_sample_chunk *s)
{
    size_t got = 0;
    if (c->pose) {
        float *const lane[8] = {s->x, s->y, s->z, s->qx, s->qy, s->qz, s->qw, s->coverage};
        got = rune__mix_load_pose(c->pose, first, n, lane);
    } else if (c->track) {
        const rune_track *tr = c->track;
        got = rune_binding_sample_chunk(tr->binding, tr->cache, rune_track_sample_time(tr), first, n, s);
    }
    static const rune_key_sample unkeyed = {{0, 0, 0}, {0, 0, 0, 1}, 0, 0, 0}; /* the storage default */
    for (size_t i = got; i < lanes; i++)
        rune_sample_chunk_set(s, i, &unkeyed);
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

/* The sums of one chunk of joints over contributions cs[idx[0..count)]
 * (idx NULL: all of cs[0..count)). */
static void accumulate_chunk(const mix_kernels *k, const rune_contribution *cs, const size_t *idx, size_t count,
                             size_t first, size_t n, size_t lanes, mix_lanes *acc)
{
    rune_sample_chunk s;
    memset(acc, 0, sizeof *acc);
    for (size_t i = 0; i < count; i++) {
        const rune_contribution *c = &cs[idx ? idx[i] : i];
        if (!c->pose && !c->track)
            continue;
        contribution_chunk(c, first, n, lanes, &s);
        k->accumulate(acc, &s, isfinite(c->weight) ? c->weight : 0.0f, lanes);
    }
}

void rune_mix_mean(const rune_contribution *cs, size_t count, rune_simd_level level, rune_pose *out)
{
    mix_kernels k = rune__mix_kernels(level);
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes acc, mean;
        accumulate_chunk(&k, cs, NULL, count, first, n, lanes, &acc);
        k.mean(&acc, &mean, lanes);
        rune__mix_store_lanes(&mean, first, n, out);
    }
}

void rune_mix_compose(const rune_contribution *cs, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out)
{
    mix_kernels k = rune__mix_kernels(level);
    sort_by_rank(cs, count, order);
    /* joint chunks outermost: a chunk's sums, samples and result stay in L1
     * from the first contribution to the store */
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes o, acc, mean;
        float wide[RUNE_SAMPLE_CHUNK];
        rune__mix_identity_lanes(&o, 0, lanes);
        for (size_t lo = 0; lo < count;) {
            size_t hi = lo + 1;
            while (hi < count && rank_of(&cs[order[hi]]) == rank_of(&cs[order[lo]]))
                hi++;
            accumulate_chunk(&k, cs, order + lo, hi - lo, first, n, lanes, &acc);
            k.mean(&acc, &mean, lanes);
            if (k.overlay(&mean, &o, wide, lanes))
                rune__mix_overlay_wide(&mean, &o, wide, lanes);
            lo = hi;
        }
        rune__mix_store_lanes(&o, first, n, out);
    }
}
