/* Local joint matrices for a chunk of joints in one branch-free loop, which
 * the compiler vectorizes across joints; then the hierarchy, one joint at
 * a time, as column arithmetic: in the x86 builds four-float SIMD columns
 * (fused multiply-adds in the FMA builds), in the scalar build plain
 * loops over the same formulas. CMake builds this file once per
 * instruction set. */
#include "matrix_kernel.h"
#include "../math/lane_quat.h"
#include "../clip/clip_access_internal.h"

#include <float.h>
#include <string.h>

#if defined(KERNEL_GATHER_SSE2) || defined(KERNEL_GATHER_AVX2)
#include <immintrin.h>
#endif

/* One loop for both cases; `scaled` is a constant where it is inlined, so
 * the unscaled copy carries no scale products. */
static inline __attribute__((always_inline)) void local_matrices(const local_in *in, local_out *restrict out,
                                                                 size_t n, bool scaled)
{
    const float *fx = in->fx, *fy = in->fy, *fz = in->fz, *fqx = in->fqx, *fqy = in->fqy, *fqz = in->fqz;
    const float *fqw = in->fqw, *tx = in->tx, *ty = in->ty, *tz = in->tz, *qx = in->qx, *qy = in->qy;
    const float *qz = in->qz, *qw = in->qw, *sx = in->sx, *sy = in->sy, *sz = in->sz;
    const float *fsx = in->fsx, *fsy = in->fsy, *fsz = in->fsz;
    const float *r0 = in->frot[0], *r1 = in->frot[1], *r2 = in->frot[2], *r3 = in->frot[3], *r4 = in->frot[4];
    const float *r5 = in->frot[5], *r6 = in->frot[6], *r7 = in->frot[7], *r8 = in->frot[8];
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float ax = fqx[i], ay = fqy[i], az = fqz[i], aw = fqw[i];
        /* frame rotation * pose rotation: its matrix is that of q / |q|,
         * built without a root from 2 q q^T / |q|^2 (the same matrix as
         * rune_mat4_from_xform of the normalized product, up to rounding);
         * |q| about 0 or not finite (a zero pose rotation) reads the pose
         * rotation as the identity: the frame's rotation */
        rune_quat q = rune_q_mul(rune_q(ax, ay, az, aw), rune_q(qx[i], qy[i], qz[i], qw[i]));
        /* |q|^2 as |frame|^2 |pose|^2: from the inputs, so the division
         * below runs beside the product instead of after it */
        float f2 = (ax * ax + ay * ay) + (az * az + aw * aw);
        float n2 = f2 * ((qx[i] * qx[i] + qy[i] * qy[i]) + (qz[i] * qz[i] + qw[i] * qw[i]));
        bool ok = n2 > 1e-30f && n2 <= FLT_MAX;
        float k = 2.0f / (n2 + (ok ? 0.0f : 1.0f));
        float x = ok ? q.x : ax, y = ok ? q.y : ay, z = ok ? q.z : az, w = ok ? q.w : aw;
        /* the rotation matrix, columns scaled */
        float xk = x * k, yk = y * k, zk = z * k;
        float xx = x * xk, yy = y * yk, zz = z * zk;
        float xy = x * yk, xz = x * zk, yz = y * zk;
        float wx = w * xk, wy = w * yk, wz = w * zk;
        float m[9] = {1 - (yy + zz), xy + wz, xz - wy, xy - wz, 1 - (xx + zz), yz + wx, xz + wy, yz - wx, 1 - (xx + yy)};
        /* the pose's translation in the frame's scale, rotated into the
         * frame by its matrix, plus the frame's translation */
        float a = tx[i], b = ty[i], c = tz[i];
        if (scaled) {
            float s[3] = {sx[i] * fsx[i], sy[i] * fsy[i], sz[i] * fsz[i]};
            for (int e = 0; e < 9; e++)
                m[e] *= s[e / 3];
            a *= fsx[i], b *= fsy[i], c *= fsz[i];
        }
        for (int e = 0; e < 9; e++)
            out->m[e][i] = m[e];
        out->m[9][i] = r0[i] * a + r3[i] * b + r6[i] * c + fx[i];
        out->m[10][i] = r1[i] * a + r4[i] * b + r7[i] * c + fy[i];
        out->m[11][i] = r2[i] * a + r5[i] * b + r8[i] * c + fz[i];
    }
}

