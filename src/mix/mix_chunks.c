/* The mixers' shared plumbing: picking the kernels of an instruction set,
 * moving joints between poses (arrays of vec3/quat) and SoA chunks, and
 * the exact slerp for the few lanes the overlay kernel leaves. */
#include "mix_chunks.h"

#include <string.h>

mix_kernels rune__mix_kernels(rune_simd_level level)
{
    level = rune_simd_resolve(level);
#if defined(RUNE_HAVE_X86_KERNELS)
    if (level == RUNE_SIMD_AVX2)
        return (mix_kernels){rune__mix_accumulate_avx2, rune__mix_mean_avx2, rune__mix_overlay_avx2,
                             rune__mix_add_avx2};
    if (level == RUNE_SIMD_SSE2)
        return (mix_kernels){rune__mix_accumulate_sse2, rune__mix_mean_sse2, rune__mix_overlay_sse2,
                             rune__mix_add_sse2};
#endif
    return (mix_kernels){rune__mix_accumulate_scalar, rune__mix_mean_scalar, rune__mix_overlay_scalar,
                         rune__mix_add_scalar};
}

size_t rune__mix_load_pose(const rune_pose *pose, size_t first, size_t n, float *const lane[8])
{
    size_t got = pose->count > first ? pose->count - first : 0;
    got = got < n ? got : n;
    for (size_t i = 0; i < got; i++) {
        size_t j = first + i;
        lane[0][i] = pose->t[j].x, lane[1][i] = pose->t[j].y, lane[2][i] = pose->t[j].z;
        lane[3][i] = pose->r[j].x, lane[4][i] = pose->r[j].y, lane[5][i] = pose->r[j].z, lane[6][i] = pose->r[j].w;
        lane[7][i] = pose->coverage[j];
    }
    return got;
}

void rune__mix_load_lanes(const rune_pose *pose, size_t first, size_t n, size_t lanes, mix_lanes *o)
{
    float *const lane[8] = {o->x, o->y, o->z, o->qx, o->qy, o->qz, o->qw, o->c};
    rune__mix_identity_lanes(o, rune__mix_load_pose(pose, first, n, lane), lanes);
}

void rune__mix_identity_lanes(mix_lanes *o, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        o->x[i] = o->y[i] = o->z[i] = 0.0f;
        o->qx[i] = o->qy[i] = o->qz[i] = 0.0f;
        o->qw[i] = 1.0f;
        o->c[i] = 0.0f;
    }
}

void rune__mix_store_lanes(const mix_lanes *o, size_t first, size_t n, rune_pose *out)
{
    for (size_t i = 0; i < n; i++) {
        out->t[first + i] = rune_v3(o->x[i], o->y[i], o->z[i]);
        out->r[first + i] = rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]);
        out->coverage[first + i] = o->c[i];
    }
}

void rune__mix_overlay_wide(const mix_lanes *mean, mix_lanes *o, const float *wide, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (wide[i] == 0.0f)
            continue;
        rune_quat r = rune_q_slerp(rune_q(o->qx[i], o->qy[i], o->qz[i], o->qw[i]),
                                   rune_q(mean->qx[i], mean->qy[i], mean->qz[i], mean->qw[i]), mean->c[i]);
        o->qx[i] = r.x, o->qy[i] = r.y, o->qz[i] = r.z, o->qw[i] = r.w;
    }
}
