/* Graph instances: creation (every player and pose up front), parameters,
 * and read-only views for tools and root motion. */
#include "graph_internal.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"
#include "graph_api_internal.h"

#include <stddef.h>
#include <string.h>

void rune_graph_instance_destroy(rune_graph_instance *inst)
{
    if (!inst)
        return;
    const rune_graph *g = inst->g;
    rune_allocator a = inst->alloc;
    for (size_t i = 0; inst->slots && i < 2 * g->state_count; i++)
        rune_motion_player_destroy(inst->slots[i].player);
    for (size_t li = 0; inst->layers && li < g->layer_count; li++)
        for (size_t k = 0; k < LP_COUNT; k++)
            rune_pose_release(&inst->layers[li].pose[k]); /* one never made is all zero: a no-op */
    rune__free(&a, inst->params, g->param_count, sizeof *inst->params);
    rune__free(&a, inst->slots, 2 * g->state_count, sizeof *inst->slots);
    rune__free(&a, inst->state_loops, g->state_count, sizeof *inst->state_loops);
    rune__free(&a, inst->layers, g->layer_count, sizeof *inst->layers);
    rune__free(&a, inst, 1, sizeof *inst);
}

static void start_layer(rune_graph_instance *inst, size_t li)
{
    const graph_layer *gl = &inst->g->layers[li];
    layer_run *l = &inst->layers[li];
    uint32_t s = gl->first_state + gl->initial_state;
    l->cur = (int32_t)(2 * s);
    l->src = -1;
    l->frozen = l->fading = false;
    l->elapsed = l->duration = 0.0f;
    l->interruptible = true;
    l->route_len = l->route_pos = 0;
    inst->slots[l->cur].live = true;
    l->weight = (rune_fade){gl->weight > 0.0f ? gl->weight : 0.0f, gl->weight > 0.0f ? gl->weight : 0.0f, 0.0f, false};
    for (size_t k = 0; k < LP_COUNT; k++)
        if (l->pose[k].block)
            rune_pose_reset(&l->pose[k]);
}

void rune_graph_instance_reset(rune_graph_instance *inst)
{
    const rune_graph *g = inst->g;
    for (size_t p = 0; p < g->param_count; p++)
        inst->params[p] = g->params[p].initial;
    for (size_t i = 0; i < 2 * g->state_count; i++) {
        inst->slots[i].live = false;
        inst->slots[i].from = 0.0;
        if (inst->slots[i].player)
            rune_motion_player_reset(inst->slots[i].player);
    }
    for (size_t li = 0; li < g->layer_count; li++)
        start_layer(inst, li);
    inst->inertialize = 0.0f;
}

float rune__graph_take_inertialization(rune_graph_instance *inst)
{
    float blend = inst->inertialize;
    inst->inertialize = 0.0f;
    return blend;
}

bool rune__graph_inertializes(const rune_graph *g)
{
    for (size_t t = 0; t < g->transition_count; t++)
        if (g->transitions[t].blend == RUNE_BLEND_INERTIALIZE && g->transitions[t].duration > 0.0f)
            return true;
    return false;
}

const rune_graph *rune_graph_instance_graph(const rune_graph_instance *inst) { return inst->g; }

/* What an instance makes up front is what its graph can use, no more
 * (a crowd's characters each hold one). A state's second play slot is
 * taken only by a transition into the state while it plays: one from
 * itself, or (through a travel route) from any state. A layer's poses
 * are read only while it fades, which takes a transition that lasts;
 * an additive layer also keeps its pose and reference between fades,
 * and only an additive layer has references. */
static bool reentered(const rune_graph *g, const graph_layer *gl, uint32_t state)
{
    for (uint32_t k = 0; k < gl->transition_count; k++) {
        const graph_transition *t = &g->transitions[gl->first_transition + k];
        if (t->to == state && (t->from == -1 || (uint32_t)t->from == state))
            return true;
    }
    return false;
}

static bool layer_fades(const rune_graph *g, size_t li)
{
    const graph_layer *gl = &g->layers[li];
    for (uint32_t k = 0; k < gl->transition_count; k++)
        if (rune__graph_transition_fades(&g->transitions[gl->first_transition + k]))
            return true;
    return false;
}

/* Whether a fade of layer li mixes its sides through poses of their own:
 * an additive layer's do, and so do those of a graph with curves or of a
 * layer playing a clip with scale keys (rune_mix_fade_layer takes
 * neither); the others' are mixed a chunk at a time on the stack, which
 * evaluation does wherever these poses were not made (graph_evaluate.c).
 * Asks the layer's players, made first. */
static bool fade_sides_posed(const rune_graph_instance *inst, size_t li)
{
    const rune_graph *g = inst->g;
    const graph_layer *gl = &g->layers[li];
    if (gl->blend == RUNE_LAYER_ADDITIVE || g->curve_count != 0)
        return true;
    for (uint32_t s = 0; s < gl->state_count; s++) {
        const rune_motion_player *p = inst->slots[2 * (gl->first_state + s)].player;
        for (size_t i = 0; i < rune_motion_player_leaf_count(p); i++)
            if (rune_clip_has_scale(rune_motion_player_leaf_compiled_clip(p, i)))
                return true;
    }
    return false;
}

