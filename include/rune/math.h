/* rune/math.h - vectors, quaternions, rigid transforms, 4x4 matrices and
 * the easing curves used between keys.
 *
 * Conventions: quaternions are [x, y, z, w] with w the scalar part and
 * rotate vectors as q v q*. Matrices are column-major (m[col*4 + row]) and
 * multiply column vectors. A rune_xform applies its rotation, then adds its
 * translation: p' = r p + t. */
#ifndef RUNE_MATH_H
#define RUNE_MATH_H

#include <math.h>
#include <stdbool.h>
#include "rune/export.h"

RUNE_BEGIN_DECLS

typedef struct rune_vec2 { float x, y; } rune_vec2;
typedef struct rune_vec3 { float x, y, z; } rune_vec3;
typedef struct rune_quat { float x, y, z, w; } rune_quat;
/** Rigid transform: rotation followed by translation. */
typedef struct rune_xform { rune_vec3 t; rune_quat r; } rune_xform;
/** Column-major 4x4 matrix: element (row, col) is m[col * 4 + row]. */
typedef struct rune_mat4 { float m[16]; } rune_mat4;

/** Vector helpers: construct, add, subtract, scale, dot and cross products. */
static inline rune_vec3 rune_v3(float x, float y, float z) { rune_vec3 v = {x, y, z}; return v; }
static inline rune_vec3 rune_v3_add(rune_vec3 a, rune_vec3 b) { return rune_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline rune_vec3 rune_v3_sub(rune_vec3 a, rune_vec3 b) { return rune_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline rune_vec3 rune_v3_scale(rune_vec3 a, float s) { return rune_v3(a.x * s, a.y * s, a.z * s); }
static inline float rune_v3_dot(rune_vec3 a, rune_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline rune_vec3 rune_v3_cross(rune_vec3 a, rune_vec3 b)
{
    return rune_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/** a + (b - a) * u; u may lie outside [0, 1] (overshooting easings). */
static inline rune_vec3 rune_v3_lerp(rune_vec3 a, rune_vec3 b, float u)
{
    return rune_v3(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u);
}

/** Largest magnitude rune accepts for a translation, a key or marker time,
 * a pose weight or mask weight: with it, every sum and product rune forms
 * (means of many contributions, chains of joints, overshooting easings)
 * stays far inside float range. Larger values are rejected when clips,
 * rigs and controls are built. */
#define RUNE_MAX_MAGNITUDE 1e18f

/** x is finite and at most RUNE_MAX_MAGNITUDE in magnitude. */
static inline bool rune_in_range(float x) { return isfinite(x) && fabsf(x) <= RUNE_MAX_MAGNITUDE; }

/** x saturated to [-RUNE_MAX_MAGNITUDE, RUNE_MAX_MAGNITUDE] (NaN becomes
 * +RUNE_MAX_MAGNITUDE): the rule for values rune derives that could
 * outgrow that range, such as a chain of scaled joints. */
static inline float rune_clamp_magnitude(float x)
{
    return x < RUNE_MAX_MAGNITUDE ? (x > -RUNE_MAX_MAGNITUDE ? x : -RUNE_MAX_MAGNITUDE) : RUNE_MAX_MAGNITUDE;
}

/** x clamped to [0, 1]; NaN becomes 0. */
static inline float rune_clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/** Quaternion helpers: construct, identity, dot, conjugate (the inverse of a
 * unit quaternion), negate (the same rotation). */
static inline rune_quat rune_q(float x, float y, float z, float w) { rune_quat q = {x, y, z, w}; return q; }
static inline rune_quat rune_q_identity(void) { return rune_q(0.0f, 0.0f, 0.0f, 1.0f); }
static inline float rune_q_dot(rune_quat a, rune_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
static inline rune_quat rune_q_conjugate(rune_quat q) { return rune_q(-q.x, -q.y, -q.z, q.w); }
static inline rune_quat rune_q_negate(rune_quat q) { return rune_q(-q.x, -q.y, -q.z, -q.w); }
/** Hamilton product: applying the result rotates by b first, then a. */
static inline rune_quat rune_q_mul(rune_quat a, rune_quat b)
{
    return rune_q(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                  a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

/** Unit quaternion in the direction of q; identity when |q| is ~0 or not
 * finite, so no NaN ever leaves a normalization. */
static inline rune_quat rune_q_normalize(rune_quat q)
{
    float n2 = rune_q_dot(q, q);
    if (!(n2 > 1e-30f) || !isfinite(n2))
        return rune_q_identity();
    float inv = 1.0f / sqrtf(n2);
    return rune_q(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}
/** rune_q_normalize, except that a quaternion already unit to float
 * precision (|q|^2 within 2^-21 of 1) is kept as it is: normalizing twice
 * gives the bits of normalizing once. Rigs and clips store rotations
 * through it, so a stored rotation read back and stored again (a .rune
 * asset, a JSON export) keeps its bits. */
static inline rune_quat rune_q_unit(rune_quat q)
{
    float n2 = rune_q_dot(q, q);
    return fabsf(n2 - 1.0f) <= 4.76837158e-7f ? q : rune_q_normalize(q);
}
/** Normalized linear interpolation along the shortest arc. */
static inline rune_quat rune_q_nlerp(rune_quat a, rune_quat b, float u)
{
    if (rune_q_dot(a, b) < 0.0f)
        b = rune_q_negate(b);
    return rune_q_normalize(rune_q(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u,
                                   a.w + (b.w - a.w) * u));
}
/** Spherical interpolation along the shortest arc, normalized. Falls back to
 * nlerp when the arc is tiny (where slerp's 1/sin(theta) is ill-conditioned).
 * u outside [0, 1] extrapolates along the same great circle. */
RUNE_API rune_quat rune_q_slerp(rune_quat a, rune_quat b, float u);
/** Rotation of `angle` radians about the unit `axis`. */
RUNE_API rune_quat rune_q_axis_angle(rune_vec3 axis, float angle);
/** Rotates vector v by unit quaternion q. */
static inline rune_vec3 rune_q_rotate(rune_quat q, rune_vec3 v)
{
    /* v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz */
    rune_vec3 u = rune_v3(q.x, q.y, q.z);
    rune_vec3 c = rune_v3_cross(u, v);
    rune_vec3 cc = rune_v3_cross(u, c);
    return rune_v3_add(v, rune_v3_add(rune_v3_scale(c, 2.0f * q.w), rune_v3_scale(cc, 2.0f)));
}

/** The identity transform. */
static inline rune_xform rune_xform_identity(void)
{
    rune_xform x = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    return x;
}
/** a * b: the transform that applies b, then a (parent a, child b). */
static inline rune_xform rune_xform_mul(rune_xform a, rune_xform b)
{
    rune_xform r;
    r.r = rune_q_normalize(rune_q_mul(a.r, b.r));
    r.t = rune_v3_add(rune_q_rotate(a.r, b.t), a.t);
    return r;
}
/** Inverse of a rigid transform. */
static inline rune_xform rune_xform_inverse(rune_xform a)
{
    rune_xform r;
    r.r = rune_q_conjugate(a.r);
    r.t = rune_v3_scale(rune_q_rotate(r.r, a.t), -1.0f);
    return r;
}
/** Applies the transform to a point. */
static inline rune_vec3 rune_xform_point(rune_xform a, rune_vec3 p) { return rune_v3_add(rune_q_rotate(a.r, p), a.t); }

/** The identity matrix. */
static inline rune_mat4 rune_mat4_identity(void)
{
    rune_mat4 m = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return m;
}
/** Matrix of a rigid transform. */
static inline rune_mat4 rune_mat4_from_xform(rune_xform x)
{
    rune_quat q = x.r;
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    rune_mat4 m = {{1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy), 0,
                    2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx), 0,
                    2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy), 0,
                    x.t.x, x.t.y, x.t.z, 1}};
    return m;
}
/** a * b (apply b first). */
static inline rune_mat4 rune_mat4_mul(const rune_mat4 *a, const rune_mat4 *b)
{
    rune_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

/** The inverse of an affine matrix (last row 0 0 0 1), computed in double;
 * the identity for a singular one. */
static inline rune_mat4 rune_mat4_affine_inverse(const rune_mat4 *in)
{
    const float *m = in->m;
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    double A = e * i - f * h, B = f * g - d * i, C = d * h - e * g;
    double det = a * A + b * B + c * C;
    rune_mat4 o = rune_mat4_identity();
    if (!(det > 1e-30 || det < -1e-30))
        return o;
    double k = 1.0 / det;
    /* r: the inverse's linear part row by row, the adjugate over det (the
     * cofactors of column 0 make row 0) */
    double r[9] = {A * k, (c * h - b * i) * k, (b * f - c * e) * k, B * k, (a * i - c * g) * k, (c * d - a * f) * k,
                   C * k, (b * g - a * h) * k, (a * e - b * d) * k};
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++)
            o.m[4 * col + row] = (float)r[3 * row + col];
        o.m[12 + row] = (float)-(r[3 * row] * m[12] + r[3 * row + 1] * m[13] + r[3 * row + 2] * m[14]);
    }
    return o;
}

/** Easing style of a key (the curve from the previous key to this one). */
typedef enum rune_easing_style {
    RUNE_EASE_LINEAR = 0,
    RUNE_EASE_CONSTANT,
    RUNE_EASE_SINE,
    RUNE_EASE_QUAD,
    RUNE_EASE_CUBIC,
    RUNE_EASE_QUART,
    RUNE_EASE_QUINT,
    RUNE_EASE_EXPONENTIAL,
    RUNE_EASE_CIRCULAR,
    RUNE_EASE_BACK,
    RUNE_EASE_ELASTIC,
    RUNE_EASE_BOUNCE,
    RUNE_EASE_STYLE_COUNT
} rune_easing_style;

typedef enum rune_easing_dir {
    RUNE_EASE_IN = 0,
    RUNE_EASE_OUT,
    RUNE_EASE_INOUT,
    RUNE_EASE_DIR_COUNT
} rune_easing_dir;

/** Eased value of the normalized interval position u in [0, 1] (clamped).
 * Standard Penner curves: out(u) = 1 - in(1 - u); inout uses in on the first
 * half and out on the second, except back and elastic, whose inout forms are
 * Penner's own (overshoot 1.70158 * 1.525, period 2*pi/4.5). `constant`
 * returns 0 until u reaches 1. back and elastic overshoot [0, 1]. */
RUNE_API float rune_ease(rune_easing_style style, rune_easing_dir dir, float u);

/** Parses "linear", "cubic", ... ; returns -1 for an unknown name. */
RUNE_API int rune_easing_style_from_name(const char *name);
/** Parses "in", "out", "inout"; returns -1 for an unknown name. */
RUNE_API int rune_easing_dir_from_name(const char *name);
/** The name of a style ("linear" .. "bounce"; "?" outside the enum). */
RUNE_API const char *rune_easing_style_name(rune_easing_style style);
/** The name of a direction ("in", "out", "inout"; "?" outside the enum). */
RUNE_API const char *rune_easing_dir_name(rune_easing_dir dir);

/** Instruction sets of the vectorized kernels (sampling, mixing, matrices).
 * Every level computes the same formulas in the same order; the FMA levels
 * fuse multiplies and adds (one rounding instead of two), so their results
 * agree with the scalar level to within a few units in the last place
 * (tests/unit/test_mix.c, test_clip.c, test_rig.c measure it). */
typedef enum rune_simd_level {
    RUNE_SIMD_AUTO = 0, /**< the fastest this CPU supports */
    RUNE_SIMD_SCALAR,
    RUNE_SIMD_SSE2,
    RUNE_SIMD_AVX2,
    RUNE_SIMD_AVX2_FMA,  /**< AVX2 with fused multiply-add */
    RUNE_SIMD_AVX512,    /**< AVX-512 F/BW/VL/DQ with fused multiply-add */
    RUNE_SIMD_LEVEL_COUNT
} rune_simd_level;

/** The best level this build and CPU support. */
RUNE_API rune_simd_level rune_simd_best(void);
/** "auto", "scalar", "sse2", "avx2", "avx2fma" or "avx512". */
RUNE_API const char *rune_simd_name(rune_simd_level level);
/** The level of a name as rune_simd_name gives it; -1 when unknown. */
RUNE_API int rune_simd_from_name(const char *name);

RUNE_END_DECLS

#endif