void KERNEL(rune__local_matrices)(const local_in *in, local_out *restrict out, size_t n, bool scaled)
{
    if (scaled)
        local_matrices(in, out, n, true);
    else
        local_matrices(in, out, n, false);
}

/* The parent of a root: the identity (I * local is local, exactly). */
static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

#if defined(KERNEL_GATHER_SSE2) || defined(KERNEL_GATHER_AVX2)
#if defined(__FMA__)
#define MADD(a, b, c) _mm_fmadd_ps(a, b, c)
#else
#define MADD(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)
#endif

static inline __m128 clamp_column(__m128 v)
{
    return _mm_max_ps(_mm_min_ps(v, _mm_set1_ps(RUNE_MAX_MAGNITUDE)), _mm_set1_ps(-RUNE_MAX_MAGNITUDE));
}

/* One joint: four-float columns, 12 broadcast operands. */
static inline __attribute__((always_inline)) void chain_one(const local_out *local, size_t i, const float *p, bool clamp, float *out)
{
    const float *l[12];
    for (int e = 0; e < 12; e++)
        l[e] = &local->m[e][i];
    /* column c of model(parent) * local = sum over k of parent column k
     * times local element (k, c); the translation adds the parent's */
    __m128 p0 = _mm_loadu_ps(p), p1 = _mm_loadu_ps(p + 4), p2 = _mm_loadu_ps(p + 8), p3 = _mm_loadu_ps(p + 12);
    __m128 c0 = MADD(p2, _mm_set1_ps(*l[2]), MADD(p1, _mm_set1_ps(*l[1]), _mm_mul_ps(p0, _mm_set1_ps(*l[0]))));
    __m128 c1 = MADD(p2, _mm_set1_ps(*l[5]), MADD(p1, _mm_set1_ps(*l[4]), _mm_mul_ps(p0, _mm_set1_ps(*l[3]))));
    __m128 c2 = MADD(p2, _mm_set1_ps(*l[8]), MADD(p1, _mm_set1_ps(*l[7]), _mm_mul_ps(p0, _mm_set1_ps(*l[6]))));
    __m128 c3 = MADD(p2, _mm_set1_ps(*l[11]), MADD(p1, _mm_set1_ps(*l[10]), MADD(p0, _mm_set1_ps(*l[9]), p3)));
    if (clamp) {
        c0 = clamp_column(c0), c1 = clamp_column(c1), c2 = clamp_column(c2);
        c3 = clamp_column(c3); /* its w is 0 + 0 + 0 + 1: exactly 1, kept */
    }
    _mm_storeu_ps(out, c0);
    _mm_storeu_ps(out + 4, c1);
    _mm_storeu_ps(out + 8, c2);
    _mm_storeu_ps(out + 12, c3);
}

#if defined(KERNEL_GATHER_AVX2)
#if defined(__FMA__)
#define MADD8(a, b, c) _mm256_fmadd_ps(a, b, c)
#else
#define MADD8(a, b, c) _mm256_add_ps(_mm256_mul_ps(a, b), c)
#endif

/* Two joints side by side, neither the other's parent: each column pair in
 * one 8-float register ([joint i | joint i + 1]). Their local elements sit
 * next to each other (lanes i, i + 1), so one 8-byte broadcast and one
 * in-lane permute give [l_i x4 | l_i+1 x4]: half the loads of chain_one,
 * the same arithmetic in the same order. */
