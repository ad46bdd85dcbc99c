/* Quaternion normalization for the vectorized kernels: rune_q_normalize's
 * operations and guard (identity when |q| is about 0 or not finite) with
 * selects instead of an early return, so a kernel's loop over lanes stays
 * one branch-free body. The guarded root takes x + (ok ? 0 : 1), not
 * (ok ? x : 1): the same value wherever it is used, but the second form
 * lets gcc move the root into a branch, which it cannot vectorize for
 * SSE2. (rune_q_mul and rune_q_dot, inline in rune/math.h, serve kernels
 * as they are.) */
#ifndef RUNE_SRC_MATH_LANE_QUAT_H
#define RUNE_SRC_MATH_LANE_QUAT_H

#include "rune/math.h"

#include <float.h>

static inline rune_quat lane_q_normalize(rune_quat q)
{
    float n2 = rune_q_dot(q, q);
    n2 = n2 <= FLT_MAX ? n2 : 0.0f; /* inf and NaN: as if zero */
    float inv = 1.0f / sqrtf(n2 + (n2 > 1e-30f ? 0.0f : 1.0f));
    return rune_q(n2 > 1e-30f ? q.x * inv : 0.0f, n2 > 1e-30f ? q.y * inv : 0.0f, n2 > 1e-30f ? q.z * inv : 0.0f,
                  n2 > 1e-30f ? q.w * inv : 1.0f);
}

#endif
