/* Skinning kernels (skin_kernel.h). Palette entries are blended whole,
 * a vertex at a time: a matrix is one 16-lane value (GCC's and Clang's
 * vector extensions lower it to one AVX-512 register, two AVX or four SSE
 * ones, or sixteen floats in the scalar build), a dual quaternion one of
 * 8, so blending an influence is one multiply-add of contiguous memory,
 * not 12 gathers. Linear blending then transforms the vertex by its
 * matrix; dual quaternions (without stretch) are transposed eight
 * vertices at a time, one a lane, for the turn and translation. The
 * arithmetic has one order in every build, so the scalar, SSE2 and AVX2
 * builds agree bit for bit (the FMA builds within a few ulps). Each
 * combination of influence count, normals, tangents and stretch is its
 * own loop (the helpers inline with them as constants), so no vertex
 * tests what the job asks for. */
#include "skin_kernel.h"

#include <float.h>
#include <stdint.h>
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
 * and blending across them would cancel). Not normalized. dq's entries
 * are rune_skin_dq: real, dual, stretch. */
static inline v8 blend_dual(const rune_skin_dq *restrict dq, const uint16_t *j, const float *w, uint32_t K)
{
    const float *q0 = &dq[j[0]].real.x;
    v8 b = w[0] * load8(q0);
    for (uint32_t k = 1; k < K; k++) {
        const float *q = &dq[j[k]].real.x;
        float dot = q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3];
        b += (dot < 0.0f ? -w[k] : w[k]) * load8(q);
    }
    return b;
}

/* 2 / |r|^2 for a blend's real part r of squared length len2, which the
 * rotation and translation divide by instead of normalizing (one
 * division, no square root); 0 for a zero blend, or one too small to
 * divide by -- below the smallest normal float (weights of 1e-20 pass
 * the loader) 2 / len2 would pass the largest -- which then moves
 * nothing. */
static inline float dual_scale(float len2) { return len2 >= FLT_MIN ? 2.0f / len2 : 0.0f; }

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

/* Vertices [first, first + n) with K influences and the palette's
 * stretches, normals (N) and tangents (T) or not, a vertex at a time,
 * walked as linear_range does (without stretch: dual_blocks). Normals are
 * only turned (a stretch that scales uniformly leaves a normal's
 * direction). */
static ALWAYS_INLINE void dual_stretched_range(const skin_args *a, size_t first, size_t n, uint32_t K, bool N, bool T)
{
    const rune_skin_dq *restrict dq = a->dqs;
    streams st = streams_at(a, first, N, T);
    for (size_t i = 0; i < n; i++, streams_next(&st, a, N, T)) {
        const uint16_t *j = (const uint16_t *)st.joints;
        const float *w = (const float *)st.weights, *p = (const float *)st.positions;
        v8 b = blend_dual(dq, j, w, K);
        float s2 = dual_scale(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
        float s[9];
        blend_stretch(dq, j, w, K, s);
        float x = p[0], y = p[1], z = p[2];
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
            apply_stretch(s, &tx, &ty, &tz);
            turn(b, s2, &tx, &ty, &tz);
            if (a->normalize)
                normalize3(&tx, &ty, &tz);
            ot[0] = tx, ot[1] = ty, ot[2] = tz, ot[3] = q[3];
        }
    }
}

/* ---- dual quaternions eight vertices at a time ----
 * Without stretch, the block path holds eight vertices a lane each: the
 * palette entries of each influence transposed into lanes, blended with
 * the hemisphere test on all eight, then normalized, turned and
 * translated in plain loops the compiler vectorizes. The arithmetic per
 * vertex is dual_stretched_range's less the stretch, in its order. */
enum { DUAL_LANES = 8 };

/* Each 128-bit half of a[0..3] read as a 4x4 matrix of rows, its
 * columns: out[k] holds column k of the low halves' matrix in its low
 * half and of the high halves' in its high half. Two rounds of in-lane
 * shuffles, the step every transpose below is made of. */