static inline __attribute__((always_inline)) void chain_two(const local_out *local, size_t i, const float *pa, const float *pb, bool clamp,
                             float *oa, float *ob)
{
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    __m256 l[12];
    for (int e = 0; e < 12; e++) {
        double pair; /* lanes i, i + 1 as 8 bytes (memcpy: i may be odd, so unaligned) */
        memcpy(&pair, &local->m[e][i], sizeof pair);
        l[e] = _mm256_permutevar_ps(_mm256_castpd_ps(_mm256_set1_pd(pair)), spread);
    }
    __m256 p[4];
    if (pa == pb) /* siblings: one load a column */
        for (int k = 0; k < 4; k++)
            p[k] = _mm256_broadcast_ps((const __m128 *)(pa + 4 * k));
    else
        for (int k = 0; k < 4; k++)
            p[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(pa + 4 * k)), _mm_loadu_ps(pb + 4 * k), 1);
    __m256 c[4];
    for (int k = 0; k < 3; k++)
        c[k] = MADD8(p[2], l[3 * k + 2], MADD8(p[1], l[3 * k + 1], _mm256_mul_ps(p[0], l[3 * k])));
    c[3] = MADD8(p[2], l[11], MADD8(p[1], l[10], MADD8(p[0], l[9], p[3])));
    for (int k = 0; k < 4; k++) {
        if (clamp)
            c[k] = _mm256_max_ps(_mm256_min_ps(c[k], _mm256_set1_ps(RUNE_MAX_MAGNITUDE)),
                                 _mm256_set1_ps(-RUNE_MAX_MAGNITUDE));
        _mm_storeu_ps(oa + 4 * k, _mm256_castps256_ps128(c[k]));
        _mm_storeu_ps(ob + 4 * k, _mm256_extractf128_ps(c[k], 1));
    }
}
#endif

/* `clamp` is a constant where this is inlined: the unclamped copy has no
 * tests in its loop */
static inline __attribute__((always_inline)) void model_chain(const local_out *local, const int32_t *parent,
                                                              size_t first, size_t n, bool clamp, rune_mat4 *model)
{
    for (size_t i = 0; i < n;) {
        size_t j = first + i;
        const float *p = parent[j] < 0 ? identity : model[parent[j]].m;
#if defined(KERNEL_GATHER_AVX2)
        /* siblings (and any joint whose parent is not the one before it)
         * go two at a time */
        if (i + 1 < n && parent[j + 1] != (int32_t)j) {
            const float *pb = parent[j + 1] < 0 ? identity : model[parent[j + 1]].m;
            chain_two(local, i, p, pb, clamp, model[j].m, model[j + 1].m);
            i += 2;
            continue;
        }
#endif
        chain_one(local, i, p, clamp, model[j].m);
        i++;
    }
}

void KERNEL(rune__model_chain)(const local_out *local, const int32_t *parent, size_t first, size_t n, bool clamp,
                               rune_mat4 *model)
{
    if (clamp)
        model_chain(local, parent, first, n, true, model);
    else
        model_chain(local, parent, first, n, false, model);
}
#else
void KERNEL(rune__model_chain)(const local_out *local, const int32_t *parent, size_t first, size_t n, bool clamp,
                               rune_mat4 *model)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = first + i;
        float l[12];
        for (int e = 0; e < 12; e++)
            l[e] = local->m[e][i];
        float *out = model[j].m;
        const float *p = parent[j] < 0 ? identity : model[parent[j]].m;
        float col[16];
        /* the same order of operations as the SSE builds: p0 l0, + p1 l1,
         * + p2 l2 (and + p3 for the translation, first) */
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                float v = c == 3 ? p[r] * l[9] + p[12 + r] : p[r] * l[c * 3];
                v = p[4 + r] * l[c * 3 + 1] + v;
                col[c * 4 + r] = p[8 + r] * l[c * 3 + 2] + v;
            }
        for (int e = 0; e < 16; e++)
            out[e] = clamp ? rune_clamp_magnitude(col[e]) : col[e];
        out[3] = out[7] = out[11] = 0.0f;
        out[15] = 1.0f;
    }
}
#endif

