/* The mixers' shared plumbing: picking the kernels of an instruction set,
 * views of chunks of joints, and the exact slerp for the few lanes the
 * overlay kernel leaves. */
#include "mix_chunks.h"

#include <string.h>

mix_kernels rune__mix_kernels(rune_simd_level level)
{
    switch (rune_simd_resolve(level)) {
#if defined(RUNE_HAVE_X86_KERNELS)
    case RUNE_SIMD_AVX512:
        return (mix_kernels){rune__mix_accumulate_avx512, rune__mix_mean_avx512, rune__mix_overlay_avx512,
                             rune__mix_add_avx512};
    case RUNE_SIMD_AVX2_FMA:
        return (mix_kernels){rune__mix_accumulate_avx2fma, rune__mix_mean_avx2fma, rune__mix_overlay_avx2fma,
                             rune__mix_add_avx2fma};
    case RUNE_SIMD_AVX2:
        return (mix_kernels){rune__mix_accumulate_avx2, rune__mix_mean_avx2, rune__mix_overlay_avx2,
                             rune__mix_add_avx2};
    case RUNE_SIMD_SSE2:
        return (mix_kernels){rune__mix_accumulate_sse2, rune__mix_mean_sse2, rune__mix_overlay_sse2,
                             rune__mix_add_sse2};
#endif
    default:
        return (mix_kernels){rune__mix_accumulate_scalar, rune__mix_mean_scalar, rune__mix_overlay_scalar,
                             rune__mix_add_scalar};
    }
}

mix_view rune__pose_view(const rune_pose *p, size_t first)
{
    return (mix_view){p->tx + first, p->ty + first, p->tz + first, p->qx + first, p->qy + first, p->qz + first,
                      p->qw + first, p->sx + first, p->sy + first, p->sz + first, p->coverage + first};
}

mix_view rune__lanes_view(mix_lanes *l)
{
    return (mix_view){l->x, l->y, l->z, l->qx, l->qy, l->qz, l->qw, l->sx, l->sy, l->sz, l->c};
}

mix_view rune__chunk_view(rune_sample_chunk *c)
{
    return (mix_view){c->x, c->y, c->z, c->qx, c->qy, c->qz, c->qw, c->sx, c->sy, c->sz, c->coverage};
}

void rune__mix_identity(const mix_view *v, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        v->x[i] = v->y[i] = v->z[i] = 0.0f;
        v->qx[i] = v->qy[i] = v->qz[i] = 0.0f;
        v->qw[i] = 1.0f;
        v->sx[i] = v->sy[i] = v->sz[i] = 1.0f;
        v->c[i] = 0.0f;
    }
}

void rune__mix_zero(const mix_view *v, size_t n)
{
    float *const ch[11] = {v->x, v->y, v->z, v->qx, v->qy, v->qz, v->qw, v->sx, v->sy, v->sz, v->c};
    for (int k = 0; k < 11; k++)
        memset(ch[k], 0, n * sizeof(float));
}

void rune__mix_overlay_wide(const mix_view *src, const float *f, const mix_view *o, const float *wide, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (wide[i] == 0.0f)
            continue;
        rune_quat r = rune_q_slerp(rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]),
                                   rune_q(src->qx[i], src->qy[i], src->qz[i], src->qw[i]), f[i]);
        o->qx[i] = r.x, o->qy[i] = r.y, o->qz[i] = r.z, o->qw[i] = r.w;
    }
}
