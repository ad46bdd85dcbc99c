/* The vectorized skinning kernels (skin_kernel.c): one source compiled
 * once per instruction set (see math/kernel_isa.h), across vertices, the
 * palette gathered by joint index; skin_job.c checks the job and picks a
 * build at run time. */
#ifndef RUNE_SRC_SKIN_SKIN_KERNEL_H
#define RUNE_SRC_SKIN_SKIN_KERNEL_H

#include "rune/skin.h"
#include "../math/kernel_isa.h"

/* A checked job, strides resolved to bytes. */
typedef struct skin_args {
    uint32_t influences;
    size_t vertex_count; /* the job's: how far its buffers reach */
    const char *joints, *weights, *positions, *normals, *tangents;
    size_t joints_stride, weights_stride, positions_stride, normals_stride, tangents_stride;
    char *out_positions, *out_normals, *out_tangents;
    size_t out_positions_stride, out_normals_stride, out_tangents_stride;
    const float *matrices;   /* linear: 16 floats an entry */
    const rune_skin_dq *dqs; /* dual quaternion */
    bool stretch, normalize;
} skin_args;

/* The largest joint index of vertices [0, n) (a job's check before the
 * kernels gather without one). */
KERNEL_DECLARE(uint16_t, rune__skin_joint_max, (const skin_args *a, size_t n));
/* Vertices [first, first + n), linear blend skinning. */
KERNEL_DECLARE(void, rune__skin_linear, (const skin_args *a, size_t first, size_t n));
/* Vertices [first, first + n), dual-quaternion skinning. */
KERNEL_DECLARE(void, rune__skin_dual, (const skin_args *a, size_t first, size_t n));

#endif