void KERNEL(rune__local_xforms)(const local_in *in, local_out *restrict out, size_t n)
{
    const float *fx = in->fx, *fy = in->fy, *fz = in->fz, *fqx = in->fqx, *fqy = in->fqy, *fqz = in->fqz;
    const float *fqw = in->fqw, *tx = in->tx, *ty = in->ty, *tz = in->tz, *qx = in->qx, *qy = in->qy;
    const float *qz = in->qz, *qw = in->qw;
    const float *r0 = in->frot[0], *r1 = in->frot[1], *r2 = in->frot[2], *r3 = in->frot[3], *r4 = in->frot[4];
    const float *r5 = in->frot[5], *r6 = in->frot[6], *r7 = in->frot[7], *r8 = in->frot[8];
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float ax = fqx[i], ay = fqy[i], az = fqz[i], aw = fqw[i];
        /* a zero pose rotation reads as the identity: the frame's rotation */
        rune_quat p = rune_q_mul(rune_q(ax, ay, az, aw), rune_q(qx[i], qy[i], qz[i], qw[i]));
        float n2 = rune_q_dot(p, p);
        bool ok = n2 > 1e-30f && n2 <= FLT_MAX;
        rune_quat q = lane_q_normalize(ok ? p : rune_q(ax, ay, az, aw));
        float a = tx[i], b = ty[i], c = tz[i];
        out->m[0][i] = r0[i] * a + r3[i] * b + r6[i] * c + fx[i];
        out->m[1][i] = r1[i] * a + r4[i] * b + r7[i] * c + fy[i];
        out->m[2][i] = r2[i] * a + r5[i] * b + r8[i] * c + fz[i];
        out->m[3][i] = q.x, out->m[4][i] = q.y, out->m[5][i] = q.z, out->m[6][i] = q.w;
    }
}

#if defined(KERNEL_GATHER_SSE2) || defined(KERNEL_GATHER_AVX2)
/* (v.y v.z v.x), lane 3 kept: for the cross products below */
#define YZX(v) _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 2, 1))
#define ZXY(v) _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 0, 2))

/* The chain reads each joint's local transform as two four-float rows,
 * [tx ty tz 0] and [qx qy qz qw]: local_out's lanes transposed four
 * joints at a time (n padded to a multiple of 4 by the kernels' lanes). */
typedef struct xform_rows {
    _Alignas(64) float v[RUNE_SAMPLE_CHUNK][8];
} xform_rows;

#if defined(__AVX512F__)
/* Four 16-byte vectors as one register, [a | b | c | d]. */
static inline __m512 quarters(__m128 a, __m128 b, __m128 c, __m128 d)
{
    __m512 lo = _mm512_insertf32x4(_mm512_castps128_ps512(a), b, 1);
    return _mm512_insertf32x4(_mm512_insertf32x4(lo, c, 2), d, 3);
}

static void xform_transpose(const local_out *local, size_t n, xform_rows *rows)
{
    /* four lanes' channels as [x0 x1 x2 x3 | y0.. | z0.. | 0], then one
     * permute to [t0 q0 t1 q1] and one to [t2 q2 t3 q3] */
    const __m512i lo = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
    const __m512i hi = _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
    for (size_t i = 0; i < n; i += 4) {
        __m512 t = quarters(_mm_loadu_ps(&local->m[0][i]), _mm_loadu_ps(&local->m[1][i]),
                            _mm_loadu_ps(&local->m[2][i]), _mm_setzero_ps());
        __m512 q = quarters(_mm_loadu_ps(&local->m[3][i]), _mm_loadu_ps(&local->m[4][i]),
                            _mm_loadu_ps(&local->m[5][i]), _mm_loadu_ps(&local->m[6][i]));
        _mm512_store_ps(rows->v[i], _mm512_permutex2var_ps(t, lo, q));
        _mm512_store_ps(rows->v[i + 2], _mm512_permutex2var_ps(t, hi, q));
    }
}
#else
static void xform_transpose(const local_out *local, size_t n, xform_rows *rows)
{
    for (size_t i = 0; i < n; i += 4) {
        __m128 t0 = _mm_loadu_ps(&local->m[0][i]), t1 = _mm_loadu_ps(&local->m[1][i]);
        __m128 t2 = _mm_loadu_ps(&local->m[2][i]), t3 = _mm_setzero_ps();
        __m128 q0 = _mm_loadu_ps(&local->m[3][i]), q1 = _mm_loadu_ps(&local->m[4][i]);
        __m128 q2 = _mm_loadu_ps(&local->m[5][i]), q3 = _mm_loadu_ps(&local->m[6][i]);
        _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
        _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
        const __m128 t[4] = {t0, t1, t2, t3}, q[4] = {q0, q1, q2, q3};
        for (size_t k = 0; k < 4; k++) {
            _mm_store_ps(rows->v[i + k], t[k]);
            _mm_store_ps(rows->v[i + k] + 4, q[k]);
        }
    }
}
#endif

