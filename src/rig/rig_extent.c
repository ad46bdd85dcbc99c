/* The box a rig's joints span in model space, and a rig's height (its
 * largest side at rest): the scale that compression's defaults and
 * retargeting's proportions are measured in. Load-time code. */
#include "rig_internal.h"

#include <math.h>
#include <stdlib.h>

void rune__rig_grow_box(const rune_rig *rig, const rune_pose *pose, rune_mat4 *m, float lo[3], float hi[3])
{
    rune_rig_model_matrices(rig, pose, m);
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++)
        for (int c = 0; c < 3; c++) {
            float v = m[j].m[12 + c];
            lo[c] = v < lo[c] ? v : lo[c];
            hi[c] = v > hi[c] ? v : hi[c];
        }
}

float rune__rig_box_height(const float lo[3], const float hi[3])
{
    float h = 0.0f;
    for (int c = 0; c < 3; c++)
        h = hi[c] - lo[c] > h ? hi[c] - lo[c] : h;
    return isfinite(h) ? h : 0.0f;
}

float rune_rig_height(const rune_rig *rig)
{
    size_t n = rig ? rune_rig_joint_count(rig) : 0;
    rune_pose pose;
    rune_mat4 *m = calloc(n ? n : 1, sizeof *m);
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    if (n && m && !rune_pose_init(&pose, n, NULL, NULL)) {
        rune__rig_grow_box(rig, &pose, m, lo, hi); /* the rest pose */
        rune_pose_release(&pose);
    }
    free(m);
    return rune__rig_box_height(lo, hi);
}
