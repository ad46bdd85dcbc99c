/* The packed clip's sampling kernels, compiled per instruction set like
 * sample_kernel.c: a segment's decoding tables for the animated channels
 * ("entries"); then per frame, over the entries of a chunk, fetch each
 * one's two samples (a load, a shift and a mask a component: one 64-bit
 * gather an entry for all three in the x86 builds -- the compiler does
 * not form gathers from unaligned loads by itself),
 * dequantize, rebuild a rotation's dropped component, take the shorter
 * arc and nlerp (or lerp), and write each entry's lane; and the copy of
 * the constant channels. */
#include "packed_sampler.h"

#include <math.h>
#include <string.h>
#if defined(KERNEL_GATHER_AVX2)
#include <immintrin.h>
#endif

/* Entries [e, n) of a segment's tables, for the segment whose first
 * subtrack is at `at`, one by one. */
static void load_scalar(const pack_plan *c, const uint32_t *sub_bit, pack_entries *s, size_t at, size_t e, size_t n)
{
    const clip_packed *p = c->p;
    for (; e < n; e++) {
        uint32_t a = c->sub[e];
        bool rotation = c->rotation[e] != 0;
        const uint8_t *w = &p->width[(at + a) * 3];
        const uint8_t *lo = &p->lo[(at + a) * 3], *hi = &p->hi[(at + a) * 3];
        const float *r = &p->range[(size_t)a * PACK_RANGE];
        uint32_t addr = sub_bit[a];
        s->stride[e] = pack_sample_bits(w);
        s->dropped[e] = rotation ? PACK_DROPPED(w[0]) : 3u;
        for (unsigned m = 0; m < 3; m++) {
            unsigned k = pack_range_index(rotation, w, m), width = PACK_WIDTH(w[m]);
            float ext;
            pack_segment_range(r[k], r[4 + k], lo[m], hi[m], &s->base[m][e], &ext);
            s->addr[m][e] = addr;
            s->mask[m][e] = pack_max_q(width);
            s->scale[m][e] = ext * pack_inv_q(width);
            addr += width;
        }
    }
}

#if defined(KERNEL_GATHER_AVX2) && defined(__AVX512F__)
/* 16 entries at a time: one gather brings a subtrack's three width bytes
 * (the fourth byte of the word is the next cell's, ignored), one its low
 * and one its high range bytes; the clip ranges come from the entries'
 * own copies (blends pick the components stored); the arithmetic is the
 * scalar one's, in the same order. The last
 * block runs whole: the entry arrays' slack (PACK_ENTRY_SLACK) holds
 * subtrack 0, a valid one, and takes the stores. Returns the entries done. */
