/* Quaternion normalization and interpolation. Every path returns a finite
 * unit quaternion for finite input. */
#include "rune/math.h"
#include "slerp_series.h"

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
    float wa, wb;
    if (d >= RUNE_SERIES_MIN_DOT && u >= 0.0f && u <= 1.0f) {
        /* within 45 degrees: the weights' series (3e-8) instead of acos and
         * two sines, several times faster */
        wa = rune_slerp_series(1.0f - u, d - 1.0f);
        wb = rune_slerp_series(u, d - 1.0f);
    } else {
        double theta = acos((double)d);
        double s = sin(theta);
        wa = (float)(sin((1.0 - u) * theta) / s);
        wb = (float)(sin(u * theta) / s);
    }
    return rune_q_normalize(rune_q(a.x * wa + b.x * wb, a.y * wa + b.y * wb,
                                   a.z * wa + b.z * wb, a.w * wa + b.w * wb));
}

rune_quat rune_q_axis_angle(rune_vec3 axis, float angle)
{
    float s = sinf(angle * 0.5f);
    return rune_q_normalize(rune_q(axis.x * s, axis.y * s, axis.z * s, cosf(angle * 0.5f)));
}
