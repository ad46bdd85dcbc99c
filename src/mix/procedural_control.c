/* Procedural controls: per-joint overrides and offsets applied to the
 * composed pose in priority order. */
#include "rune/mix.h"

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

void rune_controls_apply(const rune_control *cs, size_t count, size_t *order, rune_pose *pose)
{
    for (size_t i = 0; i < count; i++) {
        size_t k = i;
        while (k > 0 && cs[order[k - 1]].priority > cs[i].priority) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (size_t i = 0; i < count; i++)
        apply_one(&cs[order[i]], pose);
}