/* Whether layer li uses pose k: a fading layer its pose and the frozen
 * pose, the two sides' where its fades mix them as poses, an additive
 * layer each one's reference too; a layer that never fades an additive
 * layer's pose and reference alone. */
static bool layer_pose_used(const rune_graph_instance *inst, size_t li, size_t k)
{
    bool additive = inst->g->layers[li].blend == RUNE_LAYER_ADDITIVE;
    if (!layer_fades(inst->g, li))
        return additive && (k == LP_LAST || k == LP_LAST_REF);
    if (k == LP_LAST || k == LP_FROZEN)
        return true;
    if (k == LP_A || k == LP_B)
        return fade_sides_posed(inst, li);
    return additive; /* the references */
}

/* The players of layer li's states: a second one where the state can be
 * reentered; time-0 samplers of their own only on an additive layer
 * (whose plays sample their reference every frame). */
static rune_status make_players(rune_graph_instance *inst, size_t li, const rune_binding *const *bindings,
                                const rune_allocator *alloc, rune_error *err)
{
    const rune_graph *g = inst->g;
    const graph_layer *gl = &g->layers[li];
    rune_status st = RUNE_OK;
    for (uint32_t s = 0; !st && s < gl->state_count; s++) {
        const rune_motion *m = g->states[gl->first_state + s].motion;
        for (uint32_t k = 0; !st && k < (reentered(g, gl, s) ? 2u : 1u); k++) {
            rune_motion_player **p = &inst->slots[2 * (gl->first_state + s) + k].player;
            st = gl->blend == RUNE_LAYER_ADDITIVE ? rune_motion_player_create(m, bindings, alloc, p, err)
                                                  : rune_motion_player_create_live(m, bindings, alloc, p, err);
        }
    }
    return st;
}

rune_status rune_graph_instance_create(const rune_graph *g, const rune_binding *const *bindings,
                                       const rune_allocator *alloc, rune_graph_instance **out, rune_error *err)
{
    RUNE_REQUIRE(err, g, "graph");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_graph_instance *inst = rune__calloc(alloc, 1, sizeof *inst);
    if (!inst)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a graph instance");
    inst->alloc = *alloc;
    inst->g = g;
    inst->params = rune__calloc(alloc, g->param_count, sizeof *inst->params);
    inst->slots = rune__calloc(alloc, 2 * g->state_count, sizeof *inst->slots);
    inst->state_loops = rune__calloc(alloc, g->state_count, sizeof *inst->state_loops);
    inst->layers = rune__calloc(alloc, g->layer_count, sizeof *inst->layers);
    rune_status st = RUNE_OK;
    if (!inst->params || !inst->slots || !inst->state_loops || !inst->layers)
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory creating a graph instance");
    for (size_t i = 0; !st && i < 2 * g->state_count; i++)
        inst->slots[i].state = (uint32_t)(i / 2);
    for (size_t li = 0; !st && li < g->layer_count; li++)
        st = make_players(inst, li, bindings, alloc, err);
    for (size_t li = 0; !st && li < g->layer_count; li++)
        for (size_t k = 0; !st && k < LP_COUNT; k++)
            if (layer_pose_used(inst, li, k))
                st = rune_pose_init_curves(&inst->layers[li].pose[k], g->joint_count, g->curve_count, alloc, err);
    if (st) {
        rune_graph_instance_destroy(inst);
        return st;
    }
    inst->pose_stride = rune_pose_stride(g->joint_count);
    for (size_t s = 0; s < g->state_count; s++)
        inst->state_loops[s] = rune_motion_player_loops(inst->slots[2 * s].player);
    rune_graph_instance_reset(inst);
    *out = inst;
    return RUNE_OK;
}

void rune_graph_set_param(rune_graph_instance *inst, uint32_t p, float value)
{
    if (p >= inst->g->param_count || !isfinite(value))
        return;
    rune_param_type type = inst->g->params[p].type;
    if (type == RUNE_PARAM_BOOL || type == RUNE_PARAM_TRIGGER)
        value = value != 0.0f ? 1.0f : 0.0f;
    else if (type == RUNE_PARAM_INT)
        value = truncf(value);
    inst->params[p] = value;
}

float rune_graph_param(const rune_graph_instance *inst, uint32_t p)
{
    return p < inst->g->param_count ? inst->params[p] : 0.0f;
}

void rune_graph_trigger(rune_graph_instance *inst, uint32_t p)
{
    if (p < inst->g->param_count)
        inst->params[p] = 1.0f;
}

