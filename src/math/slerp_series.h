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

/* sin(u theta) / sin(theta) for xm1 = cos(theta) - 1, the series nested
 * (Horner's form): u (1 + c_1 xm1 (1 + c_2 xm1 (1 + ...))), c_i =
 * (u^2 - i^2) / (i (2i + 1)) the ratio of term i to term i - 1. Three
 * operations a term where summing the powers took four (and a shared
 * power), and half the rounding error (1e-7 against 2e-7 over the range).
 * Exactly u at u = 0 and u = 1 (c_1 is then 0). */
static inline float rune_slerp_series(float u, float xm1)
{
    /* 1 / (i (2i + 1)) and i^2 / (i (2i + 1)) for i = 1..7 */
    static const float inv[7] = {1.0f / 3.0f,  1.0f / 10.0f, 1.0f / 21.0f, 1.0f / 36.0f,
                                 1.0f / 55.0f, 1.0f / 78.0f, 1.0f / 105.0f};
    static const float off[7] = {1.0f / 3.0f,   4.0f / 10.0f,  9.0f / 21.0f, 16.0f / 36.0f,
                                 25.0f / 55.0f, 36.0f / 78.0f, 49.0f / 105.0f};
    float u2 = u * u, t = 1.0f;
    for (int i = 7; i >= 1; i--)
        t = 1.0f + ((u2 * inv[i - 1] - off[i - 1]) * xm1) * t;
    return u * t;
}

#endif
