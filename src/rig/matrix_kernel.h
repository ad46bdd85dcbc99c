/* The vectorized step of local-to-model matrices: each joint's local
 * matrix, frame(j) * pose(j), for a chunk of joints at once. One source,
 * compiled once per instruction set (see math/kernel_isa.h); rig_matrices.c
 * picks a build at run time and multiplies down the hierarchy itself. */
#ifndef RUNE_SRC_RIG_MATRIX_KERNEL_H
#define RUNE_SRC_RIG_MATRIX_KERNEL_H

#include "rune/clip.h"
#include "../math/kernel_isa.h"

/* A chunk of joints: rest frames and local poses, as arrays. */
typedef struct local_in {
    float fx[RUNE_SAMPLE_CHUNK], fy[RUNE_SAMPLE_CHUNK], fz[RUNE_SAMPLE_CHUNK];
    float fqx[RUNE_SAMPLE_CHUNK], fqy[RUNE_SAMPLE_CHUNK], fqz[RUNE_SAMPLE_CHUNK], fqw[RUNE_SAMPLE_CHUNK];
    float tx[RUNE_SAMPLE_CHUNK], ty[RUNE_SAMPLE_CHUNK], tz[RUNE_SAMPLE_CHUNK];
    float qx[RUNE_SAMPLE_CHUNK], qy[RUNE_SAMPLE_CHUNK], qz[RUNE_SAMPLE_CHUNK], qw[RUNE_SAMPLE_CHUNK];
} local_in;

/* The local matrices: m[e][i] is element LOCAL_ELEMENT[e] (column-major
 * index) of lane i; the other four elements are 0 0 0 1. */
typedef struct local_out {
    float m[12][RUNE_SAMPLE_CHUNK];
} local_out;

/* Column-major indexes of local_out's twelve rows. */
#define LOCAL_ELEMENTS {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14}

/* Lanes [0, n): the matrix of rune_xform_mul(frame, pose), with the same
 * operations as rune_xform_mul and rune_mat4_from_xform. */
KERNEL_DECLARE(void, rune__local_matrices, (const local_in *in, local_out *out, size_t n));

#endif
