/* Skinning kernels (skin_kernel.h). A vertex at a time, its palette
 * entries whole: a matrix is one 16-lane value (GCC's and Clang's vector
 * extensions lower it to one AVX-512 register, two AVX or four SSE ones,
 * or sixteen floats in the scalar build), a dual quaternion one of 8, so
 * blending an influence is one multiply-add of contiguous memory, not 12
 * gathers. The arithmetic has one order in every build, so the scalar,
 * SSE2 and AVX2 builds agree bit for bit (the FMA builds within a few
 * ulps). Each combination of influence count, normals, tangents and
 * stretch is its own loop (the helpers inline with them as constants),
 * so no vertex tests what the job asks for. */
#include "skin_kernel.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The range loops are instantiated for each constant combination below;
 * inlining them is what makes the constants fold away. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

uint16_t KERNEL(rune__skin_joint_max)(const skin_args *a, size_t n)
{
    uint16_t top = 0;
    size_t k = a->influences;
    if (a->joints_stride == k * sizeof(uint16_t)) { /* packed: one run, vectorized */
        const uint16_t *j = (const uint16_t *)a->joints;
        for (size_t i = 0; i < k * n; i++)
            top = j[i] > top ? j[i] : top;
        return top;
    }
    for (size_t v = 0; v < n; v++) {
        const uint16_t *j = (const uint16_t *)(a->joints + v * a->joints_stride);
        for (size_t i = 0; i < k; i++)
            top = j[i] > top ? j[i] : top;
    }
    return top;
}

/* x / |x|, 0 for 0 (r = 1 / sqrt(d) where d > 0, else 0, without a branch). */
static inline void normalize3(float *x, float *y, float *z)
{
    float d = *x * *x + *y * *y + *z * *z;
    float r = d > 0.0f ? 1.0f / sqrtf(d) : 0.0f;
    *x *= r, *y *= r, *z *= r;
}

/* A whole palette matrix as one value of 16 lanes (one AVX-512 register,
 * two AVX, four SSE, sixteen floats in the scalar build: GCC's and
 * Clang's vector extensions lower it to what the build has), and a
 * column of 4. */
typedef float v16 __attribute__((vector_size(64)));
typedef float v8 __attribute__((vector_size(32)));
typedef float v4 __attribute__((vector_size(16)));

