/* Per-joint priority composition: weighted means per rank, overlaid from the
 * lowest rank up by each rank's coverage. Composition runs over chunks of
 * joints in structure-of-arrays form through the vectorized kernels of
 * mix_kernel.c; the per-joint helpers below serve graph layers and blend
 * spaces, which work on whole poses. */
#include "rune/mix.h"
#include "mix_kernel.h"

#include <string.h>

static int rank_of(const rune_contribution *c)
{
    int p = c->priority;
    return p < 0 ? 0 : (p >= RUNE_PRIORITY_COUNT ? RUNE_PRIORITY_COUNT - 1 : p);
}

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

void rune_mix_accum_reset(rune_pose *acc)
{
    for (size_t j = 0; j < acc->count; j++) {
        acc->t[j] = rune_v3(0.0f, 0.0f, 0.0f);
        acc->r[j] = rune_q(0.0f, 0.0f, 0.0f, 0.0f);
        acc->coverage[j] = 0.0f;
    }
}

void rune_mix_accumulate(rune_pose *acc, const rune_pose *pose, float weight)
{
    float w = isfinite(weight) ? weight : 0.0f;
    size_t n = acc->count < pose->count ? acc->count : pose->count;
    for (size_t j = 0; j < n; j++) {
        float s = rune_clamp01(w * pose->coverage[j]);
        rune_quat q = pose->r[j];
        rune_quat *a = &acc->r[j];
        /* flip q into the running sum's hemisphere; a select, not a branch */
        float ss = rune_q_dot(*a, q) < 0.0f ? -s : s;
        a->x += ss * q.x;
        a->y += ss * q.y;
        a->z += ss * q.z;
        a->w += ss * q.w;
        acc->t[j].x += s * pose->t[j].x;
        acc->t[j].y += s * pose->t[j].y;
        acc->t[j].z += s * pose->t[j].z;
        acc->coverage[j] += s;
    }
}

/* Mean of joint j of an accumulator; false when nothing covered it. */
static bool joint_mean(const rune_pose *acc, size_t j, rune_vec3 *t, rune_quat *r, float *c)
{
    float sum = acc->coverage[j];
    if (!(sum > 0.0f))
        return false;
    *t = rune_v3_scale(acc->t[j], 1.0f / sum);
    *r = rune_q_normalize(acc->r[j]);
    *c = sum > 1.0f ? 1.0f : sum;
    return true;
}

void rune_mix_accum_mean(const rune_pose *acc, rune_pose *out)
{
    size_t n = acc->count < out->count ? acc->count : out->count;
    for (size_t j = 0; j < n; j++) {
        if (!joint_mean(acc, j, &out->t[j], &out->r[j], &out->coverage[j])) {
            out->t[j] = rune_v3(0.0f, 0.0f, 0.0f);
            out->r[j] = rune_q_identity();
            out->coverage[j] = 0.0f;
        }
    }
}

/* The mixing kernels of one instruction set. */
typedef struct mix_kernels {
    void (*accumulate)(mix_lanes *, const rune_sample_chunk *, float, size_t);
    size_t (*overlay)(const mix_lanes *, mix_lanes *, float *, size_t);
} mix_kernels;

static mix_kernels kernels_for(rune_simd_level level)
{
#if defined(RUNE_HAVE_X86_KERNELS)
    if (level == RUNE_SIMD_AVX2)
        return (mix_kernels){rune__mix_accumulate_avx2, rune__mix_overlay_avx2};
    if (level == RUNE_SIMD_SSE2)
        return (mix_kernels){rune__mix_accumulate_sse2, rune__mix_overlay_sse2};
#endif
    (void)level;
    return (mix_kernels){rune__mix_accumulate_scalar, rune__mix_overlay_scalar};
}

