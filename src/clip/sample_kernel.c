/* The sampling kernel, in two steps: gather each lane's segment out of the
 * clip into structure-of-arrays form (SIMD loads and register transposes,
 * as ozz-animation decompresses its keys, in the SSE2 and AVX2 builds; a
 * plain copy in the scalar one), then evaluate all lanes in one branch-free
 * loop that every build shares, so all builds give the same bits. A
 * binding's row plan holds its rows in that form already
 * (rune__sample_fields: the second step alone). The slerp needs no
 * trigonometry at run time (segment_rotation.h). */
#include "sample_kernel.h"

#include <math.h>
#if defined(KERNEL_GATHER_AVX2)
#include <immintrin.h>
#elif defined(KERNEL_GATHER_SSE2)
#include <emmintrin.h>
#endif

/* The segments of one chunk, as the fields of a row plan's whole chunk
 * (stride RUNE_SAMPLE_CHUNK). */
typedef struct gathered {
    _Alignas(64) float f[SAMPLE_FIELDS * RUNE_SAMPLE_CHUNK];
} gathered;

/* Field k's array. */
static inline float *col(gathered *g, int k) { return g->f + k * RUNE_SAMPLE_CHUNK; }

#if defined(KERNEL_GATHER_AVX2)
/* Rows r[0..7] (8 floats of one lane each) -> columns, stored at col[c] + i. */
static inline void transpose8(const __m256 r[8], float *const col[8], size_t i)
{
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_store_ps(col[0] + i, _mm256_permute2f128_ps(s0, s4, 0x20));
    _mm256_store_ps(col[1] + i, _mm256_permute2f128_ps(s1, s5, 0x20));
    _mm256_store_ps(col[2] + i, _mm256_permute2f128_ps(s2, s6, 0x20));
    _mm256_store_ps(col[3] + i, _mm256_permute2f128_ps(s3, s7, 0x20));
    _mm256_store_ps(col[4] + i, _mm256_permute2f128_ps(s0, s4, 0x31));
    _mm256_store_ps(col[5] + i, _mm256_permute2f128_ps(s1, s5, 0x31));
    _mm256_store_ps(col[6] + i, _mm256_permute2f128_ps(s2, s6, 0x31));
    _mm256_store_ps(col[7] + i, _mm256_permute2f128_ps(s3, s7, 0x31));
}

static void gather(const clip_segment *seg, const clip_segment_cover *cov, const uint32_t *key, size_t n,
                   gathered *g)
{
    float *const a[8] = {col(g, F_X), col(g, F_Y), col(g, F_Z), col(g, F_DX), col(g, F_DY), col(g, F_DZ), col(g, F_TIME), col(g, F_END)};
    float *const b[8] = {col(g, F_QX), col(g, F_QY), col(g, F_QZ), col(g, F_QW), col(g, F_VX), col(g, F_VY), col(g, F_VZ), col(g, F_VW)};
    for (size_t i = 0; i < n; i += 8) {
        __m256 ra[8], rb[8];
        for (int l = 0; l < 8; l++) {
            const float *s = &seg[key[i + l]].x;
            ra[l] = _mm256_loadu_ps(s);
            rb[l] = _mm256_loadu_ps(s + 8);
        }
        transpose8(ra, a, i);
        transpose8(rb, b, i);
        if (!cov)
            continue;
        /* covers: lanes l and l + 4 share a register, one 4x4 transpose */
        __m256 rc[4];
        for (int l = 0; l < 4; l++)
            rc[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&cov[key[i + l]].w)),
                                         _mm_loadu_ps(&cov[key[i + l + 4]].w), 1);
        __m256 t0 = _mm256_unpacklo_ps(rc[0], rc[1]), t1 = _mm256_unpackhi_ps(rc[0], rc[1]);
        __m256 t2 = _mm256_unpacklo_ps(rc[2], rc[3]), t3 = _mm256_unpackhi_ps(rc[2], rc[3]);
        _mm256_store_ps(col(g, F_W) + i, _mm256_shuffle_ps(t0, t2, 0x44));
        _mm256_store_ps(col(g, F_DW) + i, _mm256_shuffle_ps(t0, t2, 0xEE));
        _mm256_store_ps(col(g, F_M) + i, _mm256_shuffle_ps(t1, t3, 0x44));
        _mm256_store_ps(col(g, F_DM) + i, _mm256_shuffle_ps(t1, t3, 0xEE));
    }
}
#elif defined(KERNEL_GATHER_SSE2)
/* Four rows of four floats -> four columns, stored at col[c] + i. */
static inline void transpose4(__m128 r0, __m128 r1, __m128 r2, __m128 r3, float *const col[4], size_t i)
{
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_store_ps(col[0] + i, r0);
    _mm_store_ps(col[1] + i, r1);
    _mm_store_ps(col[2] + i, r2);
    _mm_store_ps(col[3] + i, r3);
}