static inline v16 load16(const float *p)
{
    v16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The blended matrix of a vertex (its joints j, weights w): the sum over
 * its K influences of weight times palette matrix, the whole matrix at
 * once (no gather: an entry is contiguous). K is a constant in each
 * instance below, so the loop unrolls. */
static inline v16 blend_matrix(const float *restrict palette, const uint16_t *j, const float *w, uint32_t K)
{
    v16 m = w[0] * load16(palette + 16 * (size_t)j[0]);
    for (uint32_t k = 1; k < K; k++)
        m += w[k] * load16(palette + 16 * (size_t)j[k]);
    return m;
}

/* m times (x, y, z, h): each column scaled by its coordinate in one
 * product, then the columns added in one order for every build, the
 * halves first ((c0 + c2) + (c1 + c3): one add of two AVX registers, then
 * one of their halves). */
static inline v4 transform(v16 m, float x, float y, float z, float h)
{
    v16 t = m * (v16){x, x, x, x, y, y, y, y, z, z, z, z, h, h, h, h};
    v8 half[2];
    memcpy(half, &t, sizeof half);
    v8 s = half[0] + half[1];
    v4 c[2];
    memcpy(c, &s, sizeof c);
    return c[0] + c[1];
}

/* The first three lanes of r to o (no trip through the stack). */
static inline void store3(void *o, v4 r)
{
    float *f = o;
    f[0] = r[0], f[1] = r[1], f[2] = r[2];
}

/* A normal or tangent through m's linear part, normalized when asked. */
static inline void turn_linear(const float *q, float *o, v16 m, bool normalize)
{
    v4 r = transform(m, q[0], q[1], q[2], 0.0f);
    if (normalize) {
        float x = r[0], y = r[1], z = r[2];
        normalize3(&x, &y, &z);
        o[0] = x, o[1] = y, o[2] = z;
    } else
        store3(o, r);
}

/* A range's streams: each walked by its own pointer, the job's fields
 * read once (the output stores could alias them otherwise, and the
 * compiler would reload them each vertex). */
typedef struct streams {
    const char *restrict joints, *restrict weights, *restrict positions, *restrict normals, *restrict tangents;
    char *restrict out_positions, *restrict out_normals, *restrict out_tangents;
} streams;

static ALWAYS_INLINE streams streams_at(const skin_args *a, size_t first, bool N, bool T)
{
    return (streams){a->joints + first * a->joints_stride,
                     a->weights + first * a->weights_stride,
                     a->positions + first * a->positions_stride,
                     N ? a->normals + first * a->normals_stride : NULL,
                     T ? a->tangents + first * a->tangents_stride : NULL,
                     a->out_positions + first * a->out_positions_stride,
                     N ? a->out_normals + first * a->out_normals_stride : NULL,
                     T ? a->out_tangents + first * a->out_tangents_stride : NULL};
}

/* On to the next vertex (strides read from the job: loop invariants). */
static ALWAYS_INLINE void streams_next(streams *s, const skin_args *a, bool N, bool T)
{
    s->joints += a->joints_stride, s->weights += a->weights_stride, s->positions += a->positions_stride;
    s->out_positions += a->out_positions_stride;
    if (N)
        s->normals += a->normals_stride, s->out_normals += a->out_normals_stride;
    if (T)
        s->tangents += a->tangents_stride, s->out_tangents += a->out_tangents_stride;
}

/* Vertices [first, first + n) with K influences, normals (N) and tangents
 * (T) or not. */
static ALWAYS_INLINE void linear_range(const skin_args *args, size_t first, size_t n, uint32_t K, bool N, bool T)
{
    /* a local copy: the stores below cannot alias it, so its strides and
     * flags stay in registers */
    const skin_args job = *args, *a = &job;
    const float *restrict pal = a->matrices;
    streams st = streams_at(a, first, N, T);
    for (size_t i = 0; i < n; i++, streams_next(&st, a, N, T)) {
        v16 m = blend_matrix(pal, (const uint16_t *)st.joints, (const float *)st.weights, K);
        const float *p = (const float *)st.positions;
        store3(st.out_positions, transform(m, p[0], p[1], p[2], 1.0f));
        if (N)
            turn_linear((const float *)st.normals, (float *)st.out_normals, m, a->normalize);
        if (T) {
            turn_linear((const float *)st.tangents, (float *)st.out_tangents, m, a->normalize);
            ((float *)st.out_tangents)[3] = ((const float *)st.tangents)[3];
        }
    }
}

#define LINEAR_RANGE(K)                                                                                               \
    static void linear_##K(const skin_args *a, size_t first, size_t n)                                                \
    {                                                                                                                 \
        if (a->normals && a->tangents)                                                                                \
            linear_range(a, first, n, K, true, true);                                                                 \
        else if (a->normals)                                                                                          \
            linear_range(a, first, n, K, true, false);                                                                \
        else                                                                                                          \
            linear_range(a, first, n, K, false, false);                                                               \
    }
LINEAR_RANGE(1)
LINEAR_RANGE(2)
LINEAR_RANGE(3)
LINEAR_RANGE(4)
LINEAR_RANGE(5)
LINEAR_RANGE(6)
LINEAR_RANGE(7)
LINEAR_RANGE(8)

void KERNEL(rune__skin_linear)(const skin_args *a, size_t first, size_t n)
{
    static void (*const by_count[RUNE_SKIN_MAX_INFLUENCES])(const skin_args *, size_t, size_t) = {
        linear_1, linear_2, linear_3, linear_4, linear_5, linear_6, linear_7, linear_8};
    by_count[a->influences - 1](a, first, n);
}

static inline v8 load8(const float *p)
{
    v8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The blended dual quaternion of a vertex (its joints j, weights w):
 * real and dual parts as one 8-lane value, each influence turned to the
 * first's hemisphere (the antipodality fix: q and -q are one rotation,
 * and blending across them would cancel). Not normalized: *s2 gets
 * 2 / |real|^2, which the rotation and translation below divide by
 * instead (one division, no square root; 0 for a zero blend, or one too
 * small to divide by, which then moves nothing). dq's entries are rune_skin_dq: real, dual, stretch. */
static inline v8 blend_dual(const rune_skin_dq *restrict dq, const uint16_t *j, const float *w, uint32_t K, float *s2)
{
    const float *q0 = &dq[j[0]].real.x;
    v8 b = w[0] * load8(q0);
    for (uint32_t k = 1; k < K; k++) {
        const float *q = &dq[j[k]].real.x;
        float dot = q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3];
        b += (dot < 0.0f ? -w[k] : w[k]) * load8(q);
    }
    float len2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
    /* below the smallest normal float (weights of 1e-20 pass the loader),
     * 2 / len2 would pass the largest: such a blend counts as zero */
    *s2 = len2 >= FLT_MIN ? 2.0f / len2 : 0.0f;
    return b;
}

/* The blended stretch of a vertex (column-major 3x3, in 9 floats). */
static inline void blend_stretch(const rune_skin_dq *restrict dq, const uint16_t *j, const float *w, uint32_t K,
                                 float s[9])
{
    for (int e = 0; e < 9; e++)
        s[e] = w[0] * dq[j[0]].stretch[e];
    for (uint32_t k = 1; k < K; k++)
        for (int e = 0; e < 9; e++)
            s[e] += w[k] * dq[j[k]].stretch[e];
}

