/* Graph layers composed onto a pose in place over chunks of joints: an
 * override layer overlays its pose by layer weight x mask x coverage
 * (keeping the result straight, see overlay_straight), an additive layer
 * adds its weighted delta from a reference pose. */
#include "mix_chunks.h"
#include "curve_mixer.h"
#include "mix_internal.h"

/* The exact additive rotation for lanes of weight above 0 the kernel
 * flagged wide:
 * r = normalize(r * slerp(identity, normalize(r_ref^-1 r_layer), w)). */
static void add_wide(const mix_view *layer, const mix_view *ref, const mix_view *o, const float *w, const float *wide,
                     size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (wide[i] == 0.0f || !(w[i] > 0.0f))
            continue;
        rune_quat delta = rune_q_normalize(rune_q_mul(rune_q_conjugate(rune_q(ref->qx[i], ref->qy[i], ref->qz[i], ref->qw[i])),
                                                      rune_q(layer->qx[i], layer->qy[i], layer->qz[i], layer->qw[i])));
        rune_quat r = rune_q_normalize(rune_q_mul(rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]),
                                                  rune_q_slerp(rune_q_identity(), delta, w[i])));
        o->qx[i] = r.x, o->qy[i] = r.y, o->qz[i] = r.z, o->qw[i] = r.w;
    }
}

/* One past the last joint a mask lets a layer weigh on (mask > 0; NULL:
 * all `count`): joints past it weigh 0 there, so the layer leaves them as
 * they are and need not be sampled or mixed. An upper-body mask on a rig
 * listed depth-first ends well before the legs. */
static size_t mask_end(const float *mask, size_t count)
{
    while (mask && count > 0 && !(mask[count - 1] > 0.0f))
        count--;
    return count;
}

/* The override step. A graph's pose is kept straight: its transforms are
 * what the layers show where they cover, and its coverage how much they
 * cover, so that the mixer overlays it by that coverage once. Overlaying a
 * layer of weight w onto coverage c gives coverage c' = c + w (1 - c) and
 * moves the transform by w / c' (1 where nothing was covered yet: the
 * layer's own transform, not a blend with the identity storage default).
 * Overlaid in turn onto anything, that equals overlaying the layers one by
 * one: lerp(b, T', c') = lerp(lerp(b, T, c), t, w). */
static void overlay_straight(const mix_kernels *k, const mix_view *l, const float *w, const mix_view *o, size_t lanes)
{
    float f[RUNE_SAMPLE_CHUNK], wide[RUNE_SAMPLE_CHUNK];
    k->straight_factors(o->c, w, f, lanes);
    if (k->overlay(l, f, w, o, wide, lanes))
        rune__mix_overlay_wide(l, f, o, wide, lanes);
}

/* overlay_straight of a layer's chunk l by layer weight x mask x its
 * coverage (the mask from the chunk's first joint; NULL: 1). */
static void overlay_masked(const mix_kernels *k, const mix_view *l, const float *mask, float lw, size_t n,
                           size_t lanes, const mix_view *o)
{
    float w[RUNE_SAMPLE_CHUNK];
    k->layer_weights(lw, mask, l->c, n, lanes, w);
    overlay_straight(k, l, w, o, lanes);
}

void rune_mix_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, const float *mask,
                    float layer_weight, rune_simd_level level)
{
    const mix_kernels *k = rune__mix_kernels(level);
    float lw = isfinite(layer_weight) ? layer_weight : 0.0f;
    size_t count = out->count < layer->count ? out->count : layer->count;
    if (ref && ref->count < count)
        count = ref->count;
    count = mask_end(mask, count);
    for (size_t first = 0; first < count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = count - first < RUNE_SAMPLE_CHUNK ? count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_view o = rune__pose_view(out, first), l = rune__pose_view(layer, first);
        if (!ref) {
            overlay_masked(k, &l, mask ? mask + first : NULL, lw, n, lanes, &o);
            continue;
        }
        /* the layer's coverage becomes each joint's weight in the layer;
         * padding lanes weigh nothing */
        float w[RUNE_SAMPLE_CHUNK], wide[RUNE_SAMPLE_CHUNK];
        k->layer_weights(lw, mask ? mask + first : NULL, l.c, n, lanes, w);
        mix_view r = rune__pose_view(ref, first);
        if (k->add(&o, &l, &r, w, wide, lanes))
            add_wide(&l, &r, &o, w, wide, lanes);
    }
    out->scaled |= layer->scaled || (ref && ref->scaled);
    if (out->curve_count)
        rune__mix_curves_layer(out, layer, ref, lw);
}

void rune_mix_layer_mean(rune_pose *out, const rune_contribution *cs, size_t count, const float *mask,
                         float layer_weight, rune_simd_level level)
{
    const mix_kernels *k = rune__mix_kernels(level);
    float lw = isfinite(layer_weight) ? layer_weight : 0.0f;
    size_t joints = mask_end(mask, out->count);
    for (size_t first = 0; first < joints; first += RUNE_SAMPLE_CHUNK) {
        size_t n = joints - first < RUNE_SAMPLE_CHUNK ? joints - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes sums, means;
        mix_view acc, o = rune__pose_view(out, first);
        /* rune_mix_mean's chunk, on the stack: the same kernels, so the
         * same bits as the mean written to a pose and laid from there */
        bool any = rune__mix_accumulate_chunk(k, cs, NULL, count, first, n, lanes, &sums, &acc);
        mix_view mean = rune__lanes_view(&means, any && acc.scaled);
        if (any)
            k->mean(&acc, &mean, lanes);
        else
            rune__mix_identity(&mean, 0, lanes);
        overlay_masked(k, &mean, mask ? mask + first : NULL, lw, n, lanes, &o);
        out->scaled |= mean.scaled;
    }
    if (out->curve_count)
        rune__mix_curves_layer_mean(out, cs, count, lw);
}

