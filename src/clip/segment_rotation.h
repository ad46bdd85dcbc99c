/* A segment's rotation at u in [0, 1]: the slerp from q along the
 * tangent v without trigonometry. With phi = u theta, cos(phi) and
 * sinc(phi) = sin(phi) / phi are even polynomials in phi^2 (Taylor series
 * through phi^12; error below 7e-9 up to phi = pi/2, the widest arc of
 * sign-aligned keys) and phi^2 = u^2 (v . v). Shared by the sampling
 * kernel (lane by lane, vectorized) and the one-track sampler of
 * clip_sampler.c, so both give the same bits. */
#ifndef RUNE_SRC_CLIP_SEGMENT_ROTATION_H
#define RUNE_SRC_CLIP_SEGMENT_ROTATION_H

#include "rune/math.h"

static inline rune_quat rune__segment_rotation(float u, rune_quat q, rune_quat v)
{
    float p2 = u * u * (v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w);
    float cs = 1.0f + p2 * (-1.0f / 2.0f + p2 * (1.0f / 24.0f + p2 * (-1.0f / 720.0f +
               p2 * (1.0f / 40320.0f + p2 * (-1.0f / 3628800.0f + p2 * (1.0f / 479001600.0f))))));
    float sc = 1.0f + p2 * (-1.0f / 6.0f + p2 * (1.0f / 120.0f + p2 * (-1.0f / 5040.0f +
               p2 * (1.0f / 362880.0f + p2 * (-1.0f / 39916800.0f + p2 * (1.0f / 6227020800.0f))))));
    float su = sc * u;
    return rune_q(cs * q.x + su * v.x, cs * q.y + su * v.y, cs * q.z + su * v.z, cs * q.w + su * v.w);
}

#endif
