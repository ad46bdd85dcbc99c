/* Writing a rig and clips (an import's descriptions) as a scenario
 * document: compact, one line per joint and per keyframe (each line one
 * jansson object), so a mocap clip is megabytes, not tens of them, and
 * still reads and diffs by line. */
#include "rune/io.h"
#include "../base/require.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REALS (JSON_REAL_PRECISION(9) | JSON_ENCODE_ANY) /* floats round-trip exactly */

static json_t *vec3(rune_vec3 v) { return json_pack("[f,f,f]", (double)v.x, (double)v.y, (double)v.z); }

static json_t *quat(rune_quat q)
{
    return json_pack("[f,f,f,f]", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
}

/* Writes `o` compact on the current line (and releases it); false when it
 * is NULL (out of memory) or the write fails. */
static bool put(FILE *f, const char *before, json_t *o)
{
    char *text = o ? json_dumps(o, JSON_COMPACT | REALS) : NULL;
    json_decref(o);
    bool ok = text && fputs(before, f) != EOF && fputs(text, f) != EOF;
    free(text);
    return ok;
}

static json_t *joint_json(const rune_joint_desc *d)
{
    json_t *frame = json_pack("{s:o, s:o}", "t", vec3(d->frame.t), "r", quat(d->frame.r));
    if (frame && d->scaled)
        json_object_set_new(frame, "s", vec3(d->scale));
    json_t *o = frame ? json_pack("{s:s, s:o}", "part", d->part, "frame", frame) : NULL;
    if (o && d->parent && d->parent[0])
        json_object_set_new(o, "parent", json_string(d->parent));
    return o;
}

/* A curve key: its value alone when everything else is the default. */
static json_t *curve_key_json(const rune_curve_key_desc *d)
{
    if (d->weight == 1.0f && d->mask_weight == 0.0f && d->easing == RUNE_EASE_LINEAR && d->direction == RUNE_EASE_IN &&
        !d->spline)
        return json_real((double)d->value);
    json_t *o = json_pack("{s:f}", "value", (double)d->value);
    if (o && d->weight != 1.0f)
        json_object_set_new(o, "weight", json_real((double)d->weight));
    if (o && d->mask_weight != 0.0f)
        json_object_set_new(o, "mask_weight", json_real((double)d->mask_weight));
    if (o && d->easing != RUNE_EASE_LINEAR)
        json_object_set_new(o, "easing", json_string(rune_easing_style_name(d->easing)));
    if (o && d->direction != RUNE_EASE_IN)
        json_object_set_new(o, "direction", json_string(rune_easing_dir_name(d->direction)));
    if (o && d->spline) {
        json_object_set_new(o, "in_tangent", json_real((double)d->in_tangent));
        json_object_set_new(o, "out_tangent", json_real((double)d->out_tangent));
    }
    return o;
}

static json_t *keyframe_json(const rune_keyframe_desc *kf)
{
    json_t *o = json_pack("{s:f}", "time", (double)kf->time);
    json_t *poses = kf->pose_count || !kf->curve_count ? json_array() : NULL;
    for (size_t p = 0; o && poses && p < kf->pose_count; p++) {
        const rune_key_pose_desc *d = &kf->poses[p];
        json_t *k = json_pack("{s:s, s:s, s:o, s:o}", "parent", d->parent, "part", d->part, "t", vec3(d->t), "r",
                              quat(d->r));
        if (k && d->scaled)
            json_object_set_new(k, "s", vec3(d->s));
        if (k && d->easing != RUNE_EASE_LINEAR)
            json_object_set_new(k, "easing", json_string(rune_easing_style_name(d->easing)));
        if (!k || json_array_append_new(poses, k)) {
            json_decref(o);
            o = NULL;
        }
    }
    if (o && poses && json_object_set(o, "poses", poses)) {
        json_decref(o);
        o = NULL;
    }
    json_decref(poses);
    json_t *curves = o && kf->curve_count ? json_object() : NULL;
    for (size_t c = 0; curves && c < kf->curve_count; c++)
        if (json_object_set_new(curves, kf->curves[c].name, curve_key_json(&kf->curves[c]))) {
            json_decref(curves);
            curves = NULL;
        }
    if (o && kf->curve_count && (!curves || json_object_set_new(o, "curves", curves))) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

static bool write_clip(FILE *f, const rune_sequence_desc *c, bool first)
{
    json_t *head = json_pack("{s:s, s:i, s:b, s:s}", "id", c->id, "revision", (json_int_t)c->revision, "loop",
                             c->loop, "priority", rune_priority_name(c->priority));
    char *text = head ? json_dumps(head, JSON_COMPACT | REALS) : NULL;
    json_decref(head);
    /* the head without its closing brace, then the keyframes */
    bool ok = text && fprintf(f, "%s\n  %.*s,\"keyframes\":[", first ? "" : ",", (int)strlen(text) - 1, text) > 0;
    free(text);
    for (size_t k = 0; ok && k < c->keyframe_count; k++)
        ok = put(f, k ? ",\n   " : "\n   ", keyframe_json(&c->keyframes[k]));
    return ok && fputs("]}", f) != EOF;
}

rune_status rune_scenario_write(const rune_document_desc *imp, FILE *f, rune_error *err)
{
    RUNE_REQUIRE(err, imp, "doc");
    RUNE_REQUIRE(err, f, "f");
    bool ok = fputs("{\"rig\": {\"joints\": [", f) != EOF;
    for (size_t j = 0; ok && j < imp->joint_count; j++)
        ok = put(f, j ? ",\n  " : "\n  ", joint_json(&imp->joints[j]));
    ok = ok && fputs("]},\n \"clips\": [", f) != EOF;
    float length = 0.0f;
    for (size_t i = 0; ok && i < imp->clip_count; i++)
        ok = write_clip(f, &imp->clips[i], i == 0);
    const rune_sequence_desc *play = imp->clip_count ? &imp->clips[imp->play < imp->clip_count ? imp->play : 0] : NULL;
    for (size_t k = 0; play && k < play->keyframe_count; k++)
        length = fmaxf(length, play->keyframes[k].time);
    if (play)
        length = fmaxf(length, play->length);
    ok = ok && fputs("],\n", f) != EOF;
    if (ok && imp->root_joint >= 0)
        ok = put(f, " \"root_joint\": ", json_string(imp->joints[imp->root_joint].part)) && fputs(",\n", f) != EOF;
    else if (ok) /* nothing travels: no root motion */
        ok = fputs(" \"root_motion\": false,\n", f) != EOF;
    ok = ok && fprintf(f, " \"dt\": %.9g, \"frames\": %d,\n \"commands\": [", 1.0 / 30.0,
                       (int)ceil(length * 30.0) + 1) > 0;
    if (ok && play)
        ok = put(f, "", json_pack("{s:i, s:s, s:f}", "frame", 0, "play", play->id, "fade", 0.0));
    ok = ok && fputs("]}\n", f) != EOF;
    if (!ok)
        return rune_fail(err, RUNE_E_IO, "%s: cannot write the scenario", imp->source);
    return RUNE_OK;
}
