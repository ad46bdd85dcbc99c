/* Unknown keys of a scenario document: after the document has loaded, one
 * walk over it compares every object's keys with what the format knows
 * there (docs/scenario.md), so a typo such as "framez" is reported with its
 * JSON path and the closest known key instead of being silently ignored.
 * A warning by default, an error with RUNE_SCENARIO_STRICT. */
#include "scenario_internal.h"
#include "json_read.h"
#include "../base/names.h"

#include <stdio.h>
#include <string.h>

typedef struct shape shape;

/* A member whose value is one object of a shape, an array of them, or a
 * map: an object whose keys are names (a keyframe's curves) and whose
 * values, where objects, have the shape. */
typedef enum member_kind { ONE, ARRAY, MAP } member_kind;
typedef struct member {
    const char *key;
    const shape *of;
    member_kind kind;
} member;

struct shape {
    const char *const *keys; /* NULL-terminated */
    const member *members;   /* terminated by a NULL key */
};

/* Keys of each object, NULL-terminated. */
static const char *const xform_keys[] = {"t", "r", "s", NULL};
static const char *const joint_keys[] = {"part", "parent", "frame", NULL};
static const char *const rig_keys[] = {"joints", NULL};
static const char *const pose_keys[] = {"parent", "part", "t", "r", "s", "weight", "mask_weight", "easing",
                                        "direction", NULL};
static const char *const keyframe_keys[] = {"time", "poses", "curves", NULL};
static const char *const curve_key_keys[] = {"value",     "weight",     "mask_weight", "easing",
                                             "direction", "in_tangent", "out_tangent", NULL};
static const char *const marker_keys[] = {"time", "name", "value", NULL};
static const char *const clip_keys[] = {"id", "revision", "loop", "priority", "keyframes", "markers", "rig", NULL};
static const char *const source_rig_keys[] = {"id", "joints", "asset", NULL};
static const char *const retarget_keys[] = {"from", "map", "foot_ik", NULL};
static const char *const sample_keys[] = {"clip", "motion", "threshold", "position", "speed", NULL};
static const char *const motion_keys[] = {"id", "type", "param", "params", "mode", "priority", "samples", NULL};
static const char *const param_keys[] = {"name", "type", "value", NULL};
static const char *const mask_keys[] = {"joint", "weight", "propagate", NULL};
static const char *const state_keys[] = {"name", "motion", "speed", "sync", NULL};
static const char *const condition_keys[] = {"param", "op", "value", NULL};
static const char *const transition_keys[] = {"from", "to", "duration", "exit_time", "interruptible", "blend", "conditions",
                                              NULL};
static const char *const layer_keys[] = {"name", "blend", "weight", "initial", "mask", "states", "transitions", NULL};
static const char *const graph_keys[] = {"id", "priority", "params", "layers", NULL};
static const char *const command_keys_common[] = {"frame", "play", "adjust", "stop", "control", "graph",
                                                  "set", "trigger", "travel", "fade_layer", NULL};
static const char *const root_keys[] = {"assets",   "rig",        "clips",       "motions",     "graphs",
                                        "dt",       "frames",     "commands",    "root_motion", "root_joint",
                                        "source_rigs", "retargets", "loops", NULL};

