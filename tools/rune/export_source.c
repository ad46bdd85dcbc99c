/* A clip as per-joint channels for the exporters (export_source.h). */
#include "export_source.h"
#include "rig/rig_internal.h"

#include <math.h>
#include <stdlib.h>

void export_clip_free(export_clip *x)
{
    for (size_t j = 0; x->joints && j < x->joint_count; j++)
        free(x->joints[j].time), free(x->joints[j].t), free(x->joints[j].r), free(x->joints[j].s);
    free(x->joints);
    x->joints = NULL;
}

/* The local transform rune composes from a joint's rest frame and a pose
 * key (rune_rig_frame_scale): what a glTF node's TRS holds. */
static void compose(const rune_rig *rig, size_t j, rune_vec3 t, rune_quat q, rune_vec3 s, rune_vec3 *ot,
                    rune_quat *oq, rune_vec3 *os)
{
    rune_xform f = rune_rig_frame(rig, j);
    rune_vec3 fs = rune_rig_frame_scale(rig, j);
    *ot = rune_v3_add(f.t, rune_q_rotate(f.r, rune_v3(fs.x * t.x, fs.y * t.y, fs.z * t.z)));
    *oq = rune_q_normalize(rune_q_mul(f.r, q));
    *os = rune_v3(fs.x * s.x, fs.y * s.y, fs.z * s.z);
}

static bool channel_alloc(export_channel *c, size_t n)
{
    c->time = calloc(n ? n : 1, sizeof *c->time), c->t = calloc(n ? n : 1, sizeof *c->t);
    c->r = calloc(n ? n : 1, sizeof *c->r), c->s = calloc(n ? n : 1, sizeof *c->s);
    c->count = n;
    return c->time && c->t && c->r && c->s;
}

/* Whether every key of the clip interpolates linearly (and it is not
 * compressed): then glTF's LINEAR channels at its own keys are it. */
static bool linear_keys(const rune_clip *c)
{
    if (rune_clip_compressed(c, NULL))
        return false;
    for (size_t k = 0; k < rune_clip_track_count(c); k++)
        for (size_t i = 0; i < rune_clip_track_key_count(c, k); i++) {
            float time;
            rune_key_pose_desc d;
            rune_clip_track_key(c, k, i, &time, &d);
            if (d.easing != RUNE_EASE_LINEAR)
                return false;
        }
    return true;
}

bool export_clip_make(const export_source *src, const rune_clip *c, export_clip *out)
{
    const rune_rig *rig = src->rig;
    size_t n = rune_rig_joint_count(rig);
    out->joint_count = n, out->rate = 0.0f;
    out->joints = calloc(n ? n : 1, sizeof *out->joints);
    rune_binding *b = NULL;
    if (!out->joints || rune_binding_create(rig, c, NULL, NULL, &b, NULL))
        return export_clip_free(out), false;
    bool fine = true;
    if (linear_keys(c) && !src->fps) {
        for (size_t k = 0; fine && k < rune_clip_track_count(c); k++) {
            int32_t j = rune_binding_joint(b, k);
            if (j < 0)
                continue;
            export_channel *ch = &out->joints[j];
            size_t keys = rune_clip_track_key_count(c, k);
            if (!(fine = channel_alloc(ch, keys)))
                break;
            for (size_t i = 0; i < keys; i++) {
                rune_key_pose_desc d;
                rune_clip_track_key(c, k, i, &ch->time[i], &d);
                compose(rig, (size_t)j, d.t, d.r, d.s, &ch->t[i], &ch->r[i], &ch->s[i]);
                ch->scaled |= ch->s[i].x != 1.0f || ch->s[i].y != 1.0f || ch->s[i].z != 1.0f;
            }
        }
    } else {
        rune_clip_compression z;
        float rate = src->fps ? src->fps : rune_clip_compressed(c, &z) && z.dt > 0.0f ? 1.0f / z.dt : 30.0f;
        float length = rune_clip_length(c);
        size_t samples = (size_t)ceil((double)length * rate - 1e-4) + 1;
        out->rate = rate;
        rune_pose pose;
        bool have_pose = fine = rune_pose_init(&pose, n, NULL, NULL) == RUNE_OK;
        for (size_t k = 0; fine && k < rune_clip_track_count(c); k++) {
            int32_t j = rune_binding_joint(b, k);
            if (j >= 0 && !out->joints[j].count)
                fine = channel_alloc(&out->joints[j], samples);
        }
        for (size_t i = 0; fine && i < samples; i++) {
            float time = i + 1 == samples ? length : (float)((double)i / rate);
            rune_binding_sample(b, time, &pose);
            for (size_t j = 0; j < n; j++) {
                export_channel *ch = &out->joints[j];
                if (!ch->count)
                    continue;
                ch->time[i] = time;
                compose(rig, j, rune_pose_t(&pose, j), rune_pose_r(&pose, j), rune_pose_s(&pose, j), &ch->t[i],
                        &ch->r[i], &ch->s[i]);
                ch->scaled |= ch->s[i].x != 1.0f || ch->s[i].y != 1.0f || ch->s[i].z != 1.0f;
            }
        }
        if (have_pose)
            rune_pose_release(&pose);
    }
    rune_binding_destroy(b);
    /* one hemisphere key to key: glTF's slerp takes q and -q as the
     * long and the short way round, rune's the short one */
    for (size_t j = 0; fine && j < n; j++)
        for (size_t i = 1; i < out->joints[j].count; i++) {
            rune_quat *q = out->joints[j].r, a = q[i - 1], b2 = q[i];
            if (a.x * b2.x + a.y * b2.y + a.z * b2.z + a.w * b2.w < 0.0f)
                q[i] = rune_q(-b2.x, -b2.y, -b2.z, -b2.w);
        }
    if (!fine)
        export_clip_free(out);
    return fine;
}
