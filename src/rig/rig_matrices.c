/* Model-space joint transforms and skinning matrices from a local pose. */
#include "rune/rig.h"

void rune_rig_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out)
{
    size_t n = rune_rig_joint_count(rig);
    for (size_t j = 0; j < n; j++) {
        rune_xform local = rune_xform_identity();
        if (j < pose->count) {
            local.t = pose->t[j];
            local.r = pose->r[j];
        }
        rune_xform placed = rune_xform_mul(rune_rig_frame(rig, j), local);
        int32_t p = rune_rig_parent(rig, j);
        out[j] = p < 0 ? placed : rune_xform_mul(out[p], placed);
    }
}

void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    /* parents precede children, so out[parent] is final when j needs it */
    size_t n = rune_rig_joint_count(rig);
    for (size_t j = 0; j < n; j++) {
        rune_xform local = rune_xform_identity();
        if (j < pose->count) {
            local.t = pose->t[j];
            local.r = pose->r[j];
        }
        rune_mat4 placed = rune_mat4_from_xform(rune_xform_mul(rune_rig_frame(rig, j), local));
        int32_t p = rune_rig_parent(rig, j);
        out[j] = p < 0 ? placed : rune_mat4_mul(&out[p], &placed);
    }
}

void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t n, rune_mat4 *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = rune_mat4_mul(&model[j], &inverse_bind[j]);
}