/* Lane i of a chunk: identity with coverage 0 (unkeyed storage default). */
static void clear_lane(rune_sample_chunk *s, size_t i)
{
    s->x[i] = s->y[i] = s->z[i] = 0.0f;
    s->qx[i] = s->qy[i] = s->qz[i] = 0.0f;
    s->qw[i] = 1.0f;
    s->weight[i] = s->mask[i] = s->coverage[i] = 0.0f;
}

/* A contribution's joints [first, first + n) as a chunk; lanes up to
 * `lanes` (the padded count) past what it covers get coverage 0. */
static void contribution_chunk(const rune_contribution *c, size_t first, size_t n, size_t lanes,
                               rune_sample_chunk *s)
{
    size_t got = 0;
    if (c->pose) {
        const rune_pose *p = c->pose;
        got = p->count > first ? p->count - first : 0;
        got = got < n ? got : n;
        for (size_t i = 0; i < got; i++) {
            size_t j = first + i;
            s->x[i] = p->t[j].x, s->y[i] = p->t[j].y, s->z[i] = p->t[j].z;
            s->qx[i] = p->r[j].x, s->qy[i] = p->r[j].y, s->qz[i] = p->r[j].z, s->qw[i] = p->r[j].w;
            s->coverage[i] = p->coverage[j];
        }
    } else if (c->track) {
        const rune_track *tr = c->track;
        got = rune_binding_sample_chunk(tr->binding, tr->cache, tr->time, first, n, s);
    }
    for (size_t i = got; i < lanes; i++)
        clear_lane(s, i);
}

static void identity_lanes(mix_lanes *o, size_t lanes)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < lanes; i++)
        o->qw[i] = 1.0f;
}

/* The exact slerp for lanes whose rotations are far apart (rare: only
 * partial coverage over a very different pose below). */
static void overlay_wide(const mix_lanes *acc, mix_lanes *o, const float *wide, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!wide[i])
            continue;
        rune_quat mean = rune_q_normalize(rune_q(acc->qx[i], acc->qy[i], acc->qz[i], acc->qw[i]));
        rune_quat r = rune_q_slerp(rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]), mean, rune_clamp01(acc->c[i]));
        o->qx[i] = r.x, o->qy[i] = r.y, o->qz[i] = r.z, o->qw[i] = r.w;
    }
}

static void store_lanes(const mix_lanes *o, size_t first, size_t n, rune_pose *out)
{
    for (size_t i = 0; i < n; i++) {
        out->t[first + i] = rune_v3(o->x[i], o->y[i], o->z[i]);
        out->r[first + i] = rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]);
        out->coverage[first + i] = o->c[i];
    }
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

void rune_mix_compose(const rune_contribution *cs, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out)
{
    mix_kernels k = kernels_for(rune_simd_resolve(level));
    sort_by_rank(cs, count, order);
    /* joint chunks outermost: a chunk's sums, samples and result stay in L1
     * from the first contribution to the store */
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = (n + MIX_LANE_PAD - 1) / MIX_LANE_PAD * MIX_LANE_PAD;
        mix_lanes o, acc;
        rune_sample_chunk s;
        float wide[RUNE_SAMPLE_CHUNK];
        identity_lanes(&o, lanes);
        for (size_t lo = 0; lo < count;) {
            size_t hi = lo + 1;
            while (hi < count && rank_of(&cs[order[hi]]) == rank_of(&cs[order[lo]]))
                hi++;
            memset(&acc, 0, sizeof acc);
            for (size_t i = lo; i < hi; i++) {
                const rune_contribution *c = &cs[order[i]];
                if (!c->pose && !c->track)
                    continue;
                contribution_chunk(c, first, n, lanes, &s);
                k.accumulate(&acc, &s, isfinite(c->weight) ? c->weight : 0.0f, lanes);
            }
            if (k.overlay(&acc, &o, wide, lanes))
                overlay_wide(&acc, &o, wide, lanes);
            lo = hi;
        }
        store_lanes(&o, first, n, out);
    }
}
