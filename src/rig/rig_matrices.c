/* Model-space joint transforms and skinning matrices from a local pose.
 * Joints are parent-first, so a joint's parent is final when it is
 * reached; matrices compose as affine 3x4 (their last row is 0 0 0 1). */
#include "rune/rig.h"

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

/* a * b for affine matrices: rune_mat4_mul without the terms that are 0. */
static void affine_mul(const float *restrict a, const float *restrict b, float *restrict r)
{
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 3; row++)
            r[c * 4 + row] = a[row] * b[c * 4] + a[4 + row] * b[c * 4 + 1] + a[8 + row] * b[c * 4 + 2];
    r[12] += a[12], r[13] += a[13], r[14] += a[14];
    r[3] = r[7] = r[11] = 0.0f;
    r[15] = 1.0f;
}

/* The matrix of frame(j) * pose(j), the same arithmetic as
 * rune_mat4_from_xform(placed(...)) but on pointers: passing transforms by
 * value to a call the compiler will not inline copies them through memory,
 * which cost more than the arithmetic. */
static void local_matrix(const rune_xform *f, const rune_pose *pose, size_t j, float *m)
{
    rune_vec3 t = j < pose->count ? pose->t[j] : rune_v3(0.0f, 0.0f, 0.0f);
    rune_quat r = j < pose->count ? pose->r[j] : rune_q_identity();
    rune_quat q = rune_q_normalize(rune_q_mul(f->r, r));
    rune_vec3 p = rune_v3_add(rune_q_rotate(f->r, t), f->t);
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    m[0] = 1 - 2 * (yy + zz), m[1] = 2 * (xy + wz), m[2] = 2 * (xz - wy), m[3] = 0;
    m[4] = 2 * (xy - wz), m[5] = 1 - 2 * (xx + zz), m[6] = 2 * (yz + wx), m[7] = 0;
    m[8] = 2 * (xz + wy), m[9] = 2 * (yz - wx), m[10] = 1 - 2 * (xx + yy), m[11] = 0;
    m[12] = p.x, m[13] = p.y, m[14] = p.z, m[15] = 1;
}

void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    const int32_t *parent = rune_rig_parents(rig);
    const rune_xform *frame = rune_rig_frames(rig);
    for (size_t j = 0, n = rune_rig_joint_count(rig); j < n; j++) {
        if (parent[j] < 0) {
            local_matrix(&frame[j], pose, j, out[j].m);
        } else {
            float m[16];
            local_matrix(&frame[j], pose, j, m);
            affine_mul(out[parent[j]].m, m, out[j].m);
        }
    }
}

void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t n, rune_mat4 *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = rune_mat4_mul(&model[j], &inverse_bind[j]);
}
