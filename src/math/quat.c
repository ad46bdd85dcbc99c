/* Quaternion normalization and interpolation. Every path returns a finite
 * unit quaternion for finite input. */
#include "rune/math.h"

rune_quat rune_q_normalize(rune_quat q)
{
    float n2 = rune_q_dot(q, q);
    if (!(n2 > 1e-30f) || !isfinite(n2))
        return rune_q_identity();
    float inv = 1.0f / sqrtf(n2);
    return rune_q(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

rune_quat rune_q_nlerp(rune_quat a, rune_quat b, float u)
{
    if (rune_q_dot(a, b) < 0.0f)
        b = rune_q_negate(b);
    return rune_q_normalize(rune_q(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u,
                                   a.z + (b.z - a.z) * u, a.w + (b.w - a.w) * u));
}

rune_quat rune_q_slerp(rune_quat a, rune_quat b, float u)
{
    float d = rune_q_dot(a, b);
    if (d < 0.0f) {
        b = rune_q_negate(b);
        d = -d;
    }
    /* Below ~0.01 rad the chord and the arc agree to float precision. */
    if (d > 0.99995f)
        return rune_q_nlerp(a, b, u);
    double theta = acos((double)d);
    double s = sin(theta);
    float wa = (float)(sin((1.0 - u) * theta) / s);
    float wb = (float)(sin(u * theta) / s);
    return rune_q_normalize(rune_q(a.x * wa + b.x * wb, a.y * wa + b.y * wb,
                                   a.z * wa + b.z * wb, a.w * wa + b.w * wb));
}

rune_quat rune_q_axis_angle(rune_vec3 axis, float angle)
{
    float s = sinf(angle * 0.5f);
    return rune_q_normalize(rune_q(axis.x * s, axis.y * s, axis.z * s, cosf(angle * 0.5f)));
}

rune_vec3 rune_q_rotate(rune_quat q, rune_vec3 v)
{
    /* v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz */
    rune_vec3 u = rune_v3(q.x, q.y, q.z);
    rune_vec3 c = rune_v3_cross(u, v);
    rune_vec3 cc = rune_v3_cross(u, c);
    return rune_v3_add(v, rune_v3_add(rune_v3_scale(c, 2.0f * q.w), rune_v3_scale(cc, 2.0f)));
}