#define SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
static ALWAYS_INLINE void transpose_halves(const v8 a[4], v8 out[4])
{
    v8 t0 = SHUF(a[0], a[1], 0, 8, 1, 9, 4, 12, 5, 13), t1 = SHUF(a[0], a[1], 2, 10, 3, 11, 6, 14, 7, 15);
    v8 t2 = SHUF(a[2], a[3], 0, 8, 1, 9, 4, 12, 5, 13), t3 = SHUF(a[2], a[3], 2, 10, 3, 11, 6, 14, 7, 15);
    out[0] = SHUF(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13), out[1] = SHUF(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    out[2] = SHUF(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13), out[3] = SHUF(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
}

/* The rows of an 8x8 matrix as its columns: rows 0-3 and 4-7 transposed
 * by halves, then their halves joined -- three rounds of shuffles. */
static inline void transpose8(const v8 r[8], v8 out[8])
{
    v8 top[4], bottom[4];
    transpose_halves(r, top);
    transpose_halves(r + 4, bottom);
    for (int c = 0; c < 4; c++) {
        out[c] = SHUF(top[c], bottom[c], 0, 1, 2, 3, 8, 9, 10, 11);
        out[c + 4] = SHUF(top[c], bottom[c], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* The four floats at each of p[0..7] as four vectors of lanes (out[k][i]
 * = p[i][k]): p[i] and p[i + 4] in one register, then transposed by
 * halves -- a third of the shuffles of putting the lanes together one
 * float at a time. */
static ALWAYS_INLINE void transpose8x4(const float *const p[DUAL_LANES], v8 out[4])
{
    v8 a[4];
    for (int i = 0; i < 4; i++) { /* [p[i] | p[i + 4]] */
        v4 lo, hi;
        memcpy(&lo, p[i], sizeof lo);
        memcpy(&hi, p[i + 4], sizeof hi);
        a[i] = SHUF(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
    }
    transpose_halves(a, out);
}

/* Lanes past a block's last vertex: joint 0 at weight 0 (a zero blend,
 * which moves nothing) at the origin; never written back. */
static const uint16_t idle_joints[RUNE_SKIN_MAX_INFLUENCES];
static const float idle_floats[RUNE_SKIN_MAX_INFLUENCES];

/* x, y, z of lanes: turned by the blends' rotations (the per-vertex turn's arithmetic). */
static inline void turn_lanes(float b[8][DUAL_LANES], const float *s2, float *x, float *y, float *z)
{
#pragma omp simd
    for (int i = 0; i < DUAL_LANES; i++) {
        float cx = b[1][i] * z[i] - b[2][i] * y[i], cy = b[2][i] * x[i] - b[0][i] * z[i];
        float cz = b[0][i] * y[i] - b[1][i] * x[i];
        float ex = b[1][i] * cz - b[2][i] * cy, ey = b[2][i] * cx - b[0][i] * cz, ez = b[0][i] * cy - b[1][i] * cx;
        x[i] += s2[i] * (b[3][i] * cx + ex);
        y[i] += s2[i] * (b[3][i] * cy + ey);
        z[i] += s2[i] * (b[3][i] * cz + ez);
    }
}

static inline void normalize_lanes(float *x, float *y, float *z)
{
#pragma omp simd
    for (int i = 0; i < DUAL_LANES; i++) {
        float d = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
        float r = d > 0.0f ? 1.0f / sqrtf(d) : 0.0f;
        x[i] *= r, y[i] *= r, z[i] *= r;
    }
}

/* Lanes of v[3][8] from the vertices at p, stride bytes apart (lanes m
 * and past: 0). A full block whose 16-byte reads stay inside the buffer
 * (`wide`: the job checked) loads each vertex whole and transposes; else
 * each lane vector is put together in registers (eight scalar stores read
 * back as one vector would wait for all of them). */
static ALWAYS_INLINE void gather3(float v[3][DUAL_LANES], const char *p, size_t stride, size_t m, bool wide)
{
    if (m == DUAL_LANES && wide) { /* (x, y, z, next) of each vertex */
        const float *row[DUAL_LANES];
        for (size_t i = 0; i < DUAL_LANES; i++)
            row[i] = (const float *)(p + i * stride);
        v8 c[4];
        transpose8x4(row, c);
        memcpy(v[0], &c[0], sizeof c[0]), memcpy(v[1], &c[1], sizeof c[1]), memcpy(v[2], &c[2], sizeof c[2]);
        return;
    }
    const float *f[DUAL_LANES];
    for (size_t i = 0; i < DUAL_LANES; i++)
        f[i] = i < m ? (const float *)(p + i * stride) : idle_floats;
    for (int c = 0; c < 3; c++) {
        v8 x = {f[0][c], f[1][c], f[2][c], f[3][c], f[4][c], f[5][c], f[6][c], f[7][c]};
        memcpy(v[c], &x, sizeof x);
    }
}

/* Lanes [0, m) of v[3][8] to the vertices at p, stride bytes apart: 12
 * bytes each, whatever lies between them left alone. A full block is
 * transposed back to (x, y, z) vectors first. */
static ALWAYS_INLINE void scatter3(float v[3][DUAL_LANES], char *p, size_t stride, size_t m)
{
    if (m == DUAL_LANES) {
        v8 c[4], a[4];
        memcpy(&c[0], v[0], sizeof c[0]), memcpy(&c[1], v[1], sizeof c[1]), memcpy(&c[2], v[2], sizeof c[2]);
        c[3] = c[2];
        transpose_halves(c, a);
        for (int i = 0; i < 4; i++) { /* a[i]: vertex i's (x, y, z, z), then vertex i + 4's */
            v4 lo = SHUF(a[i], a[i], 0, 1, 2, 3), hi = SHUF(a[i], a[i], 4, 5, 6, 7);
            memcpy(p + (size_t)i * stride, &lo, 3 * sizeof(float));
            memcpy(p + (size_t)(i + 4) * stride, &hi, 3 * sizeof(float));
        }
        return;
    }
    for (size_t i = 0; i < m; i++) {
        float *f = (float *)(p + i * stride);
        f[0] = v[0][i], f[1] = v[1][i], f[2] = v[2][i];
    }
}
#undef SHUF

typedef int32_t v8i __attribute__((vector_size(32)));

/* The blended dual quaternions of a block's vertices, a lane each: per
 * influence, the eight palette entries transposed (a component a
 * vector), each turned to its vertex's first influence's hemisphere and
 * added at its weight -- blend_dual's arithmetic, in its order, on all
 * eight vertices at once. */
static ALWAYS_INLINE void blend_duals(const rune_skin_dq *restrict dq, const uint16_t *const j[DUAL_LANES],
                                      const float *const w[DUAL_LANES], uint32_t K, float b[8][DUAL_LANES])
{
    v8 sum[8], first[4], weights[4];
    if (K == 4) /* each vertex's four weights are 16 bytes: loaded whole and transposed */
        transpose8x4(w, weights);
    for (uint32_t k = 0; k < K; k++) {
        v8 rows[DUAL_LANES], q[8];
        for (int i = 0; i < DUAL_LANES; i++)
            rows[i] = load8(&dq[j[i][k]].real.x);
        transpose8(rows, q);
        v8 wk = K == 4 ? weights[k] : (v8){w[0][k], w[1][k], w[2][k], w[3][k], w[4][k], w[5][k], w[6][k], w[7][k]};
        if (k == 0) {
            for (int c = 0; c < 4; c++)
                first[c] = q[c];
            for (int c = 0; c < 8; c++)
                sum[c] = wk * q[c];
            continue;
        }
        v8 dot = q[0] * first[0] + q[1] * first[1] + q[2] * first[2] + q[3] * first[3];
        v8i flip = (dot < 0.0f) & (v8i){INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN,
                                        INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
        wk = (v8)((v8i)wk ^ flip); /* -w where the dot is negative */
        for (int c = 0; c < 8; c++)
            sum[c] += wk * q[c];
    }
    memcpy(b, sum, sizeof sum);
}

/* Vertices [first, first + m), m <= 8, without stretch. */
static ALWAYS_INLINE void dual_block(const skin_args *a, size_t first, size_t m, uint32_t K, bool N, bool T)
{
    streams st = streams_at(a, first, N, T);
    const uint16_t *j[DUAL_LANES];
    const float *w[DUAL_LANES];
    for (size_t i = 0; i < DUAL_LANES; i++) {
        bool live = i < m;
        j[i] = live ? (const uint16_t *)(st.joints + i * a->joints_stride) : idle_joints;
        w[i] = live ? (const float *)(st.weights + i * a->weights_stride) : idle_floats;
    }
    _Alignas(32) float b[8][DUAL_LANES], s2[DUAL_LANES], p[3][DUAL_LANES];
    blend_duals(a->dqs, j, w, K, b);
    /* 16-byte reads of 12-byte elements stay inside the buffers unless
     * the block holds the job's last vertex (after whose 12 bytes the
     * buffer may end, whatever the stride) */
    bool wide = first + DUAL_LANES < a->vertex_count;
    gather3(p, st.positions, a->positions_stride, m, wide);
#pragma omp simd
    for (int i = 0; i < DUAL_LANES; i++)
        s2[i] = dual_scale(b[0][i] * b[0][i] + b[1][i] * b[1][i] + b[2][i] * b[2][i] + b[3][i] * b[3][i]);
    turn_lanes(b, s2, p[0], p[1], p[2]);
    /* translation: 2 d conj(r) / |r|^2, its vector part */
#pragma omp simd
    for (int i = 0; i < DUAL_LANES; i++) {
        p[0][i] += s2[i] * (-b[7][i] * b[0][i] + b[4][i] * b[3][i] - b[5][i] * b[2][i] + b[6][i] * b[1][i]);
        p[1][i] += s2[i] * (-b[7][i] * b[1][i] + b[5][i] * b[3][i] - b[6][i] * b[0][i] + b[4][i] * b[2][i]);
        p[2][i] += s2[i] * (-b[7][i] * b[2][i] + b[6][i] * b[3][i] - b[4][i] * b[1][i] + b[5][i] * b[0][i]);
    }
    scatter3(p, st.out_positions, a->out_positions_stride, m);
    if (N) {
        _Alignas(32) float n[3][DUAL_LANES];
        gather3(n, st.normals, a->normals_stride, m, wide);
        turn_lanes(b, s2, n[0], n[1], n[2]);
        if (a->normalize) /* a rotation keeps the length: only for input that was not unit */
            normalize_lanes(n[0], n[1], n[2]);
        scatter3(n, st.out_normals, a->out_normals_stride, m);
    }
    if (T) {
        _Alignas(32) float t[3][DUAL_LANES];
        gather3(t, st.tangents, a->tangents_stride, m, true); /* 16 bytes a tangent */
        turn_lanes(b, s2, t[0], t[1], t[2]);
        if (a->normalize)
            normalize_lanes(t[0], t[1], t[2]);
        scatter3(t, st.out_tangents, a->out_tangents_stride, m);
        for (size_t i = 0; i < m; i++) /* the handedness as given */
            ((float *)(st.out_tangents + i * a->out_tangents_stride))[3] =
                ((const float *)(st.tangents + i * a->tangents_stride))[3];
    }
}

/* Vertices [first, first + n) without stretch, eight at a time. */
static ALWAYS_INLINE void dual_blocks(const skin_args *args, size_t first, size_t n, uint32_t K, bool N, bool T)
{
    const skin_args job = *args; /* as in linear_range */
    for (size_t done = 0; done < n; done += DUAL_LANES)
        dual_block(&job, first + done, n - done < DUAL_LANES ? n - done : DUAL_LANES, K, N, T);
}

#define DUAL_RANGE(K)                                                                                                 \
    static void dual_##K(const skin_args *a, size_t first, size_t n)                                                  \
    {                                                                                                                 \
        bool nrm = a->normals != NULL, tan = a->tangents != NULL;                                                     \
        if (a->stretch)                                                                                               \
            dual_stretched_range(a, first, n, K, nrm, tan);                                                           \
        else if (nrm && tan)                                                                                          \
            dual_blocks(a, first, n, K, true, true);                                                                  \
        else if (nrm)                                                                                                 \
            dual_blocks(a, first, n, K, true, false);                                                                 \
        else                                                                                                          \
            dual_blocks(a, first, n, K, false, false);                                                                \
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
