/* Graph layers composed onto a pose over SoA chunks of joints: an override
 * layer overlays its pose by layer weight x mask x coverage (keeping the
 * result straight, see overlay_straight), an additive layer adds its
 * weighted delta from a reference pose. */
#include "mix_chunks.h"

/* The exact additive rotation for lanes of weight above 0 the kernel
 * flagged wide:
 * r = normalize(r * slerp(identity, normalize(r_ref^-1 r_layer), w)). */
static void add_wide(const mix_lanes *layer, const mix_lanes *ref, mix_lanes *o, const float *wide, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (wide[i] == 0.0f || !(layer->c[i] > 0.0f))
            continue;
        rune_quat delta = rune_q_normalize(rune_q_mul(rune_q_conjugate(rune_q(ref->qx[i], ref->qy[i], ref->qz[i], ref->qw[i])),
                                                      rune_q(layer->qx[i], layer->qy[i], layer->qz[i], layer->qw[i])));
        rune_quat r = rune_q_normalize(rune_q_mul(rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]),
                                                  rune_q_slerp(rune_q_identity(), delta, layer->c[i])));
        o->qx[i] = r.x, o->qy[i] = r.y, o->qz[i] = r.z, o->qw[i] = r.w;
    }
}

/* The override step. A graph's pose is kept straight: its transforms are
 * what the layers show where they cover, and its coverage how much they
 * cover, so that the mixer overlays it by that coverage once. Overlaying a
 * layer of weight w onto coverage c gives coverage c' = c + w (1 - c) and
 * moves the transform by w / c' (1 where nothing was covered yet: the
 * layer's own transform, not a blend with the identity storage default).
 * Overlaid in turn onto anything, that equals overlaying the layers one by
 * one: lerp(b, T', c') = lerp(lerp(b, T, c), t, w). */
static void overlay_straight(const mix_kernels *k, mix_lanes *l, mix_lanes *o, float *wide, size_t lanes)
{
    float cover[RUNE_SAMPLE_CHUNK];
    for (size_t i = 0; i < lanes; i++) {
        float w = l->c[i], c = o->c[i] + w * (1.0f - o->c[i]);
        cover[i] = c;
        l->c[i] = c > 0.0f ? rune_clamp01(w / c) : 0.0f;
    }
    if (k->overlay(l, o, wide, lanes))
        rune__mix_overlay_wide(l, o, wide, lanes);
    for (size_t i = 0; i < lanes; i++)
        o->c[i] = cover[i];
}

void rune_mix_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, const float *mask,
                    float layer_weight, rune_simd_level level)
{
    mix_kernels k = rune__mix_kernels(level);
    float lw = isfinite(layer_weight) ? layer_weight : 0.0f;
    for (size_t first = 0; first < out->count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = out->count - first < RUNE_SAMPLE_CHUNK ? out->count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        mix_lanes o, l, r;
        float wide[RUNE_SAMPLE_CHUNK];
        rune__mix_load_lanes(out, first, n, lanes, &o);
        rune__mix_load_lanes(layer, first, n, lanes, &l);
        /* the layer's coverage becomes each joint's weight in the layer */
        for (size_t i = 0; i < lanes; i++)
            l.c[i] = rune_clamp01(lw * (mask && i < n ? mask[first + i] : 1.0f) * l.c[i]);
        if (ref) {
            rune__mix_load_lanes(ref, first, n, lanes, &r);
            if (k.add(&o, &l, &r, wide, lanes))
                add_wide(&l, &r, &o, wide, lanes);
        } else {
            overlay_straight(&k, &l, &o, wide, lanes);
        }
        rune__mix_store_lanes(&o, first, n, out);
    }
}
