/* Scenario documents: JSON -> rune_scenario (rig, clips, timeline). The
 * whole document is validated here; on any error nothing survives. */
#include "rune/io.h"
#include "json_read.h"
#include "scenario_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct loader {
    rune__arena *arena;
    rune_error *err;
    bool scaled; /* some key pose has "s" */
} loader;

static rune_status nomem(loader *L) { return rune_fail(L->err, RUNE_E_NOMEM, "out of memory"); }

static rune_status load_rig(loader *L, json_t *root, rune_scenario *s)
{
    json_t *rig = json_object_get(root, "rig"), *joints;
    if (!rig && rune__scenario_asset_rig(s) == RUNE_OK)
        return RUNE_OK;
    if (!rig)
        return rune_fail(L->err, RUNE_E_INVALID, "rig: missing (and no asset has one)");
    rune_status st = jr_object(rig, "rig", L->err);
    if (!st)
        st = jr_array(rig, "joints", "rig", true, &joints, L->err);
    if (st)
        return st;
    bool scaled = false;
    st = rune__scenario_load_joints(joints, "rig.joints", L->arena, &s->joints, &s->joint_count, &scaled, L->err);
    s->uses_scale |= scaled;
    return st;
}

static rune_status load_pose(loader *L, json_t *j, const char *path, rune_key_pose_desc *d)
{
    rune_status st;
    if ((st = jr_object(j, path, L->err)) || (st = jr_string(j, "part", path, true, NULL, L->arena, &d->part, L->err)) ||
        (st = jr_string(j, "parent", path, false, "", L->arena, &d->parent, L->err)) ||
        (st = jr_vec3(j, "t", path, rune_v3(0, 0, 0), &d->t, L->err)) || (st = jr_quat(j, "r", path, &d->r, L->err)) ||
        (st = jr_float(j, "weight", path, false, 1.0f, &d->weight, L->err)) ||
        (st = jr_float(j, "mask_weight", path, false, 0.0f, &d->mask_weight, L->err)))
        return st;
    if (json_object_get(j, "s")) {
        if ((st = jr_vec3(j, "s", path, rune_v3(1, 1, 1), &d->s, L->err)))
            return st;
        d->scaled = L->scaled = true;
    }
    if (!d->part[0])
        return rune_fail(L->err, RUNE_E_INVALID, "%s.part: empty name", path);
    return jr_easing(j, path, &d->easing, &d->direction, L->err);
}

static rune_status load_keyframes(loader *L, json_t *clip, const char *cpath, rune_sequence_desc *c)
{
    json_t *kfs;
    rune_status st = jr_array(clip, "keyframes", cpath, false, &kfs, L->err);
    if (st || !kfs)
        return st;
    size_t n = json_array_size(kfs);
    rune_keyframe_desc *out = rune__arena_array(L->arena, n, sizeof *out);
    if (!out)
        return nomem(L);
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "%s.keyframes[%zu]", cpath, i);
        json_t *k = json_array_get(kfs, i), *poses;
        if ((st = jr_object(k, path, L->err)) || (st = jr_float(k, "time", path, true, 0.0f, &out[i].time, L->err)) ||
            (st = jr_array(k, "poses", path, false, &poses, L->err)))
            return st;
        size_t m = poses ? json_array_size(poses) : 0;
        rune_key_pose_desc *pd = rune__arena_array(L->arena, m, sizeof *pd);
        if (!pd)
            return nomem(L);
        for (size_t j = 0; j < m; j++) {
            char ppath[JR_PATH_MAX];
            snprintf(ppath, sizeof ppath, "%s.poses[%zu]", path, j);
            if ((st = load_pose(L, json_array_get(poses, j), ppath, &pd[j])))
                return st;
        }
        out[i].poses = pd;
        out[i].pose_count = m;
        if ((st = rune__scenario_load_curve_keys(k, path, L->arena, &out[i], L->err)))
            return st;
    }
    c->keyframes = out;
    c->keyframe_count = n;
    return RUNE_OK;
}

