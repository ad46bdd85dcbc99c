/* Model-space joint transforms and skinning matrices from a local pose.
 * Joints are parent-first, so a joint's parent is final when it is
 * reached; matrices compose as affine 3x4 (their last row is 0 0 0 1).
 * Local matrices come from the vectorized kernel of matrix_kernel.c. */
#include "rune/rig.h"
#include "matrix_kernel.h"

#include <string.h>

/* frame(j) * pose(j): the joint relative to its parent. */
static inline rune_xform placed(const rune_xform *frame, const rune_pose *pose, size_t j)
{
    rune_xform local = rune_xform_identity();
    if (j < pose->count) {
        local.t = pose->t[j];
        local.r = pose->r[j];
    }
    return rune_xform_mul(frame[j], local);
}

void rune_rig_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out)
{
    const int32_t *parent = rune_rig_parents(rig);
    const rune_xform *frame = rune_rig_frames(rig);
    for (size_t j = 0, n = rune_rig_joint_count(rig); j < n; j++) {
        rune_xform x = placed(frame, pose, j);
        out[j] = parent[j] < 0 ? x : rune_xform_mul(out[parent[j]], x);
    }
}

/* a * b for affine matrices: rune_mat4_mul without the terms that are 0.
 * All four rows are computed alike (a's last row is 0 0 0 1) so the
 * compiler can work a column at a time. */
static void affine_mul(const float *restrict a, const float *restrict b, float *restrict r)
{
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 4; row++)
            r[c * 4 + row] = a[row] * b[c * 4] + a[4 + row] * b[c * 4 + 1] + a[8 + row] * b[c * 4 + 2];
    for (int row = 0; row < 4; row++)
        r[12 + row] = a[row] * b[12] + a[4 + row] * b[13] + a[8 + row] * b[14] + a[12 + row];
}

typedef void (*local_fn)(const local_in *, local_out *, size_t);

static local_fn local_kernel(void)
{
#if defined(RUNE_HAVE_X86_KERNELS)
    rune_simd_level level = rune_simd_best();
    if (level == RUNE_SIMD_AVX2)
        return rune__local_matrices_avx2;
    if (level == RUNE_SIMD_SSE2)
        return rune__local_matrices_sse2;
#endif
    return rune__local_matrices_scalar;
}

/* Joints [first, first + n) of the rig and pose as kernel lanes, padded
 * with identities up to `lanes`. */
static void load_locals(const rune_xform *frame, const rune_pose *pose, size_t first, size_t n, size_t lanes,
                        local_in *in)
{
    size_t posed = pose->count > first ? pose->count - first : 0;
    for (size_t i = 0; i < lanes; i++) {
        rune_xform f = i < n ? frame[first + i] : rune_xform_identity();
        in->fx[i] = f.t.x, in->fy[i] = f.t.y, in->fz[i] = f.t.z;
        in->fqx[i] = f.r.x, in->fqy[i] = f.r.y, in->fqz[i] = f.r.z, in->fqw[i] = f.r.w;
    }
    for (size_t i = 0; i < lanes; i++) {
        bool has = i < n && i < posed;
        rune_vec3 t = has ? pose->t[first + i] : rune_v3(0.0f, 0.0f, 0.0f);
        rune_quat r = has ? pose->r[first + i] : rune_q_identity();
        in->tx[i] = t.x, in->ty[i] = t.y, in->tz[i] = t.z;
        in->qx[i] = r.x, in->qy[i] = r.y, in->qz[i] = r.z, in->qw[i] = r.w;
    }
}

void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    static const int element[12] = LOCAL_ELEMENTS;
    local_fn kernel = local_kernel();
    const int32_t *parent = rune_rig_parents(rig);
    const rune_xform *frame = rune_rig_frames(rig);
    size_t count = rune_rig_joint_count(rig);
    /* local matrices a chunk at a time (vectorized), then down the
     * hierarchy joint by joint: parents precede children */
    for (size_t first = 0; first < count; first += RUNE_SAMPLE_CHUNK) {
        size_t n = count - first < RUNE_SAMPLE_CHUNK ? count - first : RUNE_SAMPLE_CHUNK;
        size_t lanes = kernel_lanes(n);
        local_in in;
        local_out local;
        load_locals(frame, pose, first, n, lanes, &in);
        kernel(&in, &local, lanes);
        for (size_t i = 0; i < n; i++) {
            size_t j = first + i;
            float m[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
            for (int e = 0; e < 12; e++)
                m[element[e]] = local.m[e][i];
            if (parent[j] < 0)
                memcpy(out[j].m, m, sizeof m);
            else
                affine_mul(out[parent[j]].m, m, out[j].m);
        }
    }
}

void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t n, rune_mat4 *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = rune_mat4_mul(&model[j], &inverse_bind[j]);
}
