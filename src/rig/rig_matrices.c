/* Model-space joint transforms and skinning matrices from a local pose.
 * Local matrices come a chunk of joints at a time from the vectorized
 * kernel of matrix_kernel.c, reading the rig's frames and the pose in
 * place (both are structure-of-arrays); the hierarchy is then multiplied
 * joint by joint in parent-first order, so a joint's parent is final when
 * it is reached. */
#include "rig_internal.h"
#include "matrix_kernel.h"
#include "../math/stream_kernel.h"

#include <stdint.h>
#include <string.h>

typedef struct matrix_kernels {
    void (*local)(const local_in *, local_out *, size_t, bool);
    void (*chain)(const local_out *, const int32_t *, size_t, size_t, bool, rune_mat4 *);
    void (*local_xforms)(const local_in *, local_out *, size_t);
    void (*xform_chain)(const local_out *, const int32_t *, size_t, size_t, rune_xform *);
    void (*stream)(float *const *, const float *const *, int, size_t);
    size_t (*stream_align)(void);
} matrix_kernels;

#define KERNELS(isa)                                                                                                \
    (matrix_kernels)                                                                                                  \
    {                                                                                                                 \
        rune__local_matrices_##isa, rune__model_chain_##isa, rune__local_xforms_##isa, rune__xform_chain_##isa,      \
            rune__stream_floats_##isa, rune__stream_align_##isa                                                     \
    }

static matrix_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(rune_simd_resolve(level), KERNELS) }

/* The kernel input of joints [first, first + lanes): the rig's frames and
 * the pose in place, or (joints the pose lacks: at rest) a copy in `rest`
 * with identity motion for them. Each pointer is written once, straight
 * into `in`: pointers gathered in an array and copied on would be stored
 * as words and loaded back in pairs, which the core cannot forward from
 * its store buffer (a stall a chunk). */
static void chunk_input(const rig_frame_lanes *f, const rune_pose *pose, size_t first, size_t lanes,
                        rune_sample_chunk *rest, local_in *in)
{
    in->fx = f->tx + first, in->fy = f->ty + first, in->fz = f->tz + first;
    in->fqx = f->qx + first, in->fqy = f->qy + first, in->fqz = f->qz + first, in->fqw = f->qw + first;
    in->fsx = f->sx + first, in->fsy = f->sy + first, in->fsz = f->sz + first;
    for (int e = 0; e < 9; e++)
        in->frot[e] = f->rot[e] + first;
    if (first + lanes <= pose->stride) {
        in->tx = pose->tx + first, in->ty = pose->ty + first, in->tz = pose->tz + first;
        in->qx = pose->qx + first, in->qy = pose->qy + first, in->qz = pose->qz + first, in->qw = pose->qw + first;
        in->sx = pose->sx + first, in->sy = pose->sy + first, in->sz = pose->sz + first;
        return;
    }
    const float *const from[10] = {pose->tx, pose->ty, pose->tz, pose->qx, pose->qy,
                                   pose->qz, pose->qw, pose->sx, pose->sy, pose->sz};
    float *const to[10] = {rest->x, rest->y, rest->z, rest->qx, rest->qy, rest->qz, rest->qw, rest->sx, rest->sy, rest->sz};
    for (size_t i = 0; i < lanes; i++) {
        bool posed = first + i < pose->count;
        for (int c = 0; c < 10; c++)
            to[c][i] = posed ? from[c][first + i] : (c >= 6 ? 1.0f : 0.0f);
    }
    in->tx = rest->x, in->ty = rest->y, in->tz = rest->z;
    in->qx = rest->qx, in->qy = rest->qy, in->qz = rest->qz, in->qw = rest->qw;
    in->sx = rest->sx, in->sy = rest->sy, in->sz = rest->sz;
}

/* The hierarchy a chunk of joints at a time: local transforms from the
 * frames and the pose in place, then the chain into `matrices` or, when
 * it is NULL, into `xforms`. */
static void model_chunks(const rune_rig *rig, const rune_pose *pose, const matrix_kernels *k, rune_mat4 *matrices,
                         rune_xform *xforms)
{
    const int32_t *parent = rune_rig_parents(rig);
    const rig_frame_lanes *f = rune__rig_frame_lanes(rig);
    size_t count = rune_rig_joint_count(rig);
    for (size_t first = 0; first < count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = count - first < RUNE_SAMPLE_CHUNK ? count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        rune_sample_chunk rest;
        local_in in;
        chunk_input(f, pose, first, lanes, &rest, &in);
        local_out local;
        if (matrices) {
            bool scaled = pose->scaled || f->scaled;
            k->local(&in, &local, lanes, scaled);
            k->chain(&local, parent, first, n, scaled, matrices);
        } else {
            k->local_xforms(&in, &local, lanes);
            k->xform_chain(&local, parent, first, n, xforms);
        }
    }
}

void rune_rig_model_matrices_at(const rune_rig *rig, const rune_pose *pose, rune_simd_level level, rune_mat4 *out)
{
    matrix_kernels k = kernels_for(level);
    model_chunks(rig, pose, &k, out, NULL);
}

void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    rune_rig_model_matrices_at(rig, pose, RUNE_SIMD_AUTO, out);
}

/* `n` matrices from `from` (the stack, in cache) to `to` with the
 * kernels' streaming stores: the lines of `to` are written whole, in
 * order, and never fetched. Where `to` is not aligned to the kernels'
 * vector width, a plain copy. */
static void stream_out(const matrix_kernels *k, const rune_mat4 *from, rune_mat4 *to, size_t n)
{
    if (((uintptr_t)to & (k->stream_align() - 1)) == 0) {
        float *into = to->m;
        const float *out_of = from->m;
        k->stream(&into, &out_of, 1, 16 * n);
    } else
        memcpy(to, from, n * sizeof *to);
}

void rune_rig_model_matrices_stream(const rune_rig *rig, const rune_pose *pose, rune_simd_level level, rune_mat4 *out)
{
    size_t n = rune_rig_joint_count(rig);
    if (n > RUNE_STREAM_MAX_JOINTS) { /* no room on the stack: through the cache */
        rune_rig_model_matrices_at(rig, pose, level, out);
        return;
    }
    /* the chain reads each joint's parent back: from the stack, never from `out` */
    _Alignas(64) rune_mat4 local[RUNE_STREAM_MAX_JOINTS];
    matrix_kernels k = kernels_for(level);
    model_chunks(rig, pose, &k, local, NULL);
    stream_out(&k, local, out, n);
}

void rune_rig_model_xforms_at(const rune_rig *rig, const rune_pose *pose, rune_simd_level level, rune_xform *out)
{
    matrix_kernels k = kernels_for(level);
    model_chunks(rig, pose, &k, NULL, out);
}

void rune_rig_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out)
{
    rune_rig_model_xforms_at(rig, pose, RUNE_SIMD_AUTO, out);
}

void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t n, rune_mat4 *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = rune_mat4_mul(&model[j], &inverse_bind[j]);
}