bool rune_fade_side_unscaled(rune_fade_side side)
{
    if (side.pose)
        return !side.pose->scaled;
    for (size_t i = 0; i < side.count; i++) {
        const rune_contribution *c = &side.contributions[i];
        if (c->pose ? c->pose->scaled : c->track && rune_clip_has_scale(c->track->clip))
            return false;
    }
    return true;
}

/* A fade side's chunk [first, first + n): its pose's lanes (a pose with
 * fewer joints: what it has, copied into `scratch`, the rest the identity
 * at coverage 0), or its contributions' mean on the stack (rune_mix_mean's,
 * as the steady layer of rune_mix_layer_mean makes it). */
static mix_view side_chunk(const mix_kernels *k, const rune_fade_side *side, size_t first, size_t n, size_t lanes,
                           mix_lanes *sums, mix_lanes *means, rune_sample_chunk *scratch)
{
    mix_view v;
    if (side->pose) {
        rune_contribution c = {side->pose, 1.0f, 0, NULL};
        rune__mix_contribution_view(&c, first, n, lanes, scratch, &v);
        return v;
    }
    bool any = rune__mix_accumulate_chunk(k, side->contributions, NULL, side->count, first, n, lanes, sums, &v);
    mix_view mean = rune__lanes_view(means, any && v.scaled); /* unscaled, as the caller checks */
    if (any)
        k->mean(&v, &mean, lanes);
    else
        rune__mix_identity(&mean, 0, lanes);
    return mean;
}

void rune_mix_fade_layer(rune_pose *out, rune_pose *last, rune_fade_side a, rune_fade_side b, float alpha,
                         const float *mask, float layer_weight, rune_simd_level level)
{
    const mix_kernels *k = rune__mix_kernels(level);
    float lw = isfinite(layer_weight) ? layer_weight : 0.0f;
    float wa = isfinite(1.0f - alpha) ? 1.0f - alpha : 0.0f, wb = isfinite(alpha) ? alpha : 0.0f;
    rune__pose_unscale(last, 0);
    size_t laid = out ? mask_end(mask, out->count < last->count ? out->count : last->count) : 0;
    for (size_t first = 0; first < last->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = last->count - first < RUNE_SAMPLE_CHUNK ? last->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes sums, mean_a, mean_b;
        rune_sample_chunk scratch_a, scratch_b; /* a side pose with fewer joints */
        mix_view va = side_chunk(k, &a, first, n, lanes, &sums, &mean_a, &scratch_a);
        mix_view vb = side_chunk(k, &b, first, n, lanes, &sums, &mean_b, &scratch_b);
        /* rune_mix_mean of the two finished, unscaled sides: one pass over
         * both (rune__mix_accumulate_chunk's pair) */
        mix_view acc = rune__mix_sums_view(&sums);
        k->accumulate2(&acc, &va, wa, &vb, wb, true, lanes);
        mix_view l = rune__pose_view(last, first);
        k->mean(&acc, &l, lanes);
        if (first >= laid)
            continue;
        /* rune_mix_layer's chunk: the same lanes where the mask ends in it */
        size_t m = laid - first < RUNE_SAMPLE_CHUNK ? laid - first : RUNE_SAMPLE_CHUNK;
        size_t mlanes = kernel_lanes(m);
        mix_view o = rune__pose_view(out, first);
        overlay_masked(k, &l, mask ? mask + first : NULL, lw, m, mlanes, &o);
    }
    if (out && out->curve_count)
        rune__mix_curves_layer(out, last, NULL, lw);
}

/* The overlay of overlay_straight onto coverage 0 takes the layer's
 * transform wherever w > 0 (f = w / w = 1), keeps the reset's identity
 * elsewhere, and leaves coverage w: that, lane by lane, over the whole
 * stride (padding lanes end as a reset leaves them). */
void rune_mix_layer_onto_reset(rune_pose *pose, const float *mask, float layer_weight)
{
    float lw = isfinite(layer_weight) ? layer_weight : 0.0f;
    const mix_kernels *k = rune__mix_kernels(RUNE_SIMD_AUTO);
    /* most lanes are covered (a base layer's): the others, if any, and
     * the padding are set to identity */
    size_t uncovered = k->layer_weights(lw, mask, pose->coverage, pose->count, pose->stride, pose->coverage);
    for (size_t i = uncovered ? 0 : pose->count; i < pose->stride; i++) {
        if (pose->coverage[i] > 0.0f)
            continue;
        pose->tx[i] = pose->ty[i] = pose->tz[i] = 0.0f;
        pose->qx[i] = pose->qy[i] = pose->qz[i] = 0.0f;
        pose->qw[i] = pose->sx[i] = pose->sy[i] = pose->sz[i] = 1.0f;
    }
    for (size_t i = 0; i < pose->curve_count; i++) {
        float w = rune_clamp01(lw * pose->curve_cov[i]);
        /* 0 + v, as the overlay computes it: a -0 value becomes +0 */
        pose->curve[i] = w > 0.0f ? 0.0f + pose->curve[i] : 0.0f;
        pose->curve_cov[i] = w;
    }
}
