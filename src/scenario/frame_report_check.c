/* Whether a frame report holds only finite numbers: the library promises
 * finite output for finite input, so tools treat a non-finite number as an
 * internal error instead of printing it. */
#include "rune/io.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

bool rune_frame_report_finite(const rune_frame_report *r, char *what, size_t what_size)
{
    char name[128];
    const char *bad = NULL;
    for (size_t j = 0; !bad && j < r->pose->count; j++) {
        const rune_pose *p = r->pose;
        const float v[11] = {p->tx[j], p->ty[j], p->tz[j], p->qx[j], p->qy[j], p->qz[j],
                             p->qw[j], p->sx[j], p->sy[j], p->sz[j], p->coverage[j]};
        if (!all_finite(v, 11))
            bad = rune_rig_joint_name(r->rig, j, name, sizeof name);
    }
    for (size_t c = 0; !bad && c < r->pose->curve_count; c++)
        if (!isfinite(r->pose->curve[c]) || !isfinite(r->pose->curve_cov[c]))
            bad = "curves";
    const float root[3] = {r->root_motion.dx, r->root_motion.dz, r->root_motion.yaw};
    if (!bad && !all_finite(root, 3))
        bad = "root_motion";
    for (size_t i = 0; !bad && i < r->event_count; i++)
        if (!isfinite(r->events[i].time))
            bad = "events";
    for (size_t i = 0; !bad && i < r->weight_count; i++)
        if (!isfinite(r->weights[i].weight))
            bad = "weights";
    for (size_t i = 0; !bad && i < r->control_count; i++) {
        const rune_control_state *c = &r->controls[i].state;
        const float v[14] = {c->target.x,   c->target.y,   c->target.z,   c->target_r.x, c->target_r.y,
                             c->target_r.z, c->target_r.w, c->effector.x, c->effector.y, c->effector.z,
                             c->pole.x,     c->pole.y,     c->pole.z,     c->error};
        if (!all_finite(v, 14))
            bad = "controls";
    }
    if (!bad && !(isfinite(r->time) && fabs(r->time) <= FLT_MAX))
        bad = "time";
    if (bad && what)
        snprintf(what, what_size, "%s%s", bad == name ? "pose " : "", bad);
    return !bad;
}
