/* The packed clip's sampling kernels, compiled per instruction set like
 * sample_kernel.c: over the entries of a chunk, with the segment tables of
 * the plan (packed_sampler.c), fetch each one's two samples (a load, a
 * shift and a mask a component: one 64-bit load an entry for all three
 * in the x86 builds, gathered in the AVX-512 one -- the compiler does not
 * form gathers from unaligned loads by itself), dequantize, rebuild a
 * rotation's dropped component, take the shorter arc and nlerp (or
 * lerp), and write each entry's lane; and the copy of the constant
 * channels. */
#include "packed_sampler.h"

#include <math.h>
#include <string.h>
#if defined(KERNEL_GATHER_AVX2)
#include <immintrin.h>
#endif

/* Entries at a time: the values live on the stack. */
#define BLOCK 64

/* A block's decoded samples: three components and (rotations) the
 * dropped one, in whole vectors of 8 -- zeros past the block's entries. */
typedef struct decoded {
    float v[3][BLOCK];
    uint32_t dropped[BLOCK];
} decoded;

#if defined(KERNEL_GATHER_AVX2)
/* base + scale q, the scalar loop's arithmetic (fused in the FMA builds) */
static inline __m256 dequantize8(__m256 base, __m256 scale, __m256i q)
{
#if defined(__FMA__)
    return _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(q), base);
#else
    return _mm256_add_ps(base, _mm256_mul_ps(scale, _mm256_cvtepi32_ps(q)));
#endif
}

/* Of 8 layout words: component c's offset from the sample's first bit
 * (the widths before it) and its mask (2^width - 1). */
static inline __m256i layout_shift8(__m256i layout, int c)
{
    const __m256i widths = _mm256_set1_epi32(31);
    __m256i w0 = _mm256_and_si256(layout, widths);
    if (c == 0)
        return _mm256_setzero_si256();
    if (c == 1)
        return w0;
    return _mm256_add_epi32(w0, _mm256_and_si256(_mm256_srli_epi32(layout, 8), widths));
}

static inline __m256i layout_mask8(__m256i layout, int c)
{
    const __m256i one = _mm256_set1_epi32(1);
    __m256i w = _mm256_and_si256(_mm256_srli_epi32(layout, 8 * c), _mm256_set1_epi32(31));
    return _mm256_sub_epi32(_mm256_sllv_epi32(one, w), one);
}
#endif

/* Component c of entries [0, n) at sample j: the integer at bit addr + j
 * stride + the widths before c, masked, times scale plus base. (Samples
 * wider than 57 bits, whose three integers one 64-bit load cannot hold.) */
static void decode_component(const uint8_t *data, const uint32_t *addr, const uint32_t *layout, uint32_t j, int c,
                             const float *base, const float *scale, size_t n, float *out)
{
    size_t i = 0;
#if defined(KERNEL_GATHER_AVX2)
    const __m256i j8 = _mm256_set1_epi32((int)j), seven8 = _mm256_set1_epi32(7);
    for (; i + 8 <= n; i += 8) {
        __m256i l = _mm256_loadu_si256((const __m256i *)(layout + i));
        __m256i bit = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(addr + i)),
                                       _mm256_mullo_epi32(_mm256_srli_epi32(l, 24), j8));
        bit = _mm256_add_epi32(bit, layout_shift8(l, c));
        __m256i w = _mm256_i32gather_epi32((const int *)(const void *)data, _mm256_srli_epi32(bit, 3), 1);
        w = _mm256_and_si256(_mm256_srlv_epi32(w, _mm256_and_si256(bit, seven8)), layout_mask8(l, c));
        _mm256_storeu_ps(out + i, dequantize8(_mm256_loadu_ps(base + i), _mm256_loadu_ps(scale + i), w));
    }