static rune_status load_markers(loader *L, json_t *clip, const char *cpath, rune_sequence_desc *c)
{
    json_t *ms;
    rune_status st = jr_array(clip, "markers", cpath, false, &ms, L->err);
    if (st || !ms)
        return st;
    size_t n = json_array_size(ms);
    rune_marker_desc *out = rune__arena_array(L->arena, n, sizeof *out);
    if (!out)
        return nomem(L);
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "%s.markers[%zu]", cpath, i);
        json_t *m = json_array_get(ms, i);
        if ((st = jr_object(m, path, L->err)) || (st = jr_float(m, "time", path, true, 0.0f, &out[i].time, L->err)) ||
            (st = jr_string(m, "name", path, true, NULL, L->arena, &out[i].name, L->err)) ||
            (st = jr_string(m, "value", path, false, "", L->arena, &out[i].value, L->err)))
            return st;
    }
    c->markers = out;
    c->marker_count = n;
    return RUNE_OK;
}

static rune_status load_clips(loader *L, json_t *root, rune_scenario *s)
{
    json_t *clips;
    rune_status st = jr_array(root, "clips", "", false, &clips, L->err);
    if (st || !clips)
        return st;
    s->clip_count = json_array_size(clips);
    s->clips = rune__arena_array(L->arena, s->clip_count, sizeof *s->clips);
    if (!s->clips || rune__scenario_set_clip_rigs(s, L->arena, 0, s->clip_count, -1))
        return nomem(L);
    for (size_t i = 0; i < s->clip_count; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "clips[%zu]", i);
        json_t *c = json_array_get(clips, i);
        rune_sequence_desc *d = &s->clips[i];
        long long rev;
        if ((st = jr_object(c, path, L->err)) || (st = jr_string(c, "id", path, true, NULL, L->arena, &d->id, L->err)) ||
            (st = jr_int(c, "revision", path, false, 0, 0, UINT32_MAX, &rev, L->err)) ||
            (st = jr_bool(c, "loop", path, false, &d->loop, L->err)) ||
            (st = jr_priority(c, path, &d->priority, L->err)) ||
            (st = load_keyframes(L, c, path, d)) || (st = load_markers(L, c, path, d)) ||
            (st = rune__scenario_clip_rig(c, path, s, &s->clip_rig[i], L->err)))
            return st;
        d->revision = (uint32_t)rev;
        if (!d->id[0])
            return rune_fail(L->err, RUNE_E_INVALID, "%s.id: empty", path);
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->clips[k].id, d->id) == 0)
                return rune_fail(L->err, RUNE_E_INVALID, "%s.id: \"%s\" is already clips[%zu]", path, d->id, k);
    }
    return RUNE_OK;
}

static const char *const action_keys[] = {"play", "adjust", "stop",    "control",   "graph",
                                          "set",  "trigger", "travel", "fade_layer"};
#define ACTION_COUNT (sizeof action_keys / sizeof action_keys[0])

/* The newest earlier command (document order) that introduced `id`: a
 * play (a track id) or a graph (an instance id). */
static const rune_command *introduced(const rune_scenario *s, size_t upto, const char *id)
{
    for (size_t i = upto; i-- > 0;) {
        const rune_command *c = &s->commands[i];
        if ((c->kind == RUNE_CMD_PLAY || c->kind == RUNE_CMD_GRAPH) && strcmp(c->track, id) == 0)
            return c;
    }
    return NULL;
}

