/* Procedural controls on the composed pose, in priority order (ties in
 * creation order): per-joint overrides and offsets here, solvers through
 * control_solve.c. */
#include "control_internal.h"
#include "mix_internal.h"

static void apply_one(const rune_control *c, rune_pose *pose)
{
    if (c->joint < 0 || (size_t)c->joint >= pose->count)
        return;
    size_t j = (size_t)c->joint;
    float w = rune_clamp01(c->weight);
    if (w <= 0.0f)
        return;
    rune_vec3 t = rune_pose_t(pose, j);
    rune_quat r = rune_pose_r(pose, j);
    if (c->mode == RUNE_CONTROL_OFFSET) {
        r = rune_q_normalize(rune_q_mul(r, rune_q_slerp(rune_q_identity(), c->xform.r, w)));
        t = rune_v3_add(t, rune_v3_scale(c->xform.t, w));
    } else {
        if (c->drive_t)
            t = rune_v3_lerp(t, c->xform.t, w);
        if (c->drive_r)
            r = rune_q_slerp(r, c->xform.r, w);
    }
    rune_pose_set(pose, j, t, r, pose->coverage[j] + w * (1.0f - pose->coverage[j]));
}

void rune_controls_apply(const rune_rig *rig, const rune_control *cs, size_t count, size_t *order, void *scratch,
                         rune_pose *pose)
{
    for (size_t i = 0; i < count; i++) {
        size_t k = i;
        while (k > 0 && cs[order[k - 1]].priority > cs[i].priority) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    ctl_scratch s = {0};
    if (rig && scratch)
        s = rune__control_scratch(rig, scratch);
    for (size_t i = 0; i < count; i++) {
        const rune_control *c = &cs[order[i]];
        if (c->mode == RUNE_CONTROL_OVERRIDE || c->mode == RUNE_CONTROL_OFFSET)
            apply_one(c, pose);
        else if (rig && scratch)
            rune__control_solve(rig, c, &s, pose);
    }
}
