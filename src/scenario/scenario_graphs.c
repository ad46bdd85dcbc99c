/* Scenario graphs: "graphs": [...] -> graph descriptions with every state,
 * parameter and clip name compiled to an index (joint names of masks are
 * kept for the run, which knows the rig). */
#include "scenario_internal.h"
#include "json_read.h"

#include <stdio.h>
#include <string.h>

typedef struct gl {
    rune__arena *arena;
    rune_error *err;
    rune_scenario *s;
    rune_scenario_graph *g;
    const char *sync_names[64];
    size_t sync_count;
} gl;

static rune_status nomem(gl *G) { return rune_fail(G->err, RUNE_E_NOMEM, "out of memory"); }

int32_t rune__scenario_motion_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->motion_count; i++)
        if (strcmp(s->motions[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

/* Declared parameter of this graph with that name; -1 if undeclared. */
static int32_t declared(const rune_scenario_graph *g, const rune_scenario *s, const char *name)
{
    for (size_t i = 0; i < g->declared_count; i++)
        if (strcmp(s->params[g->declared[i]], name) == 0)
            return (int32_t)i;
    return -1;
}

static rune_status load_params(gl *G, json_t *graph, const char *path)
{
    json_t *ps;
    rune_status st = jr_array(graph, "params", path, false, &ps, G->err);
    if (st || !ps)
        return st;
    size_t n = json_array_size(ps);
    G->g->declared = rune__arena_array(G->arena, n, sizeof *G->g->declared);
    G->g->declared_desc = rune__arena_array(G->arena, n, sizeof *G->g->declared_desc);
    if (!G->g->declared || !G->g->declared_desc)
        return nomem(G);
    static const char *const types[] = {"float", "int", "bool", "trigger"};
    for (size_t i = 0; i < n; i++) {
        char p[JR_PATH_MAX];
        snprintf(p, sizeof p, "%s.params[%zu]", path, i);
        json_t *j = json_array_get(ps, i);
        const char *name, *type;
        if ((st = jr_object(j, p, G->err)) || (st = jr_string(j, "name", p, true, NULL, G->arena, &name, G->err)) ||
            (st = jr_string(j, "type", p, false, "float", G->arena, &type, G->err)))
            return st;
        if (declared(G->g, G->s, name) >= 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s.name: \"%s\" is declared twice", p, name);
        int t = -1;
        for (int k = 0; k < 4; k++)
            if (strcmp(type, types[k]) == 0)
                t = k;
        if (t < 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s.type: unknown type \"%s\" (float, int, bool, trigger)", p, type);
        rune_param_desc *d = &G->g->declared_desc[i];
        d->type = (rune_param_type)t;
        if ((st = jr_param_value(j, "value", p, false, t == RUNE_PARAM_BOOL || t == RUNE_PARAM_TRIGGER, 0.0f,
                                 &d->initial, G->err)))
            return st;
        if ((st = rune__scenario_param(G->s, G->arena, name, &G->g->declared[i], G->err)))
            return st;
        G->g->declared_count = i + 1;
    }
    return RUNE_OK;
}

static int32_t state_index(const rune_scenario_layer *l, const char *name)
{
    for (size_t i = 0; i < l->state_count; i++)
        if (strcmp(l->states[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

static rune_status load_states(gl *G, json_t *layer, const char *path, rune_scenario_layer *l)
{
    json_t *ss;
    rune_status st = jr_array(layer, "states", path, true, &ss, G->err);
    if (st)
        return st;
    size_t n = json_array_size(ss);
    if (n == 0)
        return rune_fail(G->err, RUNE_E_INVALID, "%s.states: a layer needs at least one state", path);
    l->states = rune__arena_array(G->arena, n, sizeof *l->states);
    if (!l->states)
        return nomem(G);
    for (size_t i = 0; i < n; i++) {
        char p[JR_PATH_MAX], w[JR_PATH_MAX];
        snprintf(p, sizeof p, "%s.states[%zu]", path, i);
        json_t *j = json_array_get(ss, i);
        rune_scenario_state *d = &l->states[i];
        const char *motion, *sync;
        if ((st = jr_object(j, p, G->err)) || (st = jr_string(j, "name", p, true, NULL, G->arena, &d->name, G->err)) ||
            (st = jr_string(j, "motion", p, true, NULL, G->arena, &motion, G->err)) ||
            (st = jr_float(j, "speed", p, false, 1.0f, &d->speed, G->err)) ||
            (st = jr_string(j, "sync", p, false, NULL, G->arena, &sync, G->err)))
            return st;
        if (strcmp(d->name, "any") == 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s.name: \"any\" is reserved for any-state transitions", p);
        l->state_count = i;
        if (state_index(l, d->name) >= 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s.name: \"%s\" is already a state of this layer", p, d->name);
        int32_t ci = rune__scenario_clip_index(G->s, motion), mi = rune__scenario_motion_index(G->s, motion);
        if (ci < 0 && mi < 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s: unknown clip or motion \"%s\"", jr_join(w, p, "motion"),
                             motion);
        d->is_clip = ci >= 0;
        d->index = (uint32_t)(ci >= 0 ? ci : mi);
        d->sync_group = -1;
        if (sync) {
            size_t k = 0;
            while (k < G->sync_count && strcmp(G->sync_names[k], sync) != 0)
                k++;
            if (k == G->sync_count) {
                if (k == 64)
                    return rune_fail(G->err, RUNE_E_INVALID, "%s: more than 64 sync groups", jr_join(w, p, "sync"));
                G->sync_names[G->sync_count++] = sync;
            }
            d->sync_group = (int32_t)k;
        }
        l->state_count = i + 1;
    }
    return RUNE_OK;
}

static rune_status load_condition(gl *G, json_t *j, const char *p, rune_condition_desc *c)
{
    rune_status st;
    const char *param, *op;
    char w[JR_PATH_MAX];
    if ((st = jr_object(j, p, G->err)) || (st = jr_string(j, "param", p, true, NULL, G->arena, &param, G->err)) ||
        (st = jr_string(j, "op", p, false, NULL, G->arena, &op, G->err)))
        return st;
    int32_t d = declared(G->g, G->s, param);
    if (d < 0)
        return rune_fail(G->err, RUNE_E_INVALID, "%s: \"%s\" is not a parameter of this graph",
                         jr_join(w, p, "param"), param);
    c->param = G->g->declared[d];
    rune_param_type type = G->g->declared_desc[d].type;
    if (type == RUNE_PARAM_TRIGGER) {
        if (op || json_object_get(j, "value"))
            return rune_fail(G->err, RUNE_E_INVALID, "%s: a trigger condition takes no op or value", p);
        c->op = RUNE_COND_TRIGGERED;
        c->value = 0.0f;
        return RUNE_OK;
    }
    static const char *const ops[] = {">", ">=", "<", "<=", "==", "!="};
    if (!op && type != RUNE_PARAM_BOOL)
        return rune_fail(G->err, RUNE_E_INVALID, "%s: missing", jr_join(w, p, "op"));
    c->op = RUNE_COND_EQ;
    if (op) {
        int k = 0;
        while (k < 6 && strcmp(op, ops[k]) != 0)
            k++;
        if (k == 6)
            return rune_fail(G->err, RUNE_E_INVALID, "%s: unknown operator \"%s\"", jr_join(w, p, "op"), op);
        c->op = (rune_cond_op)k;
    }
    return jr_param_value(j, "value", p, true, type == RUNE_PARAM_BOOL, 0.0f, &c->value, G->err);
}

static rune_status load_transitions(gl *G, json_t *layer, const char *path, rune_scenario_layer *l)
{
    json_t *ts;
    rune_status st = jr_array(layer, "transitions", path, false, &ts, G->err);
    if (st || !ts)
        return st;
    size_t n = json_array_size(ts);
    l->transitions = rune__arena_array(G->arena, n, sizeof *l->transitions);
    if (!l->transitions)
        return nomem(G);
    for (size_t i = 0; i < n; i++) {
        char p[JR_PATH_MAX], w[JR_PATH_MAX];
        snprintf(p, sizeof p, "%s.transitions[%zu]", path, i);
        json_t *j = json_array_get(ts, i), *cs;
        rune_transition_desc *t = &l->transitions[i];
        const char *from, *to;
        if ((st = jr_object(j, p, G->err)) || (st = jr_string(j, "from", p, true, NULL, G->arena, &from, G->err)) ||
            (st = jr_string(j, "to", p, true, NULL, G->arena, &to, G->err)) ||
            (st = jr_float(j, "duration", p, false, 0.0f, &t->duration, G->err)) ||
            (st = jr_bool(j, "interruptible", p, true, &t->interruptible, G->err)) ||
            (st = jr_blend(j, p, &t->blend, G->err)) ||
            (st = jr_array(j, "conditions", p, false, &cs, G->err)))
            return st;
        t->has_exit_time = json_object_get(j, "exit_time") != NULL;
        if ((st = jr_float(j, "exit_time", p, false, 0.0f, &t->exit_time, G->err)))
            return st;
        if (t->duration < 0.0f || t->exit_time < 0.0f)
            return rune_fail(G->err, RUNE_E_INVALID, "%s: duration and exit_time must be >= 0", p);
        t->from = strcmp(from, "any") == 0 ? -1 : state_index(l, from);
        int32_t ti = state_index(l, to);
        if (t->from == -1 && strcmp(from, "any") != 0)
            t->from = -2;
        if (t->from == -2)
            return rune_fail(G->err, RUNE_E_INVALID, "%s: no state \"%s\" in this layer", jr_join(w, p, "from"), from);
        if (ti < 0)
            return rune_fail(G->err, RUNE_E_INVALID, "%s: no state \"%s\" in this layer", jr_join(w, p, "to"), to);
        t->to = (uint32_t)ti;
        size_t m = cs ? json_array_size(cs) : 0;
        rune_condition_desc *c = rune__arena_array(G->arena, m, sizeof *c);
        if (!c)
            return nomem(G);
        for (size_t k = 0; k < m; k++) {
            char cp[JR_PATH_MAX];
            snprintf(cp, sizeof cp, "%s.conditions[%zu]", p, k);
            if ((st = load_condition(G, json_array_get(cs, k), cp, &c[k])))
                return st;
        }
        t->conditions = c;
        t->condition_count = m;
        l->transition_count = i + 1;
    }
    return RUNE_OK;
}

static rune_status load_mask(gl *G, json_t *layer, const char *path, rune_scenario_layer *l)
{
    json_t *ms;
    rune_status st = jr_array(layer, "mask", path, false, &ms, G->err);
    if (st || !ms)
        return st;
    size_t n = json_array_size(ms);
    l->has_mask = true;
    l->mask = rune__arena_array(G->arena, n, sizeof *l->mask);
    l->mask_joints = rune__arena_array(G->arena, n, sizeof *l->mask_joints);
    if (!l->mask || !l->mask_joints)
        return nomem(G);
    for (size_t i = 0; i < n; i++) {
        char p[JR_PATH_MAX];
        snprintf(p, sizeof p, "%s.mask[%zu]", path, i);
        json_t *j = json_array_get(ms, i);
        if ((st = jr_object(j, p, G->err)) ||
            (st = jr_string(j, "joint", p, true, NULL, G->arena, &l->mask_joints[i], G->err)) ||
            (st = jr_float(j, "weight", p, false, 1.0f, &l->mask[i].weight, G->err)) ||
            (st = jr_bool(j, "propagate", p, false, &l->mask[i].propagate, G->err)))
            return st;
    }
    l->mask_count = n;
    return RUNE_OK;
}

static rune_status load_layer(gl *G, json_t *j, const char *path, rune_scenario_layer *l)
{
    rune_status st;
    const char *blend, *initial;
    char w[JR_PATH_MAX];
    if ((st = jr_object(j, path, G->err)) ||
        (st = jr_string(j, "name", path, false, "", G->arena, &l->name, G->err)) ||
        (st = jr_string(j, "blend", path, false, "override", G->arena, &blend, G->err)) ||
        (st = jr_float(j, "weight", path, false, 1.0f, &l->weight, G->err)) ||
        (st = load_states(G, j, path, l)) ||
        (st = jr_string(j, "initial", path, false, l->states[0].name, G->arena, &initial, G->err)) ||
        (st = load_transitions(G, j, path, l)) || (st = load_mask(G, j, path, l)))
        return st;
    if (strcmp(blend, "override") == 0)
        l->blend = RUNE_LAYER_OVERRIDE;
    else if (strcmp(blend, "additive") == 0)
        l->blend = RUNE_LAYER_ADDITIVE;
    else
        return rune_fail(G->err, RUNE_E_INVALID, "%s: unknown blend \"%s\" (override or additive)",
                         jr_join(w, path, "blend"), blend);
    int32_t init = state_index(l, initial);
    if (init < 0)
        return rune_fail(G->err, RUNE_E_INVALID, "%s: no state \"%s\" in this layer", jr_join(w, path, "initial"),
                         initial);
    l->initial = (uint32_t)init;
    return RUNE_OK;
}

rune_status rune__scenario_load_graphs(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err)
{
    json_t *graphs;
    rune_status st = jr_array(root, "graphs", "", false, &graphs, err);
    if (st || !graphs)
        return st;
    size_t n = json_array_size(graphs);
    s->graphs = rune__arena_array(arena, n, sizeof *s->graphs);
    if (!s->graphs)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "graphs[%zu]", i);
        json_t *j = json_array_get(graphs, i), *layers;
        rune_scenario_graph *g = &s->graphs[i];
        gl G = {arena, err, s, g, {0}, 0};
        if ((st = jr_object(j, path, err)) || (st = jr_string(j, "id", path, true, NULL, arena, &g->id, err)) ||
            (st = jr_priority(j, path, &g->priority, err)) || (st = load_params(&G, j, path)) ||
            (st = jr_array(j, "layers", path, true, &layers, err)))
            return st;
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->graphs[k].id, g->id) == 0)
                return rune_fail(err, RUNE_E_INVALID, "%s.id: \"%s\" is already graphs[%zu]", path, g->id, k);
        size_t nl = json_array_size(layers);
        if (nl == 0)
            return rune_fail(err, RUNE_E_INVALID, "%s.layers: a graph needs at least one layer", path);
        g->layers = rune__arena_array(arena, nl, sizeof *g->layers);
        if (!g->layers)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory");
        for (size_t li = 0; li < nl; li++) {
            char lp[JR_PATH_MAX];
            snprintf(lp, sizeof lp, "%s.layers[%zu]", path, li);
            if ((st = load_layer(&G, json_array_get(layers, li), lp, &g->layers[li])))
                return st;
        }
        g->layer_count = nl;
        s->graph_count = i + 1;
    }
    return RUNE_OK;
}