static int32_t graph_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->graph_count; i++)
        if (strcmp(s->graphs[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

/* A parameter declared by a graph, as a scenario index; -1 when not. */
static int32_t graph_param(const rune_scenario *s, const rune_scenario_graph *g, const char *name,
                           rune_param_type *type)
{
    for (size_t i = 0; i < g->declared_count; i++)
        if (strcmp(s->params[g->declared[i]], name) == 0) {
            *type = g->declared_desc[i].type;
            return (int32_t)g->declared[i];
        }
    return -1;
}

/* set/trigger/travel/fade_layer on an instance: the graph it runs. */
static rune_status target_graph(loader *L, const rune_scenario *s, size_t i, const char *path,
                                const char *key, const rune_scenario_graph **out)
{
    const rune_command *by = introduced(s, i, s->commands[i].target);
    char p[JR_PATH_MAX];
    if (!by || by->kind != RUNE_CMD_GRAPH)
        return rune_fail(L->err, RUNE_E_INVALID, "%s: no graph command before it (by frame, then document order) starts instance \"%s\"",
                         jr_join(p, path, key), s->commands[i].target);
    *out = &s->graphs[by->graph];
    return RUNE_OK;
}

static int32_t layer_by_name(const rune_scenario_graph *g, const char *name)
{
    for (size_t li = 0; li < g->layer_count; li++)
        if (strcmp(g->layers[li].name, name) == 0)
            return (int32_t)li;
    return -1;
}

static rune_status load_graph_command(loader *L, json_t *c, const char *path, rune_scenario *s, size_t i)
{
    rune_command *d = &s->commands[i];
    const rune_scenario_graph *g;
    rune_status st;
    char p[JR_PATH_MAX];
    switch (d->kind) {
    case RUNE_CMD_GRAPH: {
        int32_t gi = graph_index(s, d->target);
        if (gi < 0)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: unknown graph \"%s\"", jr_join(p, path, "graph"), d->target);
        d->graph = (uint32_t)gi;
        if ((st = jr_string(c, "instance", path, false, d->target, L->arena, &d->track, L->err)) ||
            (st = jr_float(c, "fade", path, false, 0.1f, &d->play.fade, L->err)) ||
            (st = jr_float(c, "weight", path, false, 1.0f, &d->play.weight, L->err)) ||
            (st = jr_blend(c, path, &d->play.blend, L->err)))
            return st;
        return d->play.fade < 0.0f ? rune_fail(L->err, RUNE_E_INVALID, "%s: negative fade", jr_join(p, path, "fade"))
                                   : RUNE_OK;
    }
    case RUNE_CMD_TRIGGER:
    case RUNE_CMD_SET: {
        const rune_command *by = introduced(s, i, d->target);
        if (d->kind == RUNE_CMD_SET && by && by->kind == RUNE_CMD_PLAY && by->is_motion)
            return RUNE_OK; /* a motion track's parameter: the caller reads it */
        if ((st = target_graph(L, s, i, path, d->kind == RUNE_CMD_SET ? "set" : "trigger", &g)) ||
            (st = jr_string(c, "param", path, true, NULL, L->arena, &d->param, L->err)))
            return st;
        d->on_graph = true;
        rune_param_type type;
        int32_t pi = graph_param(s, g, d->param, &type);
        if (pi < 0)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: graph \"%s\" has no parameter \"%s\"",
                             jr_join(p, path, "param"), g->id, d->param);
        d->param_index = (uint32_t)pi;
        if (d->kind == RUNE_CMD_TRIGGER)
            return type == RUNE_PARAM_TRIGGER ? RUNE_OK
                                              : rune_fail(L->err, RUNE_E_INVALID, "%s: \"%s\" is not a trigger",
                                                          jr_join(p, path, "param"), d->param);
        if (type == RUNE_PARAM_TRIGGER)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: \"%s\" is a trigger: use a trigger command",
                             jr_join(p, path, "param"), d->param);
        return jr_param_value(c, "value", path, true, type == RUNE_PARAM_BOOL, 0.0f, &d->value, L->err);
    }
    case RUNE_CMD_TRAVEL:
    case RUNE_CMD_FADE_LAYER: {
        const char *layer;
        if ((st = target_graph(L, s, i, path, d->kind == RUNE_CMD_TRAVEL ? "travel" : "fade_layer", &g)) ||
            (st = jr_string(c, "layer", path, d->kind == RUNE_CMD_FADE_LAYER, NULL, L->arena, &layer, L->err)))
            return st;
        int32_t li = layer ? layer_by_name(g, layer) : -1;
        if (layer && li < 0)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: graph \"%s\" has no layer \"%s\"",
                             jr_join(p, path, "layer"), g->id, layer);
        if (d->kind == RUNE_CMD_FADE_LAYER) {
            d->layer = (uint32_t)li;
            if ((st = jr_float(c, "weight", path, true, 0.0f, &d->weight, L->err)) ||
                (st = jr_float(c, "fade", path, false, 0.1f, &d->fade, L->err)))
                return st;
            return RUNE_OK;
        }
        if ((st = jr_string(c, "state", path, true, NULL, L->arena, &d->state, L->err)))
            return st;
        for (size_t k = layer ? (size_t)li : 0; k < (layer ? (size_t)li + 1 : g->layer_count); k++)
            for (size_t si = 0; si < g->layers[k].state_count; si++)
                if (strcmp(g->layers[k].states[si].name, d->state) == 0) {
                    d->layer = (uint32_t)k;
                    d->state_index = (uint32_t)si;
                    return RUNE_OK;
                }
        return rune_fail(L->err, RUNE_E_INVALID, "%s: graph \"%s\" has no state \"%s\"", jr_join(p, path, "state"),
                         g->id, d->state);
    }
    default:
        return RUNE_OK;
    }
}

