/* Scenario motions: "motions": [...] -> flattened motion-node descriptions.
 * Nested motions are copied into the referring motion's node list, so each
 * compiled motion is self-contained; a reference cycle is an error. */
#include "scenario_internal.h"
#include "json_read.h"

#include <stdio.h>
#include <string.h>

typedef struct flat {
    rune__arena *arena;
    rune_error *err;
    rune_scenario *s;
    json_t *motions;       /* the document's array */
    bool *visiting;        /* per motion: on the current reference path */
    rune_motion_node_desc *nodes;
    size_t count;
} flat;

static rune_status nomem(flat *F) { return rune_fail(F->err, RUNE_E_NOMEM, "out of memory"); }

int32_t rune__scenario_clip_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->clip_count; i++)
        if (strcmp(s->clips[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

static int32_t motion_index(json_t *motions, const char *id)
{
    size_t i;
    json_t *m;
    json_array_foreach(motions, i, m) {
        const char *mid = json_string_value(json_object_get(m, "id"));
        if (mid && strcmp(mid, id) == 0)
            return (int32_t)i;
    }
    return -1;
}

rune_status rune__scenario_param(rune_scenario *s, rune__arena *arena, const char *name, uint32_t *out,
                                 rune_error *err)
{
    for (size_t i = 0; i < s->param_count; i++)
        if (strcmp(s->params[i], name) == 0) {
            *out = (uint32_t)i;
            return RUNE_OK;
        }
    if (s->param_count >= RUNE_SCENARIO_MAX_PARAMS)
        return rune_fail(err, RUNE_E_INVALID, "more than %d parameter names", RUNE_SCENARIO_MAX_PARAMS);
    if (!s->params && !(s->params = rune__arena_array(arena, RUNE_SCENARIO_MAX_PARAMS, sizeof *s->params)))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    if (!(s->params[s->param_count] = rune__arena_strdup(arena, name)))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    *out = (uint32_t)s->param_count++;
    return RUNE_OK;
}

static rune_status read_param(flat *F, json_t *m, const char *key, const char *path, uint32_t *out)
{
    const char *name;
    rune_status st = jr_string(m, key, path, true, NULL, F->arena, &name, F->err);
    return st ? st : rune__scenario_param(F->s, F->arena, name, out, F->err);
}

static rune_status emit(flat *F, int32_t mi, int32_t *node_out);

static rune_status read_sample(flat *F, json_t *j, const char *path, rune_motion_kind kind,
                               rune_motion_sample_desc *d)
{
    rune_status st;
    const char *clip = NULL, *motion = NULL;
    d->child = -1;
    if ((st = jr_object(j, path, F->err)) || (st = jr_string(j, "clip", path, false, NULL, F->arena, &clip, F->err)) ||
        (st = jr_string(j, "motion", path, false, NULL, F->arena, &motion, F->err)) ||
        (st = jr_float(j, "speed", path, false, 1.0f, &d->speed, F->err)))
        return st;
    if (!clip == !motion)
        return rune_fail(F->err, RUNE_E_INVALID, "%s: give exactly one of \"clip\" and \"motion\"", path);
    if (kind == RUNE_MOTION_BLEND1D &&
        (st = jr_float(j, "threshold", path, true, 0.0f, &d->threshold, F->err)))
        return st;
    if (kind == RUNE_MOTION_BLEND2D && (st = jr_vec2(j, "position", path, &d->position, F->err)))
        return st;
    char where[JR_PATH_MAX];
    if (clip) {
        int32_t ci = rune__scenario_clip_index(F->s, clip);
        if (ci < 0)
            return rune_fail(F->err, RUNE_E_INVALID, "%s: unknown clip \"%s\"", jr_join(where, path, "clip"), clip);
        d->clip = (uint32_t)ci;
        return RUNE_OK;
    }
    int32_t mi = motion_index(F->motions, motion);
    if (mi < 0)
        return rune_fail(F->err, RUNE_E_INVALID, "%s: unknown motion \"%s\"", jr_join(where, path, "motion"), motion);
    if (F->visiting[mi])
        return rune_fail(F->err, RUNE_E_INVALID, "%s: \"%s\" refers back to itself (a cycle)",
                         jr_join(where, path, "motion"), motion);
    return emit(F, mi, &d->child);
}

/* Appends motion mi (and, after it, its nested motions) to F->nodes. */
static rune_status emit(flat *F, int32_t mi, int32_t *node_out)
{
    char path[JR_PATH_MAX];
    snprintf(path, sizeof path, "motions[%d]", mi);
    json_t *m = json_array_get(F->motions, (size_t)mi), *samples;
    if (F->count >= RUNE_MOTION_MAX_LEAVES)
        return rune_fail(F->err, RUNE_E_INVALID, "%s: nesting expands past %d nodes", path, RUNE_MOTION_MAX_LEAVES);
    int32_t me = (int32_t)F->count++;
    rune_motion_node_desc *d = &F->nodes[me];
    const char *type, *mode;
    rune_status st;
    if ((st = jr_string(m, "type", path, true, NULL, F->arena, &type, F->err)) ||
        (st = jr_string(m, "mode", path, false, "cartesian", F->arena, &mode, F->err)) ||
        (st = jr_array(m, "samples", path, true, &samples, F->err)))
        return st;
    char where[JR_PATH_MAX];
    if (strcmp(type, "blend1d") == 0)
        d->kind = RUNE_MOTION_BLEND1D;
    else if (strcmp(type, "blend2d") == 0)
        d->kind = RUNE_MOTION_BLEND2D;
    else if (strcmp(type, "clip") == 0)
        d->kind = RUNE_MOTION_CLIP;
    else
        return rune_fail(F->err, RUNE_E_INVALID, "%s: unknown type \"%s\" (blend1d, blend2d or clip)",
                         jr_join(where, path, "type"), type);
    if (strcmp(mode, "cartesian") == 0)
        d->mode = RUNE_BLEND2D_CARTESIAN;
    else if (strcmp(mode, "directional") == 0)
        d->mode = RUNE_BLEND2D_DIRECTIONAL;
    else
        return rune_fail(F->err, RUNE_E_INVALID, "%s: unknown mode \"%s\" (cartesian or directional)",
                         jr_join(where, path, "mode"), mode);
    if (d->kind == RUNE_MOTION_BLEND1D && (st = read_param(F, m, "param", path, &d->param_x)))
        return st;
    if (d->kind == RUNE_MOTION_BLEND2D) {
        json_t *ps = json_object_get(m, "params");
        if (!ps || !json_is_array(ps) || json_array_size(ps) != 2 || !json_is_string(json_array_get(ps, 0)) ||
            !json_is_string(json_array_get(ps, 1)))
            return rune_fail(F->err, RUNE_E_INVALID, "%s: expected two parameter names", jr_join(where, path, "params"));
        if ((st = rune__scenario_param(F->s, F->arena, json_string_value(json_array_get(ps, 0)), &d->param_x, F->err)) ||
            (st = rune__scenario_param(F->s, F->arena, json_string_value(json_array_get(ps, 1)), &d->param_y, F->err)))
            return st;
    }
    size_t n = json_array_size(samples);
    if (n == 0 || n > RUNE_MOTION_MAX_SAMPLES || (d->kind == RUNE_MOTION_CLIP && n != 1))
        return rune_fail(F->err, RUNE_E_INVALID, "%s: %s", jr_join(where, path, "samples"),
                         d->kind == RUNE_MOTION_CLIP ? "a clip motion has exactly one sample"
                                                     : "expected 1 to 64 samples");
    rune_motion_sample_desc *sd = rune__arena_array(F->arena, n, sizeof *sd);
    if (!sd)
        return nomem(F);
    d->samples = sd;
    d->sample_count = n;
    F->visiting[mi] = true;
    for (size_t k = 0; k < n; k++) {
        char sp[JR_PATH_MAX];
        snprintf(sp, sizeof sp, "%s.samples[%zu]", path, k);
        if ((st = read_sample(F, json_array_get(samples, k), sp, d->kind, &sd[k])))
            return st;
    }
    F->visiting[mi] = false;
    *node_out = me;
    return RUNE_OK;
}

rune_status rune__scenario_load_motions(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err)
{
    json_t *motions;
    rune_status st = jr_array(root, "motions", "", false, &motions, err);
    if (st || !motions)
        return st;
    size_t n = json_array_size(motions);
    s->motions = rune__arena_array(arena, n, sizeof *s->motions);
    flat F = {arena, err, s, motions, rune__arena_array(arena, n, sizeof(bool)), NULL, 0};
    if (!s->motions || !F.visiting)
        return nomem(&F);
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "motions[%zu]", i);
        json_t *m = json_array_get(motions, i);
        rune_scenario_motion *sm = &s->motions[i];
        if ((st = jr_object(m, path, err)) || (st = jr_string(m, "id", path, true, NULL, arena, &sm->id, err)))
            return st;
        if (rune__scenario_clip_index(s, sm->id) >= 0 || motion_index(motions, sm->id) != (int32_t)i)
            return rune_fail(err, RUNE_E_INVALID, "%s.id: \"%s\" is already the id of a clip or motion", path, sm->id);
    }
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "motions[%zu]", i);
        rune_scenario_motion *sm = &s->motions[i];
        json_t *m = json_array_get(motions, i);
        if ((st = jr_priority(m, path, &sm->priority, err)))
            return st;
        F.nodes = rune__arena_array(arena, RUNE_MOTION_MAX_LEAVES, sizeof *F.nodes);
        if (!F.nodes)
            return nomem(&F);
        F.count = 0;
        memset(F.visiting, 0, n * sizeof *F.visiting);
        int32_t root_node;
        if ((st = emit(&F, (int32_t)i, &root_node)))
            return st;
        sm->nodes = F.nodes;
        sm->node_count = F.count;
    }
    s->motion_count = n;
    return RUNE_OK;
}
