/* Double-precision vectors and quaternions for the solvers: a solve is a
 * few dozen operations on a handful of joints, so double costs nothing and
 * keeps near-degenerate geometry (a chain almost straight, a target almost
 * on the root) accurate to far below the 1e-5 the controls promise. */
#ifndef RUNE_SRC_IK_MATH_H
#define RUNE_SRC_IK_MATH_H

#include "rune/math.h"

#include <math.h>

typedef struct dvec {
    double x, y, z;
} dvec;

typedef struct dquat {
    double x, y, z, w;
} dquat;

/* Lengths below this (relative to the chain) count as zero. */
#define IK_TINY 1e-12

static inline dvec dv(double x, double y, double z) { return (dvec){x, y, z}; }
static inline dvec dv_of(rune_vec3 v) { return (dvec){v.x, v.y, v.z}; }
static inline rune_vec3 dv_out(dvec v) { return rune_v3((float)v.x, (float)v.y, (float)v.z); }
static inline dvec dv_add(dvec a, dvec b) { return (dvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline dvec dv_sub(dvec a, dvec b) { return (dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline dvec dv_scale(dvec a, double s) { return (dvec){a.x * s, a.y * s, a.z * s}; }
static inline double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline dvec dv_cross(dvec a, dvec b)
{
    return (dvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double dv_len(dvec a) { return sqrt(dv_dot(a, a)); }
/* a / |a|, or 0 0 0 when |a| <= tiny. */
static inline dvec dv_unit(dvec a, double tiny)
{
    double l = dv_len(a);
    return l > tiny ? dv_scale(a, 1.0 / l) : dv(0.0, 0.0, 0.0);
}
/* The rotation taking unit a to unit b by the half-angle identity:
 * (a x b, 1 + a.b) / sqrt(2 (1 + a.b)); half a turn about unit `half`
 * (perpendicular to both) when they are opposite. */
static inline dquat dq_unit_arc(dvec a, dvec b, dvec half)
{
    double w = 1.0 + dv_dot(a, b);
    if (!(w > 1e-12))
        return (dquat){half.x, half.y, half.z, 0.0};
    dvec x = dv_cross(a, b);
    double k = 1.0 / sqrt(2.0 * w);
    return (dquat){x.x * k, x.y * k, x.z * k, w * k};
}
/* The part of a perpendicular to unit n. */
static inline dvec dv_reject(dvec a, dvec n) { return dv_sub(a, dv_scale(n, dv_dot(a, n))); }

static inline dquat dq_of(rune_quat q) { return (dquat){q.x, q.y, q.z, q.w}; }
static inline rune_quat dq_out(dquat q) { return rune_q((float)q.x, (float)q.y, (float)q.z, (float)q.w); }
static inline dquat dq_identity(void) { return (dquat){0.0, 0.0, 0.0, 1.0}; }
static inline dquat dq_mul(dquat a, dquat b)
{
    return (dquat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
static inline dquat dq_conj(dquat q) { return (dquat){-q.x, -q.y, -q.z, q.w}; }
static inline dquat dq_unit(dquat q)
{
    double l = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(l > IK_TINY))
        return dq_identity();
    double k = 1.0 / l;
    return (dquat){q.x * k, q.y * k, q.z * k, q.w * k};
}
static inline dvec dq_rotate(dquat q, dvec v)
{
    dvec u = {q.x, q.y, q.z};
    dvec t = dv_scale(dv_cross(u, v), 2.0);
    return dv_add(dv_add(v, dv_scale(t, q.w)), dv_cross(u, t));
}
/* q v q* for any q: the rotation of v scaled by |q|^2 (the formula above
 * holds for unit q only). */
static inline dvec dq_sandwich(dquat q, dvec v)
{
    dvec u = {q.x, q.y, q.z};
    return dv_add(dv_add(dv_scale(v, q.w * q.w - dv_dot(u, u)), dv_scale(u, 2.0 * dv_dot(u, v))),
                  dv_scale(dv_cross(u, v), 2.0 * q.w));
}
/* Rotation by `angle` radians about unit axis n. */
static inline dquat dq_axis_angle(dvec n, double angle)
{
    double s = sin(0.5 * angle);
    return (dquat){n.x * s, n.y * s, n.z * s, cos(0.5 * angle)};
}
/* The rotation about unit axis n that takes the direction of a to that of
 * b (both perpendicular to n), with no trigonometry: half the angle from
 * (1 + cos, sin); half a turn when they are opposite. Identity when
 * either is zero. */
static inline dquat dq_about(dvec n, dvec a, dvec b)
{
    double la = dv_len(a), lb = dv_len(b);
    if (la <= IK_TINY || lb <= IK_TINY)
        return dq_identity();
    double c = dv_dot(a, b) / (la * lb), s = dv_dot(dv_cross(a, b), n) / (la * lb);
    dquat q = {n.x * s, n.y * s, n.z * s, 1.0 + c};
    if (q.w <= 1e-15 && fabs(s) <= 1e-15)
        return (dquat){n.x, n.y, n.z, 0.0};
    return dq_unit(q);
}
/* The shortest-arc rotation taking the direction of a to that of b; when
 * they are opposite, half a turn about `fallback` (unit, perpendicular to
 * a) or, when that is zero, about some axis perpendicular to a. */
static inline dquat dq_from_to(dvec a, dvec b, dvec fallback)
{
    double la = dv_len(a), lb = dv_len(b);
    if (la <= IK_TINY || lb <= IK_TINY)
        return dq_identity();
    dvec c = dv_cross(a, b);
    double w = la * lb + dv_dot(a, b);
    if (w <= 1e-12 * la * lb) {
        dvec axis = dv_unit(dv_reject(fallback, dv_scale(a, 1.0 / la)), IK_TINY);
        if (dv_len(axis) == 0.0) { /* any perpendicular: a crossed with its smallest axis */
            dvec e = fabs(a.x) <= fabs(a.y) && fabs(a.x) <= fabs(a.z) ? dv(1, 0, 0)
                     : fabs(a.y) <= fabs(a.z)                           ? dv(0, 1, 0)
                                                                        : dv(0, 0, 1);
            axis = dv_unit(dv_cross(a, e), IK_TINY);
        }
        return (dquat){axis.x, axis.y, axis.z, 0.0};
    }
    return dq_unit((dquat){c.x, c.y, c.z, w});
}
/* The rotation angle of a unit quaternion, 0..pi. */
static inline double dq_angle(dquat q)
{
    double v = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2.0 * atan2(v, fabs(q.w));
}

#endif