static rune_status load_play(loader *L, json_t *c, const char *path, const rune_scenario *s, rune_command *d)
{
    rune_status st;
    char p[JR_PATH_MAX];
    if ((st = jr_string(c, "track", path, false, d->target, L->arena, &d->track, L->err)) ||
        (st = jr_float(c, "fade", path, false, 0.1f, &d->play.fade, L->err)) ||
        (st = jr_float(c, "weight", path, false, 1.0f, &d->play.weight, L->err)) ||
        (st = jr_float(c, "speed", path, false, 1.0f, &d->play.speed, L->err)) ||
        (st = jr_float(c, "time", path, false, 0.0f, &d->play.time, L->err)) ||
        (st = jr_blend(c, path, &d->play.blend, L->err)))
        return st;
    if (json_object_get(c, "priority")) {
        d->play.has_priority = true;
        if ((st = jr_priority(c, path, &d->play.priority, L->err)))
            return st;
    }
    d->is_motion = rune__scenario_motion_index(s, d->target) >= 0;
    if (!d->is_motion && rune__scenario_clip_index(s, d->target) < 0)
        return rune_fail(L->err, RUNE_E_INVALID, "%s: unknown clip or motion \"%s\"", jr_join(p, path, "play"),
                         d->target);
    if (d->play.fade < 0.0f)
        return rune_fail(L->err, RUNE_E_INVALID, "%s: negative fade", jr_join(p, path, "fade"));
    return RUNE_OK;
}

/* The frame and the action of command `index` (the first pass). */
static rune_status load_command_head(loader *L, json_t *c, const char *path, size_t index, rune_command *d)
{
    rune_status st;
    long long frame;
    if ((st = jr_object(c, path, L->err)) ||
        (st = jr_int(c, "frame", path, true, 0, 0, RUNE_SCENARIO_MAX_FRAMES, &frame, L->err)))
        return st;
    d->frame = (int)frame;
    d->index = index;
    size_t found = ACTION_COUNT;
    for (size_t k = 0; k < ACTION_COUNT; k++)
        if (json_object_get(c, action_keys[k])) {
            if (found != ACTION_COUNT)
                return rune_fail(L->err, RUNE_E_INVALID, "%s: both \"%s\" and \"%s\" (one action per command)", path,
                                 action_keys[found], action_keys[k]);
            found = k;
        }
    if (found == ACTION_COUNT)
        return rune_fail(L->err, RUNE_E_INVALID,
                         "%s: no action (expected play, adjust, stop, control, graph, set, trigger, travel or "
                         "fade_layer)", path);
    d->kind = (rune_command_kind)found;
    return jr_string(c, action_keys[found], path, true, NULL, L->arena, &d->target, L->err);
}

/* The rest of the command at position i of the frame-ordered list: names
 * it refers to resolve against the commands before it in that order, the
 * order they run in. */
