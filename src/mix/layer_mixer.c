/* Graph layers composed onto a pose over SoA chunks of joints: an override
 * layer overlays its pose by layer weight x mask x coverage, an additive
 * layer adds its weighted delta from a reference pose. */
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
        } else if (k.overlay(&l, &o, wide, lanes)) {
            rune__mix_overlay_wide(&l, &o, wide, lanes);
        }
        rune__mix_store_lanes(&o, first, n, out);
    }
}