static size_t load_wide(const pack_plan *c, const uint32_t *sub_bit, pack_entries *s, size_t at)
{
    const clip_packed *p = c->p;
    const void *wb = p->width + at * 3, *lb = p->lo + at * 3, *hb = p->hi + at * 3;
    const __m512i byte = _mm512_set1_epi32(255), five = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
    const __m512i three = _mm512_set1_epi32(3);
    const __m512 k255 = _mm512_set1_ps(1.0f / 255.0f), onef = _mm512_set1_ps(1.0f);
    size_t e = 0;
    for (; e < c->entries; e += 16) {
        __m512i sub = _mm512_loadu_si512(c->sub + e);
        __m512i x = _mm512_add_epi32(_mm512_add_epi32(sub, sub), sub);
        __m512i wv = _mm512_i32gather_epi32(x, wb, 1), lv = _mm512_i32gather_epi32(x, lb, 1);
        __m512i hv = _mm512_i32gather_epi32(x, hb, 1);
        __m512i w[3] = {_mm512_and_si512(wv, five), _mm512_and_si512(_mm512_srli_epi32(wv, 8), five),
                        _mm512_and_si512(_mm512_srli_epi32(wv, 16), five)};
        __m512i rv = _mm512_loadu_si512(c->rotation + e);
        __mmask16 rot = _mm512_test_epi32_mask(rv, rv);
        __m512i d = _mm512_mask_blend_epi32(rot, three, _mm512_srli_epi32(_mm512_and_si512(wv, byte), 6));
        __m512i addr = _mm512_i32gather_epi32(sub, sub_bit, 4);
        _mm512_storeu_si512(s->stride + e, _mm512_add_epi32(_mm512_add_epi32(w[0], w[1]), w[2]));
        _mm512_storeu_si512(s->dropped + e, d);
        for (int m = 0; m < 3; m++) {
            /* component m, or m + 1 from the dropped one on */
            __mmask16 up = _mm512_cmple_epi32_mask(d, _mm512_set1_epi32(m));
            __m512 cmin = _mm512_mask_blend_ps(up, _mm512_loadu_ps(c->range[m] + e), _mm512_loadu_ps(c->range[m + 1] + e));
            __m512 cext = _mm512_mask_blend_ps(up, _mm512_loadu_ps(c->range[4 + m] + e),
                                               _mm512_loadu_ps(c->range[5 + m] + e));
            __m512 lo = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(lv, 8 * m), byte));
            __m512 hi = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(hv, 8 * m), byte));
            __m512 base = _mm512_add_ps(cmin, _mm512_mul_ps(cext, _mm512_mul_ps(lo, k255)));
            __m512 ext = _mm512_mul_ps(cext, _mm512_mul_ps(_mm512_sub_ps(hi, lo), k255));
            __m512i q = _mm512_sub_epi32(_mm512_sllv_epi32(one, w[m]), one);
            /* 1 / (2^w - 1) as the table holds it (0 for width 0) */
            __m512 inv = _mm512_maskz_div_ps(_mm512_test_epi32_mask(q, q), onef, _mm512_cvtepi32_ps(q));
            _mm512_storeu_si512(s->addr[m] + e, addr);
            _mm512_storeu_si512(s->mask[m] + e, q);
            _mm512_storeu_ps(s->base[m] + e, base);
            _mm512_storeu_ps(s->scale[m] + e, _mm512_mul_ps(ext, inv));
            addr = _mm512_add_epi32(addr, w[m]);
        }
    }
    return e;
}
#elif defined(KERNEL_GATHER_AVX2)
/* load_wide of the AVX-512 build, 8 entries at a time: compares and
 * blends stand in for its mask registers, a division masked by hand for
 * its zero-masked one. */