#endif
    for (; i < n; i++) {
        uint32_t l = layout[i], bit = addr[i] + j * PACK_LAYOUT_STRIDE(l), w;
        for (int k = 0; k < c; k++)
            bit += PACK_LAYOUT_WIDTH(l, k);
        memcpy(&w, data + (bit >> 3), sizeof w);
        out[i] = base[i] + scale[i] * (float)((w >> (bit & 7u)) & pack_max_q(PACK_LAYOUT_WIDTH(l, c)));
    }
}

#if defined(KERNEL_GATHER_AVX2)
/* Eight table words from p, only the `live` lanes read, the rest 0: the
 * tables hold no room past their entries (it would cost 32 bytes a
 * segment for each), and an entry of layout 0 at bit 0 has width 0 and
 * decodes to 0, inside the data. */
static inline __m256i table8(const uint32_t *p, __m256i live)
{
    return _mm256_maskload_epi32((const int *)(const void *)p, live);
}

static inline __m256 floats8(const float *p, __m256i live) { return _mm256_maskload_ps(p, live); }

/* The `live` ones of entries [e, e + 8) at sample j (zeros after), all
 * three components from one 64-bit load an entry (a sample's
 * integers are adjacent: 57 bits at most, which the caller checked): a
 * third of the elements 32-bit loads would move. AVX-512 gathers the 8
 * at once; AVX2 loads them one by one (its gathers cost more than the
 * loads they stand for here), in two halves of 4 whose low words a
 * permute packs back. */
static inline void decode_eight(const uint8_t *data, const pack_entries *s, size_t e, uint32_t j, size_t i,
                                __m256i live, decoded *d)
{
    __m256i layout = table8(s->layout + e, live);
    _mm256_storeu_si256((__m256i *)(d->dropped + i), _mm256_and_si256(_mm256_srli_epi32(layout, 6), _mm256_set1_epi32(3)));
    __m256i bit = _mm256_add_epi32(table8(s->addr + e, live),
                                   _mm256_mullo_epi32(_mm256_srli_epi32(layout, 24), _mm256_set1_epi32((int)j)));
    __m256i byte = _mm256_srli_epi32(bit, 3), first = _mm256_and_si256(bit, _mm256_set1_epi32(7));
#if defined(__AVX512F__)
    __m512i q = _mm512_i32gather_epi64(byte, (const void *)data, 1);
    q = _mm512_srlv_epi64(q, _mm512_cvtepu32_epi64(first));
#else
    uint32_t at[8];
    long long g[8];
    _mm256_storeu_si256((__m256i *)(void *)at, byte);
    for (int k = 0; k < 8; k++)
        memcpy(&g[k], data + at[k], sizeof g[k]);
    __m256i q[2] = {_mm256_setr_epi64x(g[0], g[1], g[2], g[3]), _mm256_setr_epi64x(g[4], g[5], g[6], g[7])};
    q[0] = _mm256_srlv_epi64(q[0], _mm256_cvtepu32_epi64(_mm256_castsi256_si128(first)));
    q[1] = _mm256_srlv_epi64(q[1], _mm256_cvtepu32_epi64(_mm256_extracti128_si256(first, 1)));
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
#endif
    for (int c = 0; c < 3; c++) {
        __m256i shift = layout_shift8(layout, c);
#if defined(__AVX512F__)
        __m256i w = _mm512_cvtepi64_epi32(_mm512_srlv_epi64(q, _mm512_cvtepu32_epi64(shift)));
#else
        __m256i lo = _mm256_srlv_epi64(q[0], _mm256_cvtepu32_epi64(_mm256_castsi256_si128(shift)));
        __m256i hi = _mm256_srlv_epi64(q[1], _mm256_cvtepu32_epi64(_mm256_extracti128_si256(shift, 1)));
        /* the low word of each 64-bit lane: lo's at even, hi's at odd places, then in order */
        __m256i w = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(lo, _mm256_slli_epi64(hi, 32), 0xAA), low_words);
#endif
        w = _mm256_and_si256(w, layout_mask8(layout, c));
        _mm256_storeu_ps(d->v[c] + i, dequantize8(floats8(s->base[c] + e, live),
                                                  floats8(s->scale[c] + e, live), w));
    }
}
#endif