static rune_status load_command(loader *L, json_t *c, const char *path, rune_scenario *s, size_t i)
{
    rune_command *d = &s->commands[i];
    rune_status st;
    size_t found = (size_t)d->kind;
    char p[JR_PATH_MAX];
    switch (d->kind) {
    case RUNE_CMD_PLAY:
        return load_play(L, c, path, s, d);
    case RUNE_CMD_ADJUST:
    case RUNE_CMD_STOP: {
        const rune_command *by = introduced(s, i, d->target);
        if (!by)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: no play or graph command before it (by frame, then document order) starts \"%s\"",
                             jr_join(p, path, action_keys[found]), d->target);
        d->on_graph = by->kind == RUNE_CMD_GRAPH;
        d->has_weight = json_object_get(c, "weight") != NULL;
        d->has_speed = json_object_get(c, "speed") != NULL;
        if ((st = jr_float(c, "weight", path, false, 1.0f, &d->weight, L->err)) ||
            (st = jr_float(c, "fade", path, false, 0.1f, &d->fade, L->err)) ||
            (st = jr_float(c, "speed", path, false, 1.0f, &d->speed, L->err)) ||
            (st = jr_blend(c, path, &d->play.blend, L->err)))
            return st;
        if (d->fade < 0.0f)
            return rune_fail(L->err, RUNE_E_INVALID, "%s: negative fade", jr_join(p, path, "fade"));
        return RUNE_OK;
    }
    case RUNE_CMD_CONTROL:
        return rune__scenario_load_control(c, path, L->arena, d, L->err);
    case RUNE_CMD_SET: {
        rune_status st2 = load_graph_command(L, c, path, s, i);
        if (st2 || d->on_graph)
            return st2;
        /* a motion track's parameter */
        if ((st2 = jr_string(c, "param", path, true, NULL, L->arena, &d->param, L->err)) ||
            (st2 = jr_float(c, "value", path, true, 0.0f, &d->value, L->err)))
            return st2;
        for (uint32_t k = 0; k < s->param_count; k++)
            if (strcmp(s->params[k], d->param) == 0) {
                d->param_index = k;
                return RUNE_OK;
            }
        return rune_fail(L->err, RUNE_E_INVALID, "%s: no motion uses a parameter \"%s\"", jr_join(p, path, "param"),
                         d->param);
    }
    default:
        return load_graph_command(L, c, path, s, i);
    }
}