/* One joint of the rigid chain (p: its parent's transform, NULL for a
 * root) in four-float vectors. */
static inline __attribute__((always_inline)) void xform_one(const float *row, const float *p, rune_xform *out)
{
    const __m128 s0 = _mm_setr_ps(0.0f, -0.0f, 0.0f, -0.0f), s1 = _mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f);
    const __m128 s2 = _mm_setr_ps(-0.0f, 0.0f, 0.0f, -0.0f), two = _mm_set1_ps(2.0f);
    __m128 l = _mm_load_ps(row), b = _mm_load_ps(row + 4);
    __m128 q = b, t = l;
    if (p) {
        __m128 ax = _mm_set1_ps(p[3]), ay = _mm_set1_ps(p[4]), az = _mm_set1_ps(p[5]), aw = _mm_set1_ps(p[6]);
        __m128 b0 = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(0, 1, 2, 3)), s0);
        __m128 b1 = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 0, 3, 2)), s1);
        __m128 b2 = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 3, 0, 1)), s2);
        q = _mm_add_ps(MADD(ay, b1, _mm_mul_ps(ax, b0)), MADD(aw, b, _mm_mul_ps(az, b2)));
        /* u x l, then u x (u x l): R(a) l = l + 2 (aw c + u x c); u's
         * last lane (aw) meets l's 0, and only reaches lane 3. u is made
         * from the broadcasts: a 16-byte load of the parent's rotation
         * would span its two stores, which the core cannot forward */
#if defined(__SSE4_1__)
        __m128 u = _mm_blend_ps(_mm_blend_ps(ax, ay, 0x2), _mm_blend_ps(az, aw, 0x8), 0xC);
#else
        __m128 u = _mm_setr_ps(p[3], p[4], p[5], p[6]);
#endif
        __m128 c = _mm_sub_ps(_mm_mul_ps(YZX(u), ZXY(l)), _mm_mul_ps(ZXY(u), YZX(l)));
        __m128 cc = _mm_sub_ps(_mm_mul_ps(YZX(u), ZXY(c)), _mm_mul_ps(ZXY(u), YZX(c)));
        t = _mm_add_ps(_mm_add_ps(l, _mm_loadu_ps(p)), _mm_mul_ps(two, MADD(aw, c, cc)));
    }
    _mm_storeu_ps(&out->r.x, q);
    __m128 hi = _mm_shuffle_ps(t, q, _MM_SHUFFLE(0, 0, 2, 2));
    _mm_storeu_ps(&out->t.x, _mm_shuffle_ps(t, hi, _MM_SHUFFLE(2, 0, 1, 0)));
}

#if defined(KERNEL_GATHER_AVX2)
#define YZX8(v) _mm256_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 2, 1))
#define ZXY8(v) _mm256_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 0, 2))

/* [lo | hi] from two four-float vectors */
static inline __m256 halves(__m128 lo, __m128 hi) { return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1); }

/* Two joints side by side, neither the other's parent, neither a root:
 * xform_one's operations lane for lane in 8-float registers ([joint i |
 * joint i + 1]: the same bits), the parents' components broadcast into
 * each half (one broadcast each for siblings, whose parent is one). */
