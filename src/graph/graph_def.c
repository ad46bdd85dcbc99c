/* Graph definitions: validation and compilation (indexes only; masks
 * resolved against the rig). */
#include "graph_internal.h"
#include "../base/alloc.h"
#include "../base/names.h"
#include "../base/require.h"
#include "graph_api_internal.h"

#include <string.h>

static rune_status check_transition(const rune_graph_desc *d, size_t li, size_t ti, rune_error *err)
{
    const rune_layer_desc *l = &d->layers[li];
    const rune_transition_desc *t = &l->transitions[ti];
    if (t->from < -1 || (t->from >= 0 && (size_t)t->from >= l->state_count))
        return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].from: state %d out of range", li, ti, t->from);
    if (t->to >= l->state_count)
        return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].to: state %u out of range", li, ti, t->to);
    if (!isfinite(t->duration) || t->duration < 0.0f)
        return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].duration: must be finite and >= 0", li, ti);
    if ((unsigned)t->blend > RUNE_BLEND_INERTIALIZE)
        return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].blend: unknown blend mode %d", li, ti,
                         (int)t->blend);
    if (t->has_exit_time && (!isfinite(t->exit_time) || t->exit_time < 0.0f))
        return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].exit_time: must be finite and >= 0", li, ti);
    for (size_t k = 0; k < t->condition_count; k++) {
        const rune_condition_desc *c = &t->conditions[k];
        if (c->param >= d->param_count)
            return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].conditions[%zu].param: out of range",
                             li, ti, k);
        bool trig = d->params[c->param].type == RUNE_PARAM_TRIGGER;
        if ((unsigned)c->op > RUNE_COND_TRIGGERED || trig != (c->op == RUNE_COND_TRIGGERED))
            return rune_fail(err, RUNE_E_INVALID,
                             "layers[%zu].transitions[%zu].conditions[%zu]: %s", li, ti, k,
                             trig ? "a trigger is tested only by being set" : "only triggers can be tested as set");
        if (!isfinite(c->value))
            return rune_fail(err, RUNE_E_INVALID, "layers[%zu].transitions[%zu].conditions[%zu].value: not finite",
                             li, ti, k);
    }
    return RUNE_OK;
}

static rune_status validate(const rune_graph_desc *d, const rune_rig *rig, rune_error *err)
{
    if (d->layer_count == 0)
        return rune_fail(err, RUNE_E_INVALID, "layers: a graph needs at least one layer");
    for (size_t p = 0; p < d->param_count; p++)
        if (!isfinite(d->params[p].initial) || (unsigned)d->params[p].type > RUNE_PARAM_TRIGGER)
            return rune_fail(err, RUNE_E_INVALID, "params[%zu]: bad type or initial value", p);
    for (size_t li = 0; li < d->layer_count; li++) {
        const rune_layer_desc *l = &d->layers[li];
        if (l->state_count == 0)
            return rune_fail(err, RUNE_E_INVALID, "layers[%zu].states: a layer needs at least one state", li);
        if (l->initial_state >= l->state_count)
            return rune_fail(err, RUNE_E_INVALID, "layers[%zu].initial: state %u out of range", li, l->initial_state);
        if (!isfinite(l->weight))
            return rune_fail(err, RUNE_E_INVALID, "layers[%zu].weight: not finite", li);
        for (size_t si = 0; si < l->state_count; si++) {
            const rune_state_desc *s = &l->states[si];
            if (!s->motion)
                return rune_fail(err, RUNE_E_INVALID, "layers[%zu].states[%zu].motion: missing", li, si);
            if (rune_motion_param_count(s->motion) > d->param_count)
                return rune_fail(err, RUNE_E_INVALID, "layers[%zu].states[%zu].motion: uses parameters the graph lacks",
                                 li, si);
            if (!isfinite(s->speed) || s->sync_group < -1)
                return rune_fail(err, RUNE_E_INVALID, "layers[%zu].states[%zu]: bad speed or sync group", li, si);
        }
        for (size_t ti = 0; ti < l->transition_count; ti++) {
            rune_status st = check_transition(d, li, ti, err);
            if (st)
                return st;
        }
        for (size_t m = 0; l->mask && m < l->mask_count; m++)
            if (l->mask[m].joint < 0 || (size_t)l->mask[m].joint >= rune_rig_joint_count(rig) ||
                !isfinite(l->mask[m].weight))
                return rune_fail(err, RUNE_E_INVALID, "layers[%zu].mask[%zu]: bad joint or weight", li, m);
    }
    return RUNE_OK;
}

/* Copies a name (NULL stays NULL); false when out of memory. */
static bool copy_name(const rune_allocator *a, const char *name, char **out)
{
    *out = name ? rune__strdup(a, name) : NULL;
    return !name || *out;
}

