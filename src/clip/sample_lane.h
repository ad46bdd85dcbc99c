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
 * -- the segment's x y z dx dy dz, q (x y z w), v (x y z w), time, end,
 * then the cover's w dw m dm. A row plan (sample_cache.c) stores each row
 * so, or -- a lean row, where every lane shares the row's time and end
 * and has a plain cover -- the fields before F_TIME alone; SAMPLE_FIELDS
 * and LEAN_FIELDS count them. */
enum {
    F_X, F_Y, F_Z, F_DX, F_DY, F_DZ, F_QX, F_QY, F_QZ, F_QW, F_VX, F_VY, F_VZ, F_VW,
    F_TIME, F_END, F_W, F_DW, F_M, F_DM, SAMPLE_FIELDS
};
enum { LEAN_FIELDS = F_TIME };

/* A chunk of a row plan's row as the kernels take it: field k of lane i
 * at f[k * stride + i]. span NULL: every field of every lane. Else a lean
 * row: span = {time, end} of every lane, the fields stop at F_TIME, and
 * every cover is plain (weight 1; the padding past the binding's lanes,
 * the null key's fields, gives the identity at any u, and its weight 0 is
 * the caller's to set). */
typedef struct row_fields {
    const float *f;
    size_t stride;
    const float *span;
} row_fields;

/* A lane sampled: translation, rotation, pose weight, mask weight, and
 * coverage clamp(w (1 - m), 0, 1). */
typedef struct sample_lane {
    float x, y, z;
    rune_quat r;
    float w, m, c;
} sample_lane;

/* Where t lies in a segment [time, end): clamp((t - time) / (end - time),
 * 0, 1), NaN reading as 0 -- as the exact sampler computes it. */
static inline __attribute__((always_inline)) float rune__segment_u(float t, float time, float end)
{
    float u = (t - time) / (end - time);
    return u > 0.0f ? (u < 1.0f ? u : 1.0f) : 0.0f; /* selects vectorize, fminf does not */
}

/* Lane i's translation and rotation (rune__segment_rotation) at u; its
 * cover is the caller's. */
static inline __attribute__((always_inline)) sample_lane rune__sample_lane_at(const float *restrict f, size_t stride,
                                                                              size_t i, float u)
{
    sample_lane s;
    s.x = f[F_X * stride + i] + f[F_DX * stride + i] * u;
    s.y = f[F_Y * stride + i] + f[F_DY * stride + i] * u;
    s.z = f[F_Z * stride + i] + f[F_DZ * stride + i] * u;
    s.r = rune__segment_rotation(
        u, rune_q(f[F_QX * stride + i], f[F_QY * stride + i], f[F_QZ * stride + i], f[F_QW * stride + i]),
        rune_q(f[F_VX * stride + i], f[F_VY * stride + i], f[F_VZ * stride + i], f[F_VW * stride + i]));
    return s;
}

/* Lane i of the fields at `f` at clip time t. A full row (lean false):
 * u from the lane's own time and end, weight and mask linear in u. A
 * lean row: the row's u (row_u) and a plain cover -- what a full row
 * gives for the same segment (w = 1 + 0 u is 1, m = 0, c = 1: the same
 * bits). One function for both, `lean` a constant where it is inlined:
 * gcc vectorizes a loop calling it, not one choosing between two
 * struct-valued calls. Called with a constant stride where it can be:
 * every field is then the base plus a fixed offset. */
static inline __attribute__((always_inline)) sample_lane rune__sample_row_lane(const float *restrict f, size_t stride,
                                                                               size_t i, float t, bool lean,
                                                                               float row_u)
{
    float u = lean ? row_u : rune__segment_u(t, f[F_TIME * stride + i], f[F_END * stride + i]);
    sample_lane s = rune__sample_lane_at(f, stride, i, u);
    if (lean) {
        s.w = 1.0f, s.m = 0.0f, s.c = 1.0f;
        return s;
    }
    s.w = f[F_W * stride + i] + f[F_DW * stride + i] * u;
    s.m = f[F_M * stride + i] + f[F_DM * stride + i] * u;
    float c = s.w * (1.0f - s.m);
    s.c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f;
    return s;
}

#endif