static inline __attribute__((always_inline)) void xform_two(const float *row, const float *pa, const float *pb,
                                                            rune_xform *oa, rune_xform *ob)
{
    const __m256 s0 = _mm256_setr_ps(0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f);
    const __m256 s1 = _mm256_setr_ps(0.0f, 0.0f, -0.0f, -0.0f, 0.0f, 0.0f, -0.0f, -0.0f);
    const __m256 s2 = _mm256_setr_ps(-0.0f, 0.0f, 0.0f, -0.0f, -0.0f, 0.0f, 0.0f, -0.0f), two = _mm256_set1_ps(2.0f);
    /* the two joints' rows are adjacent: [l_i b_i] [l_k b_k] */
    __m256 ri = _mm256_load_ps(row), rk = _mm256_load_ps(row + 8);
    __m256 l = _mm256_permute2f128_ps(ri, rk, 0x20), b = _mm256_permute2f128_ps(ri, rk, 0x31);
    bool siblings = pa == pb;
    __m256 a[4];
    for (int e = 0; e < 4; e++)
        a[e] = siblings ? _mm256_broadcast_ss(pa + 3 + e) : halves(_mm_set1_ps(pa[3 + e]), _mm_set1_ps(pb[3 + e]));
    __m256 b0 = _mm256_xor_ps(_mm256_shuffle_ps(b, b, _MM_SHUFFLE(0, 1, 2, 3)), s0);
    __m256 b1 = _mm256_xor_ps(_mm256_shuffle_ps(b, b, _MM_SHUFFLE(1, 0, 3, 2)), s1);
    __m256 b2 = _mm256_xor_ps(_mm256_shuffle_ps(b, b, _MM_SHUFFLE(2, 3, 0, 1)), s2);
    __m256 q = _mm256_add_ps(MADD8(a[1], b1, _mm256_mul_ps(a[0], b0)), MADD8(a[3], b, _mm256_mul_ps(a[2], b2)));
    __m256 u = _mm256_blend_ps(_mm256_blend_ps(a[0], a[1], 0x22), _mm256_blend_ps(a[2], a[3], 0x88), 0xCC);
    __m256 c = _mm256_sub_ps(_mm256_mul_ps(YZX8(u), ZXY8(l)), _mm256_mul_ps(ZXY8(u), YZX8(l)));
    __m256 cc = _mm256_sub_ps(_mm256_mul_ps(YZX8(u), ZXY8(c)), _mm256_mul_ps(ZXY8(u), YZX8(c)));
    __m256 pt = siblings ? _mm256_broadcast_ps((const __m128 *)(const void *)pa) : halves(_mm_loadu_ps(pa), _mm_loadu_ps(pb));
    __m256 t = _mm256_add_ps(_mm256_add_ps(l, pt), _mm256_mul_ps(two, MADD8(a[3], c, cc)));
    __m256 hi = _mm256_shuffle_ps(t, q, _MM_SHUFFLE(0, 0, 2, 2));
    __m256 tr = _mm256_shuffle_ps(t, hi, _MM_SHUFFLE(2, 0, 1, 0));
    _mm_storeu_ps(&oa->r.x, _mm256_castps256_ps128(q));
    _mm_storeu_ps(&oa->t.x, _mm256_castps256_ps128(tr));
    _mm_storeu_ps(&ob->r.x, _mm256_extractf128_ps(q, 1));
    _mm_storeu_ps(&ob->t.x, _mm256_extractf128_ps(tr, 1));
}
#undef YZX8
#undef ZXY8
#endif

#if defined(__AVX512F__)
#define YZX16(v) _mm512_permute_ps(v, _MM_SHUFFLE(3, 0, 2, 1))
#define ZXY16(v) _mm512_permute_ps(v, _MM_SHUFFLE(3, 1, 0, 2))

/* Four joints side by side, none the parent of another, none a root:
 * xform_one's operations in each 128-bit quarter of 16-float registers
 * (the same bits). A parent's rotation is read as the 16 bytes its joint
 * stored it with (forwarded from the store), its components spread
 * across each quarter in the register. */