/* Entries [e, e + n) of a segment's tables at sample j into d, in whole
 * vectors of 8 (zeros past n). */
static void decode_block(const uint8_t *data, const pack_entries *s, size_t e, uint32_t j, size_t n, decoded *d)
{
    size_t i = 0;
#if defined(KERNEL_GATHER_AVX2)
    /* blocks of 8 whose samples fit 57 bits (all but very fine precisions) */
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (; i < n; i += 8) {
        __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - i < 8 ? n - i : 8)), lanes);
        __m256i stride = _mm256_srli_epi32(table8(s->layout + e + i, live), 24);
        if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(stride, _mm256_set1_epi32(57))))
            break;
        decode_eight(data, s, e + i, j, i, live, d);
    }
    if (i >= n)
        return;
#endif
    for (int c = 0; c < 3; c++)
        decode_component(data, s->addr + e + i, s->layout + e + i, j, c, s->base[c] + e + i, s->scale[c] + e + i,
                         n - i, d->v[c] + i);
    for (size_t k = i; k < n; k++)
        d->dropped[k] = PACK_LAYOUT_DROPPED(s->layout[e + k]);
    for (size_t k = n; k % 8; k++) {
        d->v[0][k] = d->v[1][k] = d->v[2][k] = 0.0f;
        d->dropped[k] = 0;
    }
}

static void lerp_block(decoded *a, const decoded *b, float u, size_t n)
{
    for (int c = 0; c < 3; c++) {
        float *va = a->v[c];
        const float *vb = b->v[c];
#pragma omp simd
        for (size_t i = 0; i < n; i++)
            va[i] = va[i] + (vb[i] - va[i]) * u;
    }
}

/* A quaternion from three stored components, the dropped one (d; 3: w)
 * rebuilt as sqrt(1 - the others' squares), branch-free. */
static inline void rebuild(float v0, float v1, float v2, uint32_t d, float *x, float *y, float *z, float *w)
{
    float r = 1.0f - (v0 * v0 + v1 * v1 + v2 * v2);
    r = sqrtf(r > 0.0f ? r : 0.0f);
    *x = d == 0 ? r : v0;
    *y = d == 0 ? v0 : (d == 1 ? r : v1);
    *z = d <= 1 ? v1 : (d == 2 ? r : v2);
    *w = d <= 2 ? v2 : r;
}

/* q[.][i] = (x, y, z, w) normalized (identity when ~0). */
static inline void store_unit(float x, float y, float z, float w, float q[4][BLOCK], size_t i)
{
    float n2 = x * x + y * y + z * z + w * w;
    float inv = 1.0f / sqrtf(n2 > 1e-30f ? n2 : 1.0f);
    q[0][i] = n2 > 1e-30f ? x * inv : 0.0f;
    q[1][i] = n2 > 1e-30f ? y * inv : 0.0f;
    q[2][i] = n2 > 1e-30f ? z * inv : 0.0f;
    q[3][i] = n2 > 1e-30f ? w * inv : 1.0f;
}

/* On a sample exactly (u = 0): each rotation's dropped component
 * rebuilt, normalized into q[4]. */
static void rebuild_block(const decoded *a, size_t n, float q[4][BLOCK])
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float x, y, z, w;
        rebuild(a->v[0][i], a->v[1][i], a->v[2][i], a->dropped[i], &x, &y, &z, &w);
        store_unit(x, y, z, w, q, i);
    }
}

/* Between samples: both sides' dropped components rebuilt, the arcs
 * aligned, nlerped into q[4]. */