static void gather(const clip_segment *seg, const clip_segment_cover *cov, const uint32_t *key, size_t n,
                   gathered *g)
{
    float *const cols[5][4] = {{col(g, F_X), col(g, F_Y), col(g, F_Z), col(g, F_DX)},
                               {col(g, F_DY), col(g, F_DZ), col(g, F_TIME), col(g, F_END)},
                               {col(g, F_QX), col(g, F_QY), col(g, F_QZ), col(g, F_QW)},
                               {col(g, F_VX), col(g, F_VY), col(g, F_VZ), col(g, F_VW)},
                               {col(g, F_W), col(g, F_DW), col(g, F_M), col(g, F_DM)}};
    for (size_t i = 0; i < n; i += 4) {
        const float *s[4];
        for (int l = 0; l < 4; l++)
            s[l] = &seg[key[i + l]].x;
        for (int part = 0; part < 4; part++)
            transpose4(_mm_loadu_ps(s[0] + 4 * part), _mm_loadu_ps(s[1] + 4 * part), _mm_loadu_ps(s[2] + 4 * part),
                       _mm_loadu_ps(s[3] + 4 * part), cols[part], i);
        if (cov)
            transpose4(_mm_loadu_ps(&cov[key[i]].w), _mm_loadu_ps(&cov[key[i + 1]].w), _mm_loadu_ps(&cov[key[i + 2]].w),
                       _mm_loadu_ps(&cov[key[i + 3]].w), cols[4], i);
    }
}
#else
static void gather(const clip_segment *seg, const clip_segment_cover *cov, const uint32_t *key, size_t n,
                   gathered *g)
{
    for (size_t i = 0; i < n; i++)
        rune__segment_fields(&seg[key[i]], cov ? &cov[key[i]] : NULL, false, g->f + i, RUNE_SAMPLE_CHUNK);
}
#endif

/* Evaluates lanes [0, n) of the fields at `f`: a full row, or (lean) a
 * lean row whose time and end are `span` (sample_lane.h). `lean` is a
 * constant where this is inlined. One base pointer, not one a field: with
 * `stride` a constant (always inlined, called with RUNE_SAMPLE_CHUNK)
 * every field is the base plus a fixed offset, where twenty pointers
 * would not fit the registers beside the ten outputs (the compiler kept
 * them on the stack and in vector registers). */
static inline __attribute__((always_inline)) void evaluate(const float *restrict f, size_t stride, bool lean,
                                                           const float *span, float t, const sample_dest *out,
                                                           size_t n)
{
    float *restrict x = out->x, *restrict y = out->y, *restrict z = out->z, *restrict qx = out->qx;
    float *restrict qy = out->qy, *restrict qz = out->qz, *restrict qw = out->qw, *restrict weight = out->weight;
    float *restrict mask = out->mask, *restrict coverage = out->coverage;
    float u = lean ? rune__segment_u(t, span[0], span[1]) : 0.0f;
    /* "omp simd" (-fopenmp-simd) tells the compiler the lanes are
     * independent, which its cost model would not otherwise assume */
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        sample_lane s = rune__sample_row_lane(f, stride, i, t, lean, u);
        x[i] = s.x, y[i] = s.y, z[i] = s.z;
        qx[i] = s.r.x, qy[i] = s.r.y, qz[i] = s.r.z, qw[i] = s.r.w;
        weight[i] = s.w, mask[i] = s.m, coverage[i] = s.c;
    }
}