/* The names of parameters, layers and states, when the description has
 * them; true when out of memory. */
static bool copy_names(rune_graph *g, const rune_graph_desc *d)
{
    g->param_names = rune__calloc(&g->alloc, g->param_count, sizeof *g->param_names);
    g->layer_names = rune__calloc(&g->alloc, g->layer_count, sizeof *g->layer_names);
    g->state_names = rune__calloc(&g->alloc, g->state_count, sizeof *g->state_names);
    if (!g->param_names || !g->layer_names || !g->state_names)
        return true;
    for (size_t p = 0; d->param_names && p < d->param_count; p++)
        if (!copy_name(&g->alloc, d->param_names[p], &g->param_names[p]))
            return true;
    size_t s = 0;
    for (size_t li = 0; li < d->layer_count; li++) {
        if (!copy_name(&g->alloc, d->layers[li].name, &g->layer_names[li]))
            return true;
        for (size_t si = 0; si < d->layers[li].state_count; si++, s++)
            if (!copy_name(&g->alloc, d->layers[li].states[si].name, &g->state_names[s]))
                return true;
    }
    return false;
}

static void free_names(const rune_allocator *a, char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        rune__strfree(a, names[i]);
    rune__free(a, names, n, sizeof *names);
}

/* The distinct sync groups of the states, so that each frame's sync visits
 * its groups without scanning the states for them. */
static void list_sync_groups(rune_graph *g)
{
    for (size_t si = 0; si < g->state_count; si++) {
        int32_t group = g->states[si].sync_group;
        bool listed = group < 0;
        for (size_t k = 0; !listed && k < g->sync_group_count; k++)
            listed = g->sync_groups[k] == group;
        if (!listed)
            g->sync_groups[g->sync_group_count++] = group;
    }
}

rune_status rune_graph_create(const rune_graph_desc *d, const rune_rig *rig, const rune_allocator *alloc,
                              rune_graph **out, rune_error *err)
{
    RUNE_REQUIRE(err, d, "desc");
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_status st = validate(d, rig, err);
    if (st)
        return st;
    rune_graph *g = rune__calloc(alloc, 1, sizeof *g);
    if (!g)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a graph");
    g->alloc = *alloc;
    g->joint_count = rune_rig_joint_count(rig);
    g->curve_count = rune_rig_curve_count(rig);
    g->param_count = d->param_count;
    g->layer_count = d->layer_count;
    for (size_t li = 0; li < d->layer_count; li++) {
        g->state_count += d->layers[li].state_count;
        g->transition_count += d->layers[li].transition_count;
        for (size_t ti = 0; ti < d->layers[li].transition_count; ti++)
            g->condition_count += d->layers[li].transitions[ti].condition_count;
    }
    g->params = rune__calloc(alloc, g->param_count, sizeof *g->params);
    g->layers = rune__calloc(alloc, g->layer_count, sizeof *g->layers);
    g->states = rune__calloc(alloc, g->state_count, sizeof *g->states);
    g->transitions = rune__calloc(alloc, g->transition_count, sizeof *g->transitions);
    g->conditions = rune__calloc(alloc, g->condition_count, sizeof *g->conditions);
    g->masks = rune__calloc(alloc, g->layer_count * (g->joint_count ? g->joint_count : 1), sizeof *g->masks);
    g->sync_groups = rune__calloc(alloc, g->state_count, sizeof *g->sync_groups);
    if (!g->params || !g->layers || !g->states || !g->transitions || !g->conditions || !g->masks ||
        !g->sync_groups) {
        rune_graph_destroy(g);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a graph");
    }
    if (d->param_count)
        memcpy(g->params, d->params, d->param_count * sizeof *g->params);
    if (copy_names(g, d)) {
        rune_graph_destroy(g);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a graph");
    }
    uint32_t s = 0, t = 0, c = 0;
    for (size_t li = 0; li < d->layer_count; li++) {
        const rune_layer_desc *ld = &d->layers[li];
        graph_layer *gl = &g->layers[li];
        gl->blend = ld->blend;
        gl->weight = ld->weight;
        gl->first_state = s;
        gl->state_count = (uint32_t)ld->state_count;
        gl->initial_state = ld->initial_state;
        gl->first_transition = t;
        gl->transition_count = (uint32_t)ld->transition_count;
        gl->mask = &g->masks[li * g->joint_count];
        if (ld->mask)
            rune_mask_resolve(rig, ld->mask, ld->mask_count, gl->mask);
        else
            for (size_t j = 0; j < g->joint_count; j++)
                gl->mask[j] = 1.0f;
        for (size_t si = 0; si < ld->state_count; si++)
            g->states[s++] = ld->states[si];
        for (size_t ti = 0; ti < ld->transition_count; ti++) {
            const rune_transition_desc *td = &ld->transitions[ti];
            graph_transition *gt = &g->transitions[t++];
            gt->from = td->from;
            gt->to = td->to;
            gt->duration = td->duration;
            gt->has_exit_time = td->has_exit_time;
            gt->exit_time = td->exit_time;
            gt->interruptible = td->interruptible;
            gt->blend = td->blend;
            gt->first_condition = c;
            gt->condition_count = (uint32_t)td->condition_count;
            for (size_t k = 0; k < td->condition_count; k++)
                g->conditions[c++] = td->conditions[k];
        }
    }
    list_sync_groups(g);
    *out = g;
    return RUNE_OK;
}