static void nlerp_block(const decoded *a, const decoded *b, float u, size_t n, float q[4][BLOCK])
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float ax, ay, az, aw, bx, by, bz, bw;
        rebuild(a->v[0][i], a->v[1][i], a->v[2][i], a->dropped[i], &ax, &ay, &az, &aw);
        rebuild(b->v[0][i], b->v[1][i], b->v[2][i], b->dropped[i], &bx, &by, &bz, &bw);
        float d = ax * bx + ay * by + az * bz + aw * bw;
        float sg = d < 0.0f ? -1.0f : 1.0f;
        float x = ax + (sg * bx - ax) * u, y = ay + (sg * by - ay) * u;
        float z = az + (sg * bz - az) * u, w = aw + (sg * bw - aw) * u;
        store_unit(x, y, z, w, q, i);
    }
}

/* Results of entries [0, n) (their lanes l[i] - first, ascending, all
 * within a chunk) written to the lanes of `count` output arrays. The
 * AVX-512 build expands each 16-lane block's results into its live lanes
 * with one masked store a block. */
static void write_lanes(float *const res[], float *const out[], int count, const uint32_t *l, size_t n, size_t first)
{
#if defined(KERNEL_GATHER_AVX2) && defined(__AVX512F__)
    uint64_t live = 0;
    for (size_t i = 0; i < n; i++)
        live |= 1ull << (l[i] - first);
    for (int c = 0; c < count; c++) {
        size_t k = 0;
        for (unsigned b = 0; b < RUNE_SAMPLE_CHUNK / 16; b++) {
            __mmask16 m = (__mmask16)(live >> (16 * b));
            if (!m)
                continue;
            _mm512_mask_storeu_ps(out[c] + 16 * b, m, _mm512_maskz_expandloadu_ps(m, res[c] + k));
            k += (size_t)__builtin_popcount(m);
        }
    }
#else
    if (n && l[n - 1] - l[0] == n - 1) { /* consecutive lanes (every joint keyed): plain copies */
        size_t at = l[0] - first;
        for (int c = 0; c < count; c++) {
            float *to = out[c] + at;
            const float *from = res[c];
#pragma omp simd
            for (size_t i = 0; i < n; i++)
                to[i] = from[i];
        }
        return;
    }
    for (int c = 0; c < count; c++)
        for (size_t i = 0; i < n; i++)
            out[c][l[i] - first] = res[c][i];
#endif
}

void KERNEL(rune__pack_kernel)(const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja,
                               uint32_t jb, float u, int channel, size_t e0, size_t e1, const uint32_t *lane,
                               size_t first, const sample_dest *o)
{
    decoded va, vb;
    float q[4][BLOCK];
    for (size_t e = e0; e < e1; e += BLOCK) {
        size_t n = e1 - e < BLOCK ? e1 - e : BLOCK, wide = (n + 7) & ~(size_t)7;
        decode_block(data, a, e, ja, n, &va);
        /* on a sample exactly (playback at a divisor of the clip's rate)
         * the second sample weighs nothing */
        bool on_sample = u == 0.0f;
        if (!on_sample)
            decode_block(data, b, e, jb, n, &vb);
        if (channel == PACK_ROT) {
            if (on_sample)
                rebuild_block(&va, wide, q);
            else
                nlerp_block(&va, &vb, u, wide, q);
            float *const res[4] = {q[0], q[1], q[2], q[3]}, *const out[4] = {o->qx, o->qy, o->qz, o->qw};
            write_lanes(res, out, 4, lane + e, n, first);
            continue;
        }
        if (!on_sample)
            lerp_block(&va, &vb, u, wide);
        float *const res[3] = {va.v[0], va.v[1], va.v[2]};
        float *const out[3] = {channel == PACK_POS ? o->x : o->sx, channel == PACK_POS ? o->y : o->sy,
                               channel == PACK_POS ? o->z : o->sz};
        write_lanes(res, out, 3, lane + e, n, first);
    }
}

/* Copies the constant channels: inlined vector copies beat a library
 * call an array for chunks of 40 floats. */
void KERNEL(rune__pack_copy)(const float *const *src, float *const *dst, int count, size_t n)
{
    for (int k = 0; k < count; k++) {
        const float *from = src[k];
        float *to = dst[k];
#pragma omp simd
        for (size_t i = 0; i < n; i++)
            to[i] = from[i];
    }
}