static size_t load_wide(const pack_plan *c, const uint32_t *sub_bit, pack_entries *s, size_t at)
{
    const clip_packed *p = c->p;
    const int *wb = (const int *)(const void *)(p->width + at * 3), *lb = (const int *)(const void *)(p->lo + at * 3);
    const int *hb = (const int *)(const void *)(p->hi + at * 3);
    const __m256i byte = _mm256_set1_epi32(255), five = _mm256_set1_epi32(31), one = _mm256_set1_epi32(1);
    const __m256i three = _mm256_set1_epi32(3), zero = _mm256_setzero_si256();
    const __m256 k255 = _mm256_set1_ps(1.0f / 255.0f), onef = _mm256_set1_ps(1.0f);
    size_t e = 0;
    for (; e < c->entries; e += 8) {
        __m256i sub = _mm256_loadu_si256((const __m256i *)(c->sub + e));
        __m256i x = _mm256_add_epi32(_mm256_add_epi32(sub, sub), sub);
        __m256i wv = _mm256_i32gather_epi32(wb, x, 1), lv = _mm256_i32gather_epi32(lb, x, 1);
        __m256i hv = _mm256_i32gather_epi32(hb, x, 1);
        __m256i w[3] = {_mm256_and_si256(wv, five), _mm256_and_si256(_mm256_srli_epi32(wv, 8), five),
                        _mm256_and_si256(_mm256_srli_epi32(wv, 16), five)};
        __m256i rot = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(c->rotation + e)), zero);
        __m256i d = _mm256_blendv_epi8(_mm256_srli_epi32(_mm256_and_si256(wv, byte), 6), three, rot);
        __m256i addr = _mm256_i32gather_epi32((const int *)(const void *)sub_bit, sub, 4);
        _mm256_storeu_si256((__m256i *)(s->stride + e), _mm256_add_epi32(_mm256_add_epi32(w[0], w[1]), w[2]));
        _mm256_storeu_si256((__m256i *)(s->dropped + e), d);
        for (int m = 0; m < 3; m++) {
            /* component m, or m + 1 from the dropped one on (d <= m) */
            __m256 up = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(m + 1), d));
            __m256 cmin = _mm256_blendv_ps(_mm256_loadu_ps(c->range[m] + e), _mm256_loadu_ps(c->range[m + 1] + e), up);
            __m256 cext = _mm256_blendv_ps(_mm256_loadu_ps(c->range[4 + m] + e), _mm256_loadu_ps(c->range[5 + m] + e),
                                           up);
            __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(lv, 8 * m), byte));
            __m256 hi = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(hv, 8 * m), byte));
            __m256 base = _mm256_add_ps(cmin, _mm256_mul_ps(cext, _mm256_mul_ps(lo, k255)));
            __m256 ext = _mm256_mul_ps(cext, _mm256_mul_ps(_mm256_sub_ps(hi, lo), k255));
            __m256i q = _mm256_sub_epi32(_mm256_sllv_epi32(one, w[m]), one);
            /* 1 / (2^w - 1) as the table holds it (0 for width 0) */
            __m256 nonzero = _mm256_castsi256_ps(_mm256_cmpgt_epi32(q, zero));
            __m256 inv = _mm256_and_ps(nonzero, _mm256_div_ps(onef, _mm256_cvtepi32_ps(q)));
            _mm256_storeu_si256((__m256i *)(s->addr[m] + e), addr);
            _mm256_storeu_si256((__m256i *)(s->mask[m] + e), q);
            _mm256_storeu_ps(s->base[m] + e, base);
            _mm256_storeu_ps(s->scale[m] + e, _mm256_mul_ps(ext, inv));
            addr = _mm256_add_epi32(addr, w[m]);
        }
    }
    return e;
}
#endif

/* Subtrack a's bits in a segment, from its width bytes. */
static inline uint32_t sub_bits(const uint8_t *w) { return 8u * PACK_SUB_BYTES(w); }

/* The vector builds sum each subtrack's three widths in its own element
 * (one gather of the 4 bytes at w + 3a: the fourth is the next subtrack's,
 * masked off, so the last subtrack of the segment is left to the scalar
 * tail, whose fourth byte could be past the array) and scan the elements
 * in the register: an inclusive sum by shifted adds, the exclusive one
 * what comes before each. A crowd's compressed plays ran this prefix sum
 * over every subtrack at every sample (8 % of their frame, scalar). */
_Static_assert(PACK_SEGMENT == 16, "a width's bit takes 16 bits of a segment: the shifts by 4 below");
void KERNEL(rune__pack_segment_bits)(const uint8_t *w, uint32_t bit0, uint32_t n, uint32_t *bits)
{
    uint32_t a = 0, bit = bit0;
#if defined(KERNEL_GATHER_AVX2) && defined(__AVX512F__)
    const __m512i widths = _mm512_set1_epi32(31), zero = _mm512_setzero_si512();
    const __m512i at = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm512_set1_epi32(3));
    for (; a + 16 < n; a += 16) {
        __m512i v = _mm512_i32gather_epi32(at, (const void *)(w + 3 * (size_t)a), 1);
        __m512i own = _mm512_add_epi32(_mm512_and_si512(v, widths),
                                       _mm512_add_epi32(_mm512_and_si512(_mm512_srli_epi32(v, 8), widths),
                                                        _mm512_and_si512(_mm512_srli_epi32(v, 16), widths)));
        own = _mm512_slli_epi32(own, 4);
        __m512i sum = _mm512_add_epi32(own, _mm512_alignr_epi32(own, zero, 15));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 14));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 12));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 8));
        _mm512_storeu_si512(bits + a, _mm512_add_epi32(_mm512_set1_epi32((int)bit), _mm512_sub_epi32(sum, own)));
        bit += (uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(sum, 3), 3);
    }