void rune_graph_destroy(rune_graph *g)
{
    if (!g)
        return;
    rune_allocator a = g->alloc;
    rune__free(&a, g->params, g->param_count, sizeof *g->params);
    rune__free(&a, g->layers, g->layer_count, sizeof *g->layers);
    rune__free(&a, g->states, g->state_count, sizeof *g->states);
    rune__free(&a, g->transitions, g->transition_count, sizeof *g->transitions);
    rune__free(&a, g->conditions, g->condition_count, sizeof *g->conditions);
    rune__free(&a, g->masks, g->layer_count * (g->joint_count ? g->joint_count : 1), sizeof *g->masks);
    rune__free(&a, g->sync_groups, g->state_count, sizeof *g->sync_groups);
    free_names(&a, g->param_names, g->param_count);
    free_names(&a, g->layer_names, g->layer_count);
    free_names(&a, g->state_names, g->state_count);
    rune__free(&a, g, 1, sizeof *g);
}

size_t rune_graph_layer_count(const rune_graph *g) { return g->layer_count; }
size_t rune_graph_param_count(const rune_graph *g) { return g->param_count; }

size_t rune_graph_state_count(const rune_graph *g, uint32_t layer)
{
    return layer < g->layer_count ? g->layers[layer].state_count : 0;
}

static const char *name_or_empty(char *const *names, size_t n, size_t i)
{
    return names && i < n && names[i] ? names[i] : "";
}

const char *rune_graph_param_name(const rune_graph *g, uint32_t p)
{
    return name_or_empty(g->param_names, g->param_count, p);
}

const char *rune_graph_layer_name(const rune_graph *g, uint32_t l)
{
    return name_or_empty(g->layer_names, g->layer_count, l);
}

const char *rune_graph_state_name(const rune_graph *g, uint32_t l, uint32_t s)
{
    if (l >= g->layer_count || s >= g->layers[l].state_count)
        return "";
    return name_or_empty(g->state_names, g->state_count, g->layers[l].first_state + s);
}

rune_param_type rune_graph_param_type(const rune_graph *g, uint32_t p)
{
    return p < g->param_count ? g->params[p].type : RUNE_PARAM_FLOAT;
}

/* Index of `name` among names[0..n), or a NOT_FOUND error naming `what`. */
static rune_status find(char *const *names, size_t n, const char *name, const char *what, uint32_t *out,
                        rune_error *err)
{
    for (size_t i = 0; name && i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) {
            *out = (uint32_t)i;
            return RUNE_OK;
        }
    char hint[RUNE_NAME_SUGGEST_MAX + 32];
    return rune_fail(err, RUNE_E_NOT_FOUND, "no %s \"%s\" in the graph%s", what, name ? name : "",
                     rune__did_you_mean(hint, sizeof hint, name, (const char *const *)names, n));
}

rune_status rune_graph_find_param(const rune_graph *g, const char *name, uint32_t *param, rune_error *err)
{
    RUNE_REQUIRE(err, g, "graph");
    RUNE_REQUIRE(err, param, "param");
    return find(g->param_names, g->param_count, name, "parameter", param, err);
}

rune_status rune_graph_find_layer(const rune_graph *g, const char *name, uint32_t *layer, rune_error *err)
{
    RUNE_REQUIRE(err, g, "graph");
    RUNE_REQUIRE(err, layer, "layer");
    return find(g->layer_names, g->layer_count, name, "layer", layer, err);
}

rune_status rune_graph_find_state(const rune_graph *g, uint32_t layer, const char *name, uint32_t *state,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, g, "graph");
    RUNE_REQUIRE(err, state, "state");
    if (layer >= g->layer_count)
        return rune_fail(err, RUNE_E_NOT_FOUND, "no layer %u in the graph", layer);
    const graph_layer *gl = &g->layers[layer];
    return find(g->state_names + gl->first_state, gl->state_count, name, "state", state, err);
}