static int cmp_command(const void *a, const void *b)
{
    const rune_command *x = a, *y = b;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static rune_status load_commands(loader *L, json_t *root, rune_scenario *s)
{
    json_t *cmds;
    rune_status st = jr_array(root, "commands", "", false, &cmds, L->err);
    if (st || !cmds)
        return st;
    s->command_count = json_array_size(cmds);
    s->commands = rune__arena_array(L->arena, s->command_count, sizeof *s->commands);
    if (!s->commands)
        return nomem(L);
    char path[JR_PATH_MAX];
    for (size_t i = 0; i < s->command_count; i++) {
        snprintf(path, sizeof path, "commands[%zu]", i);
        if ((st = load_command_head(L, json_array_get(cmds, i), path, i, &s->commands[i])))
            return st;
    }
    /* commands run by frame, in document order within one; what each one
     * names must have been started before it in that order */
    qsort(s->commands, s->command_count, sizeof *s->commands, cmp_command);
    for (size_t i = 0; i < s->command_count; i++) {
        size_t index = s->commands[i].index;
        snprintf(path, sizeof path, "commands[%zu]", index);
        if ((st = load_command(L, json_array_get(cmds, index), path, s, i)))
            return st;
    }
    return RUNE_OK;
}

/* "loops": {"id": true|false}: the loop flag of clips, the document's or
 * an asset's (imports rarely say which clips loop). */
static rune_status load_loops(loader *L, json_t *root, rune_scenario *s)
{
    json_t *map = json_object_get(root, "loops");
    if (!map)
        return RUNE_OK;
    if (!json_is_object(map))
        return rune_fail(L->err, RUNE_E_INVALID, "loops: expected an object of clip ids and true or false");
    const char *id;
    json_t *v;
    json_object_foreach(map, id, v) {
        if (!json_is_boolean(v))
            return rune_fail(L->err, RUNE_E_INVALID, "loops.%s: expected true or false", id);
        size_t c = 0;
        while (c < s->clip_count && strcmp(s->clips[c].id, id) != 0)
            c++;
        if (c == s->clip_count)
            return rune_fail(L->err, RUNE_E_INVALID, "loops.%s: unknown clip \"%s\"", id, id);
        s->clips[c].loop = json_is_true(v);
    }
    return RUNE_OK;
}

static rune_status load_document(loader *L, json_t *root, rune_scenario *s)
{
    rune_status st;
    long long frames;
    if ((st = jr_object(root, "", L->err)) || (st = rune__scenario_load_assets(root, s, L->arena, L->err)) ||
        (st = rune__scenario_load_source_rigs(root, s, L->arena, L->err)) ||
        (st = load_rig(L, root, s)) || (st = load_clips(L, root, s)) ||
        (st = rune__scenario_asset_clips(s, L->arena, L->err)) ||
        (st = rune__scenario_source_clips(s, L->arena, L->err)) || (st = load_loops(L, root, s)) ||
        (st = rune__scenario_load_retargets(root, s, L->arena, L->err)) ||
        (st = rune__scenario_load_motions(root, s, L->arena, L->err)) ||
        (st = rune__scenario_load_graphs(root, s, L->arena, L->err)) ||
        (st = jr_float(root, "dt", "", false, 1.0f / 30.0f, &s->dt, L->err)) ||
        (st = jr_int(root, "frames", "", false, 1, 0, RUNE_SCENARIO_MAX_FRAMES, &frames, L->err)) ||
        (st = load_commands(L, root, s)) ||
        (st = jr_bool(root, "root_motion", "", true, &s->root_motion, L->err)) ||
        (st = jr_string(root, "root_joint", "", false, NULL, L->arena, &s->root_joint, L->err)))
        return st;
    s->frames = (int)frames;
    s->uses_scale |= L->scaled;
    rune__scenario_asset_root(s, json_object_get(root, "root_motion") != NULL);
    /* times are reported as floats: the last one must fit */
    if (fabs((double)s->dt * (double)(frames > 0 ? frames : 1)) > FLT_MAX)
        return rune_fail(L->err, RUNE_E_INVALID, "dt: %g x %lld frames is beyond float range", (double)s->dt, frames);
    return RUNE_OK;
}

static rune_status finish(json_t *root, json_error_t *jerr, const char *name, unsigned flags,
                          const rune_allocator *alloc, rune_scenario **out, rune_error *err)
{
    *out = NULL;
    if (!root)
        return rune_fail(err, RUNE_E_PARSE, "%s:%d:%d: %s", name, jerr->line, jerr->column, jerr->text);
    alloc = rune__alloc_or_default(alloc);
    scenario_box *box = rune__calloc(alloc, 1, sizeof *box);
    if (!box) {
        json_decref(root);
        return rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", name);
    }
    box->alloc = *alloc;
    rune__arena_init(&box->arena, alloc);
    box->scenario.warnings = box->warnings;
    loader L = {&box->arena, err, false};
    rune_status st = RUNE_OK;
    if (!(box->scenario.file = rune__arena_strdup(&box->arena, name)))
        st = nomem(&L);
    if (!st)
        st = load_document(&L, root, &box->scenario);
    if (!st)
        st = rune__scenario_check_keys(root, &box->scenario, &box->arena, flags & RUNE_SCENARIO_STRICT, err);
    json_decref(root);
    if (st) {
        rune_error_prefix(err, "%s: ", name);
        rune_scenario_destroy(&box->scenario);
        return st;
    }
    *out = &box->scenario;
    return RUNE_OK;
}

rune_status rune_scenario_load_file(const char *path, const rune_allocator *alloc, rune_scenario **out,
                                    rune_error *err)
{
    RUNE_REQUIRE(err, path, "path");
    RUNE_REQUIRE(err, out, "out");
    json_error_t jerr;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *out = NULL;
        return rune_fail(err, RUNE_E_IO, "%s: cannot open file", path);
    }
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
    fclose(f);
    return finish(root, &jerr, path, 0, alloc, out, err);
}

rune_status rune_scenario_load_string(const char *text, size_t length, const char *name, unsigned flags,
                                      const rune_allocator *alloc, rune_scenario **out, rune_error *err)
{
    RUNE_REQUIRE(err, text, "text");
    RUNE_REQUIRE(err, out, "out");
    json_error_t jerr;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &jerr);
    return finish(root, &jerr, name ? name : "<memory>", flags, alloc, out, err);
}

void rune_scenario_destroy(rune_scenario *s)
{
    if (!s)
        return;
    scenario_box *box = (scenario_box *)s;
    rune_allocator a = box->alloc;
    rune__scenario_free_assets(s);
    rune__arena_release(&box->arena);
    rune__free(&a, box, 1, sizeof *box);
}