/* Turns (x, y, z) by the quaternion r (lanes 0-3 of b; s2 = 2 / |r|^2):
 * v + s2 (w (r x v) + r x (r x v)), the rotation of r / |r|. */
static inline void turn(v8 b, float s2, float *x, float *y, float *z)
{
    float cx = b[1] * *z - b[2] * *y, cy = b[2] * *x - b[0] * *z, cz = b[0] * *y - b[1] * *x;
    float ex = b[1] * cz - b[2] * cy, ey = b[2] * cx - b[0] * cz, ez = b[0] * cy - b[1] * cx;
    *x += s2 * (b[3] * cx + ex);
    *y += s2 * (b[3] * cy + ey);
    *z += s2 * (b[3] * cz + ez);
}

static inline void apply_stretch(const float s[9], float *x, float *y, float *z)
{
    float px = *x, py = *y, pz = *z;
    *x = s[0] * px + s[3] * py + s[6] * pz;
    *y = s[1] * px + s[4] * py + s[7] * pz;
    *z = s[2] * px + s[5] * py + s[8] * pz;
}

/* Vertices [first, first + n) with K influences, stretch (S), normals (N)
 * and tangents (T) or not, walked as linear_range does. Normals are only
 * turned (a stretch that scales uniformly leaves a normal's direction). */
static ALWAYS_INLINE void dual_range(const skin_args *a, size_t first, size_t n, uint32_t K, bool S, bool N, bool T)
{
    const rune_skin_dq *restrict dq = a->dqs;
    streams st = streams_at(a, first, N, T);
    for (size_t i = 0; i < n; i++, streams_next(&st, a, N, T)) {
        const uint16_t *j = (const uint16_t *)st.joints;
        const float *w = (const float *)st.weights, *p = (const float *)st.positions;
        float s2;
        v8 b = blend_dual(dq, j, w, K, &s2);
        float s[9];
        if (S)
            blend_stretch(dq, j, w, K, s);
        float x = p[0], y = p[1], z = p[2];
        if (S)
            apply_stretch(s, &x, &y, &z);
        turn(b, s2, &x, &y, &z);
        /* translation: 2 d conj(r) / |r|^2, its vector part */
        float *o = (float *)st.out_positions;
        o[0] = x + s2 * (-b[7] * b[0] + b[4] * b[3] - b[5] * b[2] + b[6] * b[1]);
        o[1] = y + s2 * (-b[7] * b[1] + b[5] * b[3] - b[6] * b[0] + b[4] * b[2]);
        o[2] = z + s2 * (-b[7] * b[2] + b[6] * b[3] - b[4] * b[1] + b[5] * b[0]);
        if (N) {
            const float *q = (const float *)st.normals;
            float nx = q[0], ny = q[1], nz = q[2], *on = (float *)st.out_normals;
            turn(b, s2, &nx, &ny, &nz);
            if (a->normalize) /* a rotation keeps the length: only for input that was not unit */
                normalize3(&nx, &ny, &nz);
            on[0] = nx, on[1] = ny, on[2] = nz;
        }
        if (T) {
            const float *q = (const float *)st.tangents;
            float tx = q[0], ty = q[1], tz = q[2], *ot = (float *)st.out_tangents;
            if (S)
                apply_stretch(s, &tx, &ty, &tz);
            turn(b, s2, &tx, &ty, &tz);
            if (a->normalize)
                normalize3(&tx, &ty, &tz);
            ot[0] = tx, ot[1] = ty, ot[2] = tz, ot[3] = q[3];
        }
    }
}

#define DUAL_RANGE(K)                                                                                                 \
    static void dual_##K(const skin_args *a, size_t first, size_t n)                                                  \
    {                                                                                                                 \
        bool nrm = a->normals != NULL, tan = a->tangents != NULL;                                                     \
        if (a->stretch)                                                                                               \
            dual_range(a, first, n, K, true, nrm, tan);                                                               \
        else if (nrm && tan)                                                                                          \
            dual_range(a, first, n, K, false, true, true);                                                            \
        else if (nrm)                                                                                                 \
            dual_range(a, first, n, K, false, true, false);                                                           \
        else                                                                                                          \
            dual_range(a, first, n, K, false, false, false);                                                          \
    }
DUAL_RANGE(1)
DUAL_RANGE(2)
DUAL_RANGE(3)
DUAL_RANGE(4)
DUAL_RANGE(5)
DUAL_RANGE(6)
DUAL_RANGE(7)
DUAL_RANGE(8)

void KERNEL(rune__skin_dual)(const skin_args *a, size_t first, size_t n)
{
    static void (*const by_count[RUNE_SKIN_MAX_INFLUENCES])(const skin_args *, size_t, size_t) = {
        dual_1, dual_2, dual_3, dual_4, dual_5, dual_6, dual_7, dual_8};
    by_count[a->influences - 1](a, first, n);
}
