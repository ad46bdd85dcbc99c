/* The vectorized steps of local-to-model matrices: each joint's local
 * matrix, frame(j) * pose(j), for a chunk of joints at once (across lanes),
 * then the hierarchy, joint by joint in parent-first order with SIMD
 * column arithmetic (each joint needs its parent's result). One source,
 * compiled once per instruction set (see math/kernel_isa.h);
 * rig_matrices.c picks a build at run time. */
#ifndef RUNE_SRC_RIG_MATRIX_KERNEL_H
#define RUNE_SRC_RIG_MATRIX_KERNEL_H

#include "rune/clip.h"
#include "rune/math.h"
#include "../math/kernel_isa.h"
#include "../clip/clip_access_internal.h"

/* A chunk of joints: rest frames and local poses, channel pointers at the
 * chunk's first joint (structure of arrays, read in place); `frot` the
 * frames' rotation matrices (rig_frame_lanes.rot). */
typedef struct local_in {
    const float *fx, *fy, *fz, *fqx, *fqy, *fqz, *fqw, *fsx, *fsy, *fsz;
    const float *tx, *ty, *tz, *qx, *qy, *qz, *qw, *sx, *sy, *sz;
    const float *frot[9];
} local_in;

/* The local matrices of a chunk: m[e][i] is element e of lane i's 3x4
 * matrix in column-major order (0-2 the first column, 3-5 the second, 6-8
 * the third, 9-11 the translation); the last row is 0 0 0 1. */
typedef struct local_out {
    _Alignas(64) float m[12][RUNE_SAMPLE_CHUNK];
} local_out;

/* Lanes [0, n): the matrix of frame * pose as translation, rotation,
 * scale: rotation normalize(fq q) with its columns scaled by fs * s,
 * translation ft + R(fq) (fs * t) (fs the rest scale, products
 * componentwise). Without `scaled` (every fs and s is 1 1 1) the scale
 * products are skipped: they would multiply by 1, exactly. */
KERNEL_DECLARE(void, rune__local_matrices, (const local_in *in, local_out *out, size_t n, bool scaled));

/* Joints [first, first + n) (chunk lane i is joint first + i): model[j] =
 * model[parent[j]] * local (parent[j] < 0: local), parents first. With
 * `clamp` every element is clamped to +-RUNE_MAX_MAGNITUDE, so no chain
 * of scales overflows (without scale, rotation columns stay unit vectors
 * and translations of at most RUNE_MAX_MAGNITUDE cannot add up to
 * overflow: the clamp is not needed). */
KERNEL_DECLARE(void, rune__model_chain, (const local_out *local, const int32_t *parent, size_t first, size_t n,
                                          bool clamp, rune_mat4 *model));

/* Lanes [0, n): the rigid local transform frame * pose (scale left out):
 * rotation normalize(fq q) into m[3..6] (x y z w), translation
 * ft + R(fq) t into m[0..2]. */
KERNEL_DECLARE(void, rune__local_xforms, (const local_in *in, local_out *out, size_t n));

/* Joints [first, first + n): model[j] = model[parent[j]] * local as
 * rotation + translation (the quaternion product, not renormalized; the
 * translation rotated by the parent), parents first. Floats in, floats
 * out: no transform passes through memory as a struct. */
KERNEL_DECLARE(void, rune__xform_chain, (const local_out *local, const int32_t *parent, size_t first, size_t n,
                                          rune_xform *model));

#endif