static const member none[] = {{NULL, NULL, ONE}};
static const shape xform_shape = {xform_keys, none};
static const member joint_members[] = {{"frame", &xform_shape, ONE}, {NULL, NULL, ONE}};
static const shape joint_shape = {joint_keys, joint_members};
static const member rig_members[] = {{"joints", &joint_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape rig_shape = {rig_keys, rig_members};
static const shape pose_shape = {pose_keys, none};
static const shape curve_key_shape = {curve_key_keys, none};
static const member keyframe_members[] = {{"poses", &pose_shape, ARRAY}, {"curves", &curve_key_shape, MAP},
                                          {NULL, NULL, ONE}};
static const shape keyframe_shape = {keyframe_keys, keyframe_members};
static const shape marker_shape = {marker_keys, none};
static const member clip_members[] = {{"keyframes", &keyframe_shape, ARRAY}, {"markers", &marker_shape, ARRAY},
                                      {NULL, NULL, ONE}};
static const shape clip_shape = {clip_keys, clip_members};
static const shape sample_shape = {sample_keys, none};
static const member motion_members[] = {{"samples", &sample_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape motion_shape = {motion_keys, motion_members};
static const shape param_shape = {param_keys, none};
static const shape mask_shape = {mask_keys, none};
static const shape state_shape = {state_keys, none};
static const shape condition_shape = {condition_keys, none};
static const member transition_members[] = {{"conditions", &condition_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape transition_shape = {transition_keys, transition_members};
static const member layer_members[] = {{"mask", &mask_shape, ARRAY}, {"states", &state_shape, ARRAY},
                                       {"transitions", &transition_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape layer_shape = {layer_keys, layer_members};
static const member graph_members[] = {{"params", &param_shape, ARRAY}, {"layers", &layer_shape, ARRAY},
                                       {NULL, NULL, ONE}};
static const shape graph_shape = {graph_keys, graph_members};
/* a command's keys depend on its action: see action_keys */
static const shape command_shape = {command_keys_common, none};
static const member source_rig_members[] = {{"joints", &joint_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape source_rig_shape = {source_rig_keys, source_rig_members};
static const shape retarget_shape = {retarget_keys, none}; /* a map's keys are joint names */
static const member root_members[] = {{"source_rigs", &source_rig_shape, ARRAY},
                                      {"retargets", &retarget_shape, ARRAY},
                                      {"rig", &rig_shape, ONE},         {"clips", &clip_shape, ARRAY},
                                      {"motions", &motion_shape, ARRAY},   {"graphs", &graph_shape, ARRAY},
                                      {"commands", &command_shape, ARRAY}, {NULL, NULL, ONE}};
static const shape root_shape = {root_keys, root_members};

static const char *const play_keys[] = {"track", "fade", "weight", "speed", "time", "priority", "blend", NULL};
static const char *const adjust_keys[] = {"weight", "fade", "speed", "blend", NULL};
static const char *const stop_keys[] = {"fade", "blend", NULL};
static const char *const graph_cmd_keys[] = {"instance", "fade", "weight", "blend", NULL};
static const char *const set_keys[] = {"param", "value", NULL};
static const char *const trigger_keys[] = {"param", NULL};
static const char *const travel_keys[] = {"state", "layer", NULL};
static const char *const fade_layer_keys[] = {"layer", "weight", "fade", NULL};
static const char *const control_keys[] = {"joint",  "priority", "r",       "t",          "weight",      "mode",
                                           "remove", "type",     "target",  "target_r",   "pole",        "root",
                                           "soften", "twist",    "forward", "up",         "offset",      "limit",
                                           "iterations", "tolerance", "smooth_time", NULL};

/* The keys a command with this action takes besides "frame" and itself. */
static const char *const *action_keys(json_t *cmd)
{
    static const struct {
        const char *action;
        const char *const *keys;
    } table[] = {{"play", play_keys},     {"adjust", adjust_keys},   {"stop", stop_keys},
                 {"graph", graph_cmd_keys}, {"set", set_keys},       {"trigger", trigger_keys},
                 {"travel", travel_keys}, {"fade_layer", fade_layer_keys}, {"control", control_keys}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (json_object_get(cmd, table[i].action))
            return table[i].keys;
    return NULL;
}

static bool listed(const char *const *keys, const char *key)
{
    for (size_t i = 0; keys && keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return false;
}

typedef struct walk {
    rune_scenario *s;
    rune__arena *arena;
    bool strict;
    rune_error *err;
} walk;

/* Adds "FILE: message" to the scenario's warnings (the first
 * RUNE_SCENARIO_MAX_WARNINGS are kept, the rest counted). */
static rune_status warn(rune_scenario *s, rune__arena *arena, const char *message, rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    if (s->warning_count == RUNE_SCENARIO_MAX_WARNINGS) {
        s->warnings_dropped++;
        return RUNE_OK;
    }
    size_t n = strlen(s->file) + strlen(message) + 3;
    char *line = rune__arena_alloc(arena, n);
    if (!line)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    snprintf(line, n, "%s: %s", s->file, message);
    box->warnings[s->warning_count++] = line;
    return RUNE_OK;
}

static rune_status unknown(walk *w, const char *path, const char *key, const char *const *k1, const char *const *k2)
{
    rune__name_match m;
    rune__match_init(&m, key);
    for (size_t i = 0; k1 && k1[i]; i++)
        rune__match_offer(&m, k1[i]);
    for (size_t i = 0; k2 && k2[i]; i++)
        rune__match_offer(&m, k2[i]);
    char where[JR_PATH_MAX], hint[RUNE_NAME_SUGGEST_MAX + 32];
    rune_error line; /* formatted as errors are: one line, control characters escaped */
    rune_fail(&line, RUNE_E_INVALID, "%s: unknown key%s", jr_join(where, path, key),
              rune__match_hint(&m, hint, sizeof hint));
    if (w->strict)
        return rune_fail(w->err, RUNE_E_INVALID, "%s", line.message);
    return warn(w->s, w->arena, line.message, w->err);
}

static rune_status check(walk *w, json_t *obj, const char *path, const shape *sh)
{
    if (!json_is_object(obj))
        return RUNE_OK; /* the loader already rejected what had to be an object */
    const char *const *keys = sh->keys, *const *extra = sh == &command_shape ? action_keys(obj) : NULL;
    const char *key;
    json_t *value;
    rune_status st;
    json_object_foreach(obj, key, value) {
        if (!listed(keys, key) && !listed(extra, key) && (st = unknown(w, path, key, keys, extra)))
            return st;
    }
    for (const member *m = sh->members; m->key; m++) {
        json_t *v = json_object_get(obj, m->key);
        char child[JR_PATH_MAX];
        if (m->kind == ONE) {
            if ((st = check(w, v, jr_join(child, path, m->key), m->of)))
                return st;
            continue;
        }
        if (m->kind == MAP) {
            const char *name;
            json_t *e;
            json_object_foreach(v, name, e) {
                char p[JR_PATH_MAX];
                if ((st = check(w, e, jr_join(child, jr_join(p, path, m->key), name), m->of)))
                    return st;
            }
            continue;
        }
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            char p[JR_PATH_MAX];
            snprintf(child, sizeof child, "%s[%zu]", jr_join(p, path, m->key), i);
            if ((st = check(w, e, child, m->of)))
                return st;
        }
    }
    return RUNE_OK;
}

rune_status rune__scenario_check_keys(json_t *root, rune_scenario *s, rune__arena *arena, bool strict,
                                      rune_error *err)
{
    walk w = {s, arena, strict, err};
    return check(&w, root, "", &root_shape);
}