static inline __attribute__((always_inline)) void xform_four(const float *row, const float *const p[4],
                                                             rune_xform *out)
{
    const __m512 sign0 = _mm512_broadcast_f32x4(_mm_setr_ps(0.0f, -0.0f, 0.0f, -0.0f));
    const __m512 sign1 = _mm512_broadcast_f32x4(_mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f));
    const __m512 sign2 = _mm512_broadcast_f32x4(_mm_setr_ps(-0.0f, 0.0f, 0.0f, -0.0f)), two = _mm512_set1_ps(2.0f);
    /* the four joints' rows are adjacent: [l_i b_i l_i+1 b_i+1] [l_i+2 b_i+2 l_i+3 b_i+3] */
    __m512 r0 = _mm512_loadu_ps(row), r1 = _mm512_loadu_ps(row + 16);
    __m512 l = _mm512_shuffle_f32x4(r0, r1, _MM_SHUFFLE(2, 0, 2, 0));
    __m512 b = _mm512_shuffle_f32x4(r0, r1, _MM_SHUFFLE(3, 1, 3, 1));
    /* u: each parent's rotation (x y z w) in its joint's quarter */
    __m512 u = quarters(_mm_loadu_ps(p[0] + 3), _mm_loadu_ps(p[1] + 3), _mm_loadu_ps(p[2] + 3), _mm_loadu_ps(p[3] + 3));
    __m512 ax = _mm512_permute_ps(u, 0x00), ay = _mm512_permute_ps(u, 0x55);
    __m512 az = _mm512_permute_ps(u, 0xAA), aw = _mm512_permute_ps(u, 0xFF);
    __m512 b0 = _mm512_xor_ps(_mm512_permute_ps(b, _MM_SHUFFLE(0, 1, 2, 3)), sign0);
    __m512 b1 = _mm512_xor_ps(_mm512_permute_ps(b, _MM_SHUFFLE(1, 0, 3, 2)), sign1);
    __m512 b2 = _mm512_xor_ps(_mm512_permute_ps(b, _MM_SHUFFLE(2, 3, 0, 1)), sign2);
    __m512 q = _mm512_add_ps(_mm512_fmadd_ps(ay, b1, _mm512_mul_ps(ax, b0)), _mm512_fmadd_ps(aw, b, _mm512_mul_ps(az, b2)));
    __m512 c = _mm512_sub_ps(_mm512_mul_ps(YZX16(u), ZXY16(l)), _mm512_mul_ps(ZXY16(u), YZX16(l)));
    __m512 cc = _mm512_sub_ps(_mm512_mul_ps(YZX16(u), ZXY16(c)), _mm512_mul_ps(ZXY16(u), YZX16(c)));
    __m512 pt = quarters(_mm_loadu_ps(p[0]), _mm_loadu_ps(p[1]), _mm_loadu_ps(p[2]), _mm_loadu_ps(p[3]));
    __m512 t = _mm512_add_ps(_mm512_add_ps(l, pt), _mm512_mul_ps(two, _mm512_fmadd_ps(aw, c, cc)));
    __m512 hi = _mm512_shuffle_ps(t, q, _MM_SHUFFLE(0, 0, 2, 2));
    __m512 tr = _mm512_shuffle_ps(t, hi, _MM_SHUFFLE(2, 0, 1, 0));
    _mm_storeu_ps(&out[0].r.x, _mm512_castps512_ps128(q));
    _mm_storeu_ps(&out[0].t.x, _mm512_castps512_ps128(tr));
    _mm_storeu_ps(&out[1].r.x, _mm512_extractf32x4_ps(q, 1));
    _mm_storeu_ps(&out[1].t.x, _mm512_extractf32x4_ps(tr, 1));
    _mm_storeu_ps(&out[2].r.x, _mm512_extractf32x4_ps(q, 2));
    _mm_storeu_ps(&out[2].t.x, _mm512_extractf32x4_ps(tr, 2));
    _mm_storeu_ps(&out[3].r.x, _mm512_extractf32x4_ps(q, 3));
    _mm_storeu_ps(&out[3].t.x, _mm512_extractf32x4_ps(tr, 3));
}
#undef YZX16
#undef ZXY16
#endif