void KERNEL(rune__sample_kernel)(const clip_segment *segments, const clip_segment_cover *covers,
                                 const uint32_t *key, float t, const sample_dest *out, size_t n)
{
    _Alignas(64) gathered g;
    gather(segments, covers, key, n, &g);
    if (!covers) /* plain covers: weight 1 and mask 0 on every key; the null key's weight is 0 */
        for (size_t i = 0; i < n; i++) {
            col(&g, F_W)[i] = col(&g, F_TIME)[i] > -INFINITY ? 1.0f : 0.0f;
            col(&g, F_DW)[i] = col(&g, F_M)[i] = col(&g, F_DM)[i] = 0.0f;
        }
    evaluate(g.f, RUNE_SAMPLE_CHUNK, false, NULL, t, out, n);
}

void KERNEL(rune__sample_fields)(const row_fields *rf, float t, const sample_dest *out, size_t n)
{
    /* a whole chunk (every chunk of a plan but a partial last one) with a
     * constant stride; each kind of row its own loop */
    if (rf->span && rf->stride == RUNE_SAMPLE_CHUNK)
        evaluate(rf->f, RUNE_SAMPLE_CHUNK, true, rf->span, t, out, n);
    else if (rf->span)
        evaluate(rf->f, rf->stride, true, rf->span, t, out, n);
    else if (rf->stride == RUNE_SAMPLE_CHUNK)
        evaluate(rf->f, RUNE_SAMPLE_CHUNK, false, NULL, t, out, n);
    else
        evaluate(rf->f, rf->stride, false, NULL, t, out, n);
}

/* One lane of rune__sample_advance; true when it holds t. */
static inline bool advance_lane(const float *f, int32_t stride, uint32_t *key, float t, float *lo, float *hi)
{
    /* 32-bit offsets (clips hold fewer than 2^27 keys) */
    int32_t k = (int32_t)*key;
    int32_t k1 = k + (t >= f[16 * k + 7] ? stride : 0);
    float start = f[16 * k1 + 6], end = f[16 * k1 + 7];
    if (!(t >= start && t < end))
        return false;
    *key = (uint32_t)k1;
    *lo = start > *lo ? start : *lo;
    *hi = end < *hi ? end : *hi;
    return true;
}

size_t KERNEL(rune__sample_advance)(const clip_segment *segments, uint32_t stride, uint32_t *key, size_t n, float t,
                                    float *lo_out, float *hi_out, uint8_t *bad)
{
    /* a segment is 16 floats: its time at 6, its end at 7 (clip_segment) */
    const float *f = &segments->x;
    float lo = -INFINITY, hi = INFINITY;
    size_t nbad = 0;
    /* "omp simd": lanes are independent; the compiler turns the segment
     * reads into gathers where the instruction set has them */
#pragma omp simd reduction(max : lo) reduction(min : hi) reduction(+ : nbad)
    for (size_t j = 0; j < n; j++) {
        bool ok = advance_lane(f, (int32_t)stride, &key[j], t, &lo, &hi);
        bad[j] = (uint8_t)!ok;
        nbad += !ok;
    }
    *lo_out = lo;
    *hi_out = hi;
    return nbad;
}

void KERNEL(rune__sample_row_keys)(const int32_t *lane_track, size_t first, size_t n, size_t lanes, uint32_t tracks,
                                    uint32_t off, uint32_t null_key, uint32_t *key)
{
    size_t mapped = first < lanes ? (lanes - first < n ? lanes - first : n) : 0;
    if (lane_track) {
#pragma omp simd
        for (size_t i = 0; i < mapped; i++) {
            uint32_t tr = (uint32_t)lane_track[first + i]; /* a negative entry wraps past tracks */
            key[i] = tr < tracks ? tr + off : null_key;
        }
    } else {
#pragma omp simd
        for (size_t i = 0; i < mapped; i++) {
            uint32_t tr = (uint32_t)(first + i);
            key[i] = tr < tracks ? tr + off : null_key;
        }
    }
    for (size_t i = mapped; i < n; i++)
        key[i] = null_key;
}