#elif defined(KERNEL_GATHER_AVX2)
    const __m256i widths = _mm256_set1_epi32(31), zero = _mm256_setzero_si256();
    const __m256i at = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21), last_low = _mm256_set1_epi32(3);
    for (; a + 8 < n; a += 8) {
        __m256i v = _mm256_i32gather_epi32((const int *)(const void *)(w + 3 * (size_t)a), at, 1);
        __m256i own = _mm256_add_epi32(_mm256_and_si256(v, widths),
                                       _mm256_add_epi32(_mm256_and_si256(_mm256_srli_epi32(v, 8), widths),
                                                        _mm256_and_si256(_mm256_srli_epi32(v, 16), widths)));
        own = _mm256_slli_epi32(own, 4);
        /* within each half, then the low half's total into the high half */
        __m256i sum = _mm256_add_epi32(own, _mm256_slli_si256(own, 4));
        sum = _mm256_add_epi32(sum, _mm256_slli_si256(sum, 8));
        sum = _mm256_add_epi32(sum, _mm256_blend_epi32(zero, _mm256_permutevar8x32_epi32(sum, last_low), 0xF0));
        _mm256_storeu_si256((__m256i *)(bits + a),
                            _mm256_add_epi32(_mm256_set1_epi32((int)bit), _mm256_sub_epi32(sum, own)));
        bit += (uint32_t)_mm256_extract_epi32(sum, 7);
    }
#endif
    for (; a < n; a++) {
        bits[a] = bit;
        bit += sub_bits(&w[a * 3]);
    }
}

void KERNEL(rune__pack_load)(const pack_plan *v, const uint32_t *sub_bit, pack_entries *s, uint32_t g)
{
    size_t at = (size_t)g * v->p->subtracks, e = 0;
#if defined(KERNEL_GATHER_AVX2)
    e = load_wide(v, sub_bit, s, at);
#endif
    /* up to a whole vector of 8: the sampling kernel decodes the entries
     * in whole vectors, and the plan's slack holds valid subtracks */
    load_scalar(v, sub_bit, s, at, e, (v->entries + 7) & ~(size_t)7);
}

/* Entries at a time: the values live on the stack. */
#define BLOCK 64

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
#endif

/* One component of entries [0, n) at sample j: the integer at bit
 * addr + j stride, masked, times scale plus base. */
static void decode_component(const uint8_t *data, const uint32_t *addr, const uint32_t *stride, uint32_t j,
                             const uint32_t *mask, const float *base, const float *scale, size_t n, float *out)
{
    size_t i = 0;
#if defined(KERNEL_GATHER_AVX2) && defined(__AVX512F__)
    const __m512i j16 = _mm512_set1_epi32((int)j), seven16 = _mm512_set1_epi32(7);
    for (; i + 16 <= n; i += 16) {
        __m512i bit = _mm512_add_epi32(_mm512_loadu_si512(addr + i), _mm512_mullo_epi32(_mm512_loadu_si512(stride + i), j16));
        __m512i w = _mm512_i32gather_epi32(_mm512_srli_epi32(bit, 3), (const void *)data, 1);
        w = _mm512_and_si512(_mm512_srlv_epi32(w, _mm512_and_si512(bit, seven16)), _mm512_loadu_si512(mask + i));
        _mm512_storeu_ps(out + i, _mm512_fmadd_ps(_mm512_loadu_ps(scale + i), _mm512_cvtepi32_ps(w),
                                                  _mm512_loadu_ps(base + i)));
    }
#endif
#if defined(KERNEL_GATHER_AVX2)
    const __m256i j8 = _mm256_set1_epi32((int)j), seven8 = _mm256_set1_epi32(7);
    for (; i + 8 <= n; i += 8) {
        __m256i bit = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(addr + i)),
                                       _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(stride + i)), j8));
        __m256i w = _mm256_i32gather_epi32((const int *)(const void *)data, _mm256_srli_epi32(bit, 3), 1);
        w = _mm256_and_si256(_mm256_srlv_epi32(w, _mm256_and_si256(bit, seven8)),
                             _mm256_loadu_si256((const __m256i *)(mask + i)));
        _mm256_storeu_ps(out + i, dequantize8(_mm256_loadu_ps(base + i), _mm256_loadu_ps(scale + i), w));
    }