/* The rigid chain in four-float vectors. Both products are linear in the
 * parent's rotation a, so a's four components are broadcast from memory
 * and multiply vectors built from the local transform alone (off the
 * chain's critical path): a * b = ax B0 + ay B1 + az B2 + aw b with B0..B2
 * b's components reordered and signed, and u x l (u = a.xyz) likewise.
 * A joint is stored as its rotation, then its translation as 16 bytes
 * whose last lane is the rotation's x: a child's loads then each read
 * within one store, which the core forwards. The AVX2 builds take two
 * joints at a time where they can, as the matrix chain does. */
void KERNEL(rune__xform_chain)(const local_out *local, const int32_t *parent, size_t first, size_t n,
                               rune_xform *model)
{
    xform_rows rows;
    xform_transpose(local, n, &rows);
    for (size_t i = 0; i < n;) {
        size_t j = first + i;
        const float *p = parent[j] < 0 ? NULL : &model[parent[j]].t.x;
#if defined(__AVX512F__)
        /* four at a time where none of them is another's parent */
        if (p && i + 3 < n && parent[j + 1] >= 0 && parent[j + 1] < (int32_t)j && parent[j + 2] >= 0 &&
            parent[j + 2] < (int32_t)j && parent[j + 3] >= 0 && parent[j + 3] < (int32_t)j) {
            const float *const four[4] = {p, &model[parent[j + 1]].t.x, &model[parent[j + 2]].t.x,
                                          &model[parent[j + 3]].t.x};
            xform_four(rows.v[i], four, &model[j]);
            i += 4;
            continue;
        }
#endif
#if defined(KERNEL_GATHER_AVX2)
        if (p && i + 1 < n && parent[j + 1] >= 0 && parent[j + 1] != (int32_t)j) {
            xform_two(rows.v[i], p, &model[parent[j + 1]].t.x, &model[j], &model[j + 1]);
            i += 2;
            continue;
        }
#endif
        xform_one(rows.v[i], p, &model[j]);
        i++;
    }
}
#undef YZX
#undef ZXY
#else
void KERNEL(rune__xform_chain)(const local_out *local, const int32_t *parent, size_t first, size_t n,
                               rune_xform *model)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = first + i;
        float lx = local->m[0][i], ly = local->m[1][i], lz = local->m[2][i];
        float bx = local->m[3][i], by = local->m[4][i], bz = local->m[5][i], bw = local->m[6][i];
        if (parent[j] < 0) {
            model[j] = (rune_xform){{lx, ly, lz}, {bx, by, bz, bw}};
            continue;
        }
        const rune_xform *p = &model[parent[j]];
        float ax = p->r.x, ay = p->r.y, az = p->r.z, aw = p->r.w;
        /* the vector builds' operations in their order, lane by lane (the
         * same bits): a * b as (ay B1 + ax B0) + (aw b + az B2); both
         * unit, so the product stays unit within rounding, and a root and
         * a division per joint would double the chain's cost */
        rune_quat q = {(ay * bz + ax * bw) + (aw * bx + az * -by), (ay * bw + ax * -bz) + (aw * by + az * bx),
                       (ay * -bx + ax * by) + (aw * bz + az * bw), (ay * -by + ax * -bx) + (aw * bw + az * -bz)};
        /* R(a) l = l + 2 (aw c + u x c), c = u x l, plus the parent's
         * translation */
        float cx = ay * lz - az * ly, cy = az * lx - ax * lz, cz = ax * ly - ay * lx;
        float ccx = ay * cz - az * cy, ccy = az * cx - ax * cz, ccz = ax * cy - ay * cx;
        model[j] = (rune_xform){{(lx + p->t.x) + 2.0f * (aw * cx + ccx), (ly + p->t.y) + 2.0f * (aw * cy + ccy),
                                 (lz + p->t.z) + 2.0f * (aw * cz + ccz)},
                                q};
    }
}
#endif
