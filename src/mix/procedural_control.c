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
    if (c->mode == RUNE_CONTROL_OFFSET) {
        pose->r[j] = rune_q_normalize(rune_q_mul(pose->r[j], rune_q_slerp(rune_q_identity(), c->xform.r, w)));
        pose->t[j] = rune_v3_add(pose->t[j], rune_v3_scale(c->xform.t, w));
        pose->coverage[j] += w * (1.0f - pose->coverage[j]);
    } else {
        if (c->drive_t)
            pose->t[j] = rune_v3_lerp(pose->t[j], c->xform.t, w);
        if (c->drive_r)
            pose->r[j] = rune_q_slerp(pose->r[j], c->xform.r, w);
        pose->coverage[j] += w * (1.0f - pose->coverage[j]);
    }
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
