/* Writing an imported asset as a scenario document (jansson). */
#include "rune/import.h"

#include <jansson.h>
#include <math.h>

static json_t *vec3(rune_vec3 v) { return json_pack("[f,f,f]", (double)v.x, (double)v.y, (double)v.z); }

static json_t *quat(rune_quat q)
{
    return json_pack("[f,f,f,f]", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
}

static json_t *rig_json(const rune_import *imp)
{
    json_t *joints = json_array();
    for (size_t j = 0; joints && j < imp->joint_count; j++) {
        const rune_joint_desc *d = &imp->joints[j];
        json_t *o = json_pack("{s:s, s:{s:o, s:o}}", "part", d->part, "frame", "t", vec3(d->frame.t), "r",
                              quat(d->frame.r));
        if (o && d->parent && d->parent[0])
            json_object_set_new(o, "parent", json_string(d->parent));
        if (!o || json_array_append_new(joints, o)) {
            json_decref(joints);
            return NULL;
        }
    }
    return joints ? json_pack("{s:o}", "joints", joints) : NULL;
}

static json_t *clip_json(const rune_sequence_desc *c)
{
    json_t *kfs = json_array();
    for (size_t k = 0; kfs && k < c->keyframe_count; k++) {
        const rune_keyframe_desc *kf = &c->keyframes[k];
        json_t *poses = json_array();
        for (size_t p = 0; poses && p < kf->pose_count; p++) {
            const rune_key_pose_desc *d = &kf->poses[p];
            json_t *o = json_pack("{s:s, s:s, s:o, s:o}", "parent", d->parent, "part", d->part, "t", vec3(d->t), "r",
                                  quat(d->r));
            if (!o || json_array_append_new(poses, o)) {
                json_decref(poses);
                poses = NULL;
            }
        }
        json_t *o = poses ? json_pack("{s:f, s:o}", "time", (double)kf->time, "poses", poses) : NULL;
        if (!o || json_array_append_new(kfs, o)) {
            json_decref(kfs);
            return NULL;
        }
    }
    return kfs ? json_pack("{s:s, s:i, s:b, s:s, s:o}", "id", c->id, "revision", (json_int_t)c->revision, "loop",
                           c->loop, "priority", rune_priority_name(c->priority), "keyframes", kfs)
               : NULL;
}

rune_status rune_import_write_scenario(const rune_import *imp, FILE *f, rune_error *err)
{
    json_t *clips = json_array(), *rig = rig_json(imp), *commands = json_array();
    float length = 0.0f;
    bool ok = clips && rig && commands;
    for (size_t i = 0; ok && i < imp->clip_count; i++) {
        json_t *c = clip_json(&imp->clips[i]);
        ok = c && !json_array_append_new(clips, c);
    }
    for (size_t k = 0; ok && imp->clip_count && k < imp->clips[0].keyframe_count; k++)
        length = fmaxf(length, imp->clips[0].keyframes[k].time);
    if (ok && imp->clip_count)
        ok = !json_array_append_new(commands, json_pack("{s:i, s:s, s:f}", "frame", 0, "play", imp->clips[0].id,
                                                        "fade", 0.0));
    json_t *doc = ok ? json_pack("{s:O, s:O, s:f, s:i, s:O}", "rig", rig, "clips", clips, "dt", 1.0 / 30.0, "frames",
                                 (json_int_t)ceil(length * 30.0) + 1, "commands", commands)
                     : NULL;
    int rc = doc ? json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(9)) : -1;
    json_decref(doc);
    json_decref(rig);
    json_decref(clips);
    json_decref(commands);
    if (rc != 0 || fputc('\n', f) == EOF)
        return rune_fail(err, RUNE_E_IO, "%s: cannot write the scenario", imp->source);
    return RUNE_OK;
}
