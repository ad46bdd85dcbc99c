/* The mixers' shared plumbing: picking the kernels of an instruction set,
 * views of chunks of joints, and the exact slerp for the few lanes the
 * overlay kernel leaves. */
#include "mix_chunks.h"
#include "../clip/clip_access_internal.h"

#include <string.h>

/* One build's kernels, and the level they were built for. */
#define MIX_KERNELS(isa, lvl)                                                                                         \
    {                                                                                                                 \
        rune__mix_accumulate_##isa, rune__mix_accumulate2_##isa, rune__mix_mean_##isa, rune__mix_overlay_##isa,       \
            rune__mix_add_##isa, rune__mix_layer_weights_##isa, rune__mix_straight_factors_##isa,                     \
            rune__mix_sole_##isa, rune__mix_accumulate_fields_##isa, lvl                                              \
    }

/* Tables, not a struct built on each call: the mixers ask for them a few
 * times a frame and character. */
static const mix_kernels mix_scalar = MIX_KERNELS(scalar, RUNE_SIMD_SCALAR);
#if defined(RUNE_HAVE_X86_KERNELS)
static const mix_kernels mix_sse2 = MIX_KERNELS(sse2, RUNE_SIMD_SSE2);
static const mix_kernels mix_avx2 = MIX_KERNELS(avx2, RUNE_SIMD_AVX2);
static const mix_kernels mix_avx2fma = MIX_KERNELS(avx2fma, RUNE_SIMD_AVX2_FMA);
static const mix_kernels mix_avx512 = MIX_KERNELS(avx512, RUNE_SIMD_AVX512);
#endif

#define MIX_TABLE(isa) &mix_##isa

const mix_kernels *rune__mix_kernels(rune_simd_level level) { KERNEL_PICK(rune_simd_resolve(level), MIX_TABLE) }

const float rune__mix_ones[RUNE_SAMPLE_CHUNK] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

void rune__mix_identity(const mix_view *v, size_t from, size_t to)
{
    if (to <= from)
        return;
    size_t n = to - from;
    float *const zeros[7] = {v->x, v->y, v->z, v->qx, v->qy, v->qz, v->c};
    float *const ones[4] = {v->qw, v->sx, v->sy, v->sz};
    for (int k = 0; k < 7; k++)
        memset(zeros[k] + from, 0, n * sizeof(float));
    for (int k = 0; k < (v->scaled ? 4 : 1); k++) /* unscaled: already 1 */
        memcpy(ones[k] + from, rune__mix_ones, n * sizeof(float));
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