#endif
    for (; i < n; i++) {
        uint32_t bit = addr[i] + j * stride[i], w;
        memcpy(&w, data + (bit >> 3), sizeof w);
        out[i] = base[i] + scale[i] * (float)((w >> (bit & 7u)) & mask[i]);
    }
}

#if defined(KERNEL_GATHER_AVX2)
/* Entries [e, e + 8) at sample j, all three components from one 64-bit
 * gather an entry (a sample's integers are adjacent: 57 bits at most,
 * which the caller checked): a third of the elements the 32-bit gathers
 * move, and gathers cost by the element. AVX-512 gathers the 8 at once;
 * AVX2 in two halves of 4, whose low words a permute packs back. */
static void decode_eight(const uint8_t *data, const pack_entries *s, size_t e, uint32_t j, size_t i,
                         float v[3][BLOCK])
{
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(s->addr[0] + e));
    __m256i bit = _mm256_add_epi32(a0, _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(s->stride + e)),
                                                          _mm256_set1_epi32((int)j)));
    __m256i byte = _mm256_srli_epi32(bit, 3), first = _mm256_and_si256(bit, _mm256_set1_epi32(7));
#if defined(__AVX512F__)
    __m512i q = _mm512_i32gather_epi64(byte, (const void *)data, 1);
    q = _mm512_srlv_epi64(q, _mm512_cvtepu32_epi64(first));
#else
    const long long *base = (const long long *)(const void *)data;
    __m256i q[2] = {_mm256_i32gather_epi64(base, _mm256_castsi256_si128(byte), 1),
                    _mm256_i32gather_epi64(base, _mm256_extracti128_si256(byte, 1), 1)};
    q[0] = _mm256_srlv_epi64(q[0], _mm256_cvtepu32_epi64(_mm256_castsi256_si128(first)));
    q[1] = _mm256_srlv_epi64(q[1], _mm256_cvtepu32_epi64(_mm256_extracti128_si256(first, 1)));
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
#endif
    for (int c = 0; c < 3; c++) {
        __m256i shift = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(s->addr[c] + e)), a0);
#if defined(__AVX512F__)
        __m256i w = _mm512_cvtepi64_epi32(_mm512_srlv_epi64(q, _mm512_cvtepu32_epi64(shift)));
#else
        __m256i lo = _mm256_srlv_epi64(q[0], _mm256_cvtepu32_epi64(_mm256_castsi256_si128(shift)));
        __m256i hi = _mm256_srlv_epi64(q[1], _mm256_cvtepu32_epi64(_mm256_extracti128_si256(shift, 1)));
        /* the low word of each 64-bit lane: lo's at even, hi's at odd places, then in order */
        __m256i w = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(lo, _mm256_slli_epi64(hi, 32), 0xAA), low_words);
#endif
        w = _mm256_and_si256(w, _mm256_loadu_si256((const __m256i *)(s->mask[c] + e)));
        _mm256_storeu_ps(v[c] + i, dequantize8(_mm256_loadu_ps(s->base[c] + e), _mm256_loadu_ps(s->scale[c] + e), w));
    }
}
#endif

