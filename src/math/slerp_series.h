/* Slerp weights without trigonometry, for rune_q_slerp and the mixing
 * kernel's partial overlays (two rotations only known at run time).
 *
 * slerp(a, b, u) = a sin((1-u) theta) / sin theta + b sin(u theta) / sin theta.
 * With x = cos theta (the dot product of the sign-aligned rotations),
 *     sin(u theta) / sin theta = sum_i a_i (x - 1)^i,
 *     a_0 = u,  a_i = a_(i-1) (u^2 - i^2) / (i (2i + 1)),
 * and eight terms are accurate to 3e-8 for x >= RUNE_SERIES_MIN_DOT, about
 * 45 degrees apart. Wider arcs take the exact scalar slerp. */
#ifndef RUNE_SRC_MATH_SLERP_SERIES_H
#define RUNE_SRC_MATH_SLERP_SERIES_H

/* Below this cos(theta) the 8-term series loses accuracy. */
#define RUNE_SERIES_MIN_DOT 0.7f

/* sin(u theta) / sin(theta) for xm1 = cos(theta) - 1. Exactly u at u = 0
 * and u = 1 (every later term has a factor u or u^2 - 1). */
static inline float rune_slerp_series(float u, float xm1)
{
    /* 1 / (i (2i + 1)) for i = 1..7 */
    static const float inv[7] = {1.0f / 3.0f,  1.0f / 10.0f, 1.0f / 21.0f, 1.0f / 36.0f,
                                 1.0f / 55.0f, 1.0f / 78.0f, 1.0f / 105.0f};
    float u2 = u * u;
    float a = u, s = u, p = 1.0f;
    for (int i = 1; i <= 7; i++) {
        a *= (u2 - (float)(i * i)) * inv[i - 1];
        p *= xm1;
        s += a * p;
    }
    return s;
}

#endif
