/* Synthetic benchmark scenes: binary-tree rigs and smooth 30 Hz clips. */
#include "bench.h"
#include "character/character_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int bench_scene_make(bench_scene *s, size_t joints, size_t clips)
{
    rune_joint_desc *jd = calloc(joints, sizeof *jd);
    char (*names)[16] = calloc(joints, sizeof *names);
    enum { KEYS = 61 };
    rune_keyframe_desc *kf = calloc(KEYS, sizeof *kf);
    rune_key_pose_desc *poses = calloc(KEYS * joints, sizeof *poses);
    s->clip_count = clips;
    s->lib = NULL;
    int rc = !jd || !names || !kf || !poses;
    for (size_t j = 0; !rc && j < joints; j++) {
        snprintf(names[j], sizeof names[j], "J%zu", j);
        jd[j].part = names[j];
        jd[j].parent = j ? names[(j - 1) / 2] : NULL;
        jd[j].frame = (rune_xform){{0.0f, 0.1f, 0.0f}, {0, 0, 0, 1}};
    }
    rc = rc || rune_library_create(jd, joints, NULL, &s->lib, NULL);
    for (size_t c = 0; !rc && c < clips; c++) {
        for (size_t k = 0; k < KEYS; k++) {
            float t = (float)k / 30.0f;
            for (size_t j = 0; j < joints; j++) {
                rune_key_pose_desc *p = &poses[k * joints + j];
                float ph = 6.2831853f * (t / 2.0f) + 0.37f * (float)j + 1.3f * (float)c;
                rune_vec3 axis = rune_v3(sinf(0.7f * (float)j + (float)c), cosf(0.3f * (float)j), 0.5f);
                float len = sqrtf(rune_v3_dot(axis, axis));
                p->parent = j ? names[(j - 1) / 2] : "";
                p->part = names[j];
                p->t = rune_v3(0.05f * sinf(ph), 0.05f * cosf(ph), 0.0f);
                p->r = rune_q_axis_angle(rune_v3_scale(axis, 1.0f / len), 0.6f * sinf(ph));
                p->weight = 1.0f;
            }
            kf[k] = (rune_keyframe_desc){t, &poses[k * joints], joints, NULL, 0};
        }
        char id[16];
        snprintf(id, sizeof id, "clip%zu", c);
        rune_sequence_desc d = {id, 1, true, RUNE_PRIORITY_MOVEMENT, kf, KEYS, NULL, 0, 0.0f};
        rc = rune_library_add_clip(s->lib, &d, NULL, NULL);
    }
    if (!rc) {
        s->rig = rune_library_rig(s->lib);
        s->bindings = rune_library_bindings(s->lib);
    }
    free(jd);
    free(names);
    free(kf);
    free(poses);
    return rc;
}

void bench_scene_free(bench_scene *s) { rune_library_destroy(s->lib); }

rune_xform bench_local_of(const rune_rig *rig, const rune_pose *pose, size_t j)
{
    rune_xform x = {rune_v3(pose->tx[j], pose->ty[j], pose->tz[j]),
                    rune_q(pose->qx[j], pose->qy[j], pose->qz[j], pose->qw[j])};
    return rune_xform_mul(rune_rig_frame(rig, j), x);
}