/* Entries [e, e + n) of a segment's tables at sample j: three components
 * into v. */
static void decode_block(const uint8_t *data, const pack_entries *s, size_t e, uint32_t j, size_t n,
                         float v[3][BLOCK])
{
    size_t i = 0;
#if defined(KERNEL_GATHER_AVX2)
    /* blocks of 8 whose samples fit 57 bits (all but very fine precisions) */
    for (; i + 8 <= n; i += 8) {
        __m256i stride = _mm256_loadu_si256((const __m256i *)(s->stride + e + i));
        if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(stride, _mm256_set1_epi32(57))))
            break;
        decode_eight(data, s, e + i, j, i, v);
    }
#endif
    for (int c = 0; c < 3; c++)
        decode_component(data, s->addr[c] + e + i, s->stride + e + i, j, s->mask[c] + e + i, s->base[c] + e + i,
                         s->scale[c] + e + i, n - i, v[c] + i);
}

static void lerp_block(float a[3][BLOCK], float b[3][BLOCK], float u, size_t n)
{
    for (int c = 0; c < 3; c++) {
        float *va = a[c];
        const float *vb = b[c];
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
static void rebuild_block(float a[3][BLOCK], const uint32_t *ad, size_t n, float q[4][BLOCK])
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float x, y, z, w;
        rebuild(a[0][i], a[1][i], a[2][i], ad[i], &x, &y, &z, &w);
        store_unit(x, y, z, w, q, i);
    }
}

/* Between samples: both sides' dropped components rebuilt, the arcs
 * aligned, nlerped into q[4]. */
static void nlerp_block(float a[3][BLOCK], float b[3][BLOCK], const uint32_t *ad, const uint32_t *bd, float u,
                        size_t n, float q[4][BLOCK])
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float ax, ay, az, aw, bx, by, bz, bw;
        rebuild(a[0][i], a[1][i], a[2][i], ad[i], &ax, &ay, &az, &aw);
        rebuild(b[0][i], b[1][i], b[2][i], bd[i], &bx, &by, &bz, &bw);
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
    for (int c = 0; c < count; c++)
        for (size_t i = 0; i < n; i++)
            out[c][l[i] - first] = res[c][i];
#endif
}

void KERNEL(rune__pack_kernel)(const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja,
                               uint32_t jb, float u, int channel, size_t e0, size_t e1, const uint32_t *lane,
                               size_t first, const sample_dest *o)
{
    float va[3][BLOCK], vb[3][BLOCK], q[4][BLOCK];
    for (size_t e = e0; e < e1; e += BLOCK) {
        size_t n = e1 - e < BLOCK ? e1 - e : BLOCK;
        /* whole vectors of 8 (the entry arrays have room past the last
         * entry, PACK_ENTRY_SLACK, whose values are decoded and dropped);
         * a few entries alone go one by one */
        size_t wide = n < 4 ? n : (n + 7) & ~(size_t)7;
        decode_block(data, a, e, ja, wide, va);
        /* on a sample exactly (playback at a divisor of the clip's rate)
         * the second sample weighs nothing */
        bool on_sample = u == 0.0f;
        if (!on_sample)
            decode_block(data, b, e, jb, wide, vb);
        if (channel == PACK_ROT) {
            if (on_sample)
                rebuild_block(va, a->dropped + e, wide, q);
            else
                nlerp_block(va, vb, a->dropped + e, b->dropped + e, u, wide, q);
            float *const res[4] = {q[0], q[1], q[2], q[3]}, *const out[4] = {o->qx, o->qy, o->qz, o->qw};
            write_lanes(res, out, 4, lane + e, n, first);
            continue;
        }
        if (!on_sample)
            lerp_block(va, vb, u, wide);
        float *const res[3] = {va[0], va[1], va[2]};
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
