/* Model-space joint transforms and skinning matrices from a local pose. */
#include "rune/rig.h"

/* frame(j) * pose(j): the joint relative to its parent. */
static rune_xform placed(const rune_rig *rig, const rune_pose *pose, size_t j)
{
    rune_xform local = rune_xform_identity();
    if (j < pose->count) {
        local.t = pose->t[j];
        local.r = pose->r[j];
    }
    return rune_xform_mul(rune_rig_frame(rig, j), local);
}

/* Parents precede children, so out[parent] is final when j needs it. */
void rune_rig_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out)
{
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        int32_t p = rune_rig_parent(rig, j);
        out[j] = p < 0 ? placed(rig, pose, j) : rune_xform_mul(out[p], placed(rig, pose, j));
    }
}

void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        rune_mat4 m = rune_mat4_from_xform(placed(rig, pose, j));
        int32_t p = rune_rig_parent(rig, j);
        out[j] = p < 0 ? m : rune_mat4_mul(&out[p], &m);
    }
}

void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t n, rune_mat4 *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = rune_mat4_mul(&model[j], &inverse_bind[j]);
}
