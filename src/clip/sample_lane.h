/* One lane of the sampling kernel's evaluation, from a segment and cover
 * laid out as arrays (a row plan's chunk, or the kernel's gathered
 * chunk). Shared by the sampling kernel, which writes each lane out, and
 * the mixer's kernel that adds a row plan's lanes straight into its sums
 * (mix_kernel.c): the same operations, so the same bits without FMA
 * (with it a compiler may contract each loop's products its own way).
 * Each user is built once per instruction set and inlines this into a
 * vectorized loop. */
#ifndef RUNE_SRC_CLIP_SAMPLE_LANE_H
#define RUNE_SRC_CLIP_SAMPLE_LANE_H

#include "segment_rotation.h"

/* The fields of a lane's segment and cover as the kernels read them,
 * each an array, in this order: field k of lane i at f[k * stride + i]
 * -- the segment's x y z dx dy dz time end, q (x y z w), v (x y z w), then
 * the cover's w dw m dm. A row plan (sample_cache.c) stores each row so;
 * SAMPLE_FIELDS counts them. */
enum {
    F_X, F_Y, F_Z, F_DX, F_DY, F_DZ, F_TIME, F_END, F_QX, F_QY, F_QZ, F_QW, F_VX, F_VY, F_VZ, F_VW,
    F_W, F_DW, F_M, F_DM, SAMPLE_FIELDS
};

/* A lane sampled: translation, rotation, pose weight, mask weight, and
 * coverage clamp(w (1 - m), 0, 1). */
typedef struct sample_lane {
    float x, y, z;
    rune_quat r;
    float w, m, c;
} sample_lane;

/* Lane i of the fields at `f` at clip time t: u = clamp((t - time) /
 * (end - time), 0, 1) (NaN: 0), translation, weight and mask linear in u,
 * rotation by rune__segment_rotation. Called with a constant stride
 * where it can be: every field is then the base plus a fixed offset. */
static inline __attribute__((always_inline)) sample_lane rune__sample_lane(const float *restrict f, size_t stride,
                                                                           size_t i, float t)
{
    float time = f[F_TIME * stride + i];
    float u = (t - time) / (f[F_END * stride + i] - time); /* as the exact sampler does */
    u = u > 0.0f ? (u < 1.0f ? u : 1.0f) : 0.0f;          /* selects vectorize, fminf does not */
    sample_lane s;
    s.x = f[F_X * stride + i] + f[F_DX * stride + i] * u;
    s.y = f[F_Y * stride + i] + f[F_DY * stride + i] * u;
    s.z = f[F_Z * stride + i] + f[F_DZ * stride + i] * u;
    s.w = f[F_W * stride + i] + f[F_DW * stride + i] * u;
    s.m = f[F_M * stride + i] + f[F_DM * stride + i] * u;
    float c = s.w * (1.0f - s.m);
    s.c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f;
    s.r = rune__segment_rotation(
        u, rune_q(f[F_QX * stride + i], f[F_QY * stride + i], f[F_QZ * stride + i], f[F_QW * stride + i]),
        rune_q(f[F_VX * stride + i], f[F_VY * stride + i], f[F_VZ * stride + i], f[F_VW * stride + i]));
    return s;
}

#endif