float rune__graph_alpha(const layer_run *l)
{
    if (!l->fading || !(l->duration > 0.0f))
        return 1.0f;
    float a = l->elapsed / l->duration;
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

uint32_t rune_graph_current_state(const rune_graph_instance *inst, uint32_t layer)
{
    return inst->slots[inst->layers[layer].cur].state - inst->g->layers[layer].first_state;
}

double rune_graph_state_progress(const rune_graph_instance *inst, uint32_t layer)
{
    return rune_motion_player_progress(inst->slots[inst->layers[layer].cur].player);
}

bool rune_graph_in_transition(const rune_graph_instance *inst, uint32_t layer)
{
    return inst->layers[layer].fading;
}

void rune_graph_fade_layer(rune_graph_instance *inst, uint32_t layer, float weight, float fade)
{
    if (layer < inst->g->layer_count)
        rune_fade_to(&inst->layers[layer].weight, weight, fade);
}

rune_graph_layer_view rune_graph_layer_view_of(const rune_graph_instance *inst, uint32_t layer)
{
    if (layer >= inst->g->layer_count)
        return (rune_graph_layer_view){0};
    const layer_run *l = &inst->layers[layer];
    uint32_t first = inst->g->layers[layer].first_state;
    rune_graph_layer_view v = {inst->slots[l->cur].state - first, -1, rune__graph_alpha(l), l->fading && l->frozen,
                               l->weight.weight};
    if (l->fading && !l->frozen && l->src >= 0)
        v.from_state = (int32_t)(inst->slots[l->src].state - first);
    return v;
}

size_t rune_graph_layer_plays(const rune_graph_instance *inst, uint32_t layer, rune_graph_play_view *out)
{
    const layer_run *l = &inst->layers[layer];
    float a = rune__graph_alpha(l);
    size_t n = 0;
    const play_slot *c = &inst->slots[l->cur];
    out[n++] = (rune_graph_play_view){c->player, a, c->from, rune_motion_player_progress(c->player)};
    if (l->fading && !l->frozen && l->src >= 0) {
        const play_slot *s = &inst->slots[l->src];
        out[n++] = (rune_graph_play_view){s->player, 1.0f - a, s->from, rune_motion_player_progress(s->player)};
    }
    return n;
}

/* The poses evaluating layer li writes or reads (graph_evaluate.c): its
 * pose (and an additive layer's reference); during a fade the two sides
 * (and references) where the layer has poses for them (fade_sides_posed),
 * and the frozen pose a frozen source reads; none for a steady layer.
 * Stage 2 asks for their structs, stage 3 for their lanes. */
static void prefetch_layer_poses(const rune_graph_instance *inst, size_t li, int stage)
{
    if (rune__graph_layer_steady(inst, li))
        return;
    const layer_run *l = &inst->layers[li];
    bool additive = inst->g->layers[li].blend == RUNE_LAYER_ADDITIVE;
    enum layer_pose which[LP_COUNT];
    size_t n = 0;
    which[n++] = LP_LAST;
    if (additive)
        which[n++] = LP_LAST_REF;
    if (l->fading && l->pose[LP_A].block) { /* else its fades mix the sides on the stack */
        which[n++] = LP_A, which[n++] = LP_B;
        if (additive)
            which[n++] = LP_REF_A, which[n++] = LP_REF_B;
    }
    if (l->fading && l->frozen) {
        which[n++] = LP_FROZEN;
        if (additive)
            which[n++] = LP_FROZEN_REF;
    }
    for (size_t k = 0; k < n; k++) {
        if (stage == 2)
            rune__prefetch_range(&l->pose[which[k]], sizeof l->pose[0], false);
        else
            rune_pose_prefetch(&l->pose[which[k]], true);
    }
}

void rune_graph_instance_prefetch(const rune_graph_instance *inst, int stage)
{
    const rune_graph *g = inst->g;
    if (stage == 0) {
        rune__prefetch_range(inst, sizeof *inst, false);
        return;
    }
    if (stage == 1) { /* the layers' state, not their routes or poses' structs */
        for (size_t li = 0; li < g->layer_count; li++)
            rune__prefetch_range(&inst->layers[li], offsetof(layer_run, route), true);
        rune__prefetch_range(inst->slots, 2 * g->state_count * sizeof *inst->slots, true);
        rune__prefetch_range(inst->params, g->param_count * sizeof *inst->params, false);
        return;
    }
    for (size_t li = 0; li < g->layer_count; li++) {
        const layer_run *l = &inst->layers[li];
        if (stage == 2 || stage == 3)
            prefetch_layer_poses(inst, li, stage);
        if (stage == 2 && l->route_pos < l->route_len) /* on a travel route: its next step */
            rune__prefetch_range(&l->route[l->route_pos], sizeof l->route[0], false);
        int32_t playing[2] = {l->cur, l->fading && !l->frozen ? l->src : -1};
        for (int k = 0; k < 2; k++)
            if (playing[k] >= 0)
                rune_motion_player_prefetch(inst->slots[playing[k]].player, stage - 2);
    }
}
