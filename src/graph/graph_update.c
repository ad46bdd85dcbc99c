/* The graph update: advance plays, fades and timers; sync; then select at
 * most one transition per layer (a queued travel route first, else
 * any-state transitions, then the current state's, in definition order). */
#include "graph_internal.h"
#include "graph_api_internal.h"

#include <string.h>

static bool condition_holds(const rune_graph_instance *inst, const rune_condition_desc *c)
{
    float v = inst->params[c->param];
    switch (c->op) {
    case RUNE_COND_GT: return v > c->value;
    case RUNE_COND_GE: return v >= c->value;
    case RUNE_COND_LT: return v < c->value;
    case RUNE_COND_LE: return v <= c->value;
    case RUNE_COND_EQ: return v == c->value;
    case RUNE_COND_NE: return v != c->value;
    case RUNE_COND_TRIGGERED: return v != 0.0f;
    }
    return false;
}

/* Does progress moving from `from` to `to` cross k + e for some integer k
 * (old end excluded, new end included)? */
static bool crosses_phase(double from, double to, double e)
{
    if (to > from)
        return floor(from - e) + 1.0 + e <= to;
    if (to < from)
        return ceil(from - e) - 1.0 + e >= to;
    return false;
}

static bool exit_reached(const rune_graph_instance *inst, const layer_run *l, const graph_transition *t)
{
    if (!t->has_exit_time)
        return true;
    const play_slot *c = &inst->slots[l->cur];
    double to = rune_motion_player_progress(c->player);
    /* within one cycle of a looping state: a phase crossing, every cycle;
     * otherwise a boundary of accumulated progress that has been reached */
    if (inst->state_loops[c->state] && t->exit_time <= 1.0f)
        return crosses_phase(c->from, to, t->exit_time);
    return to >= t->exit_time;
}

static bool conditions_hold(const rune_graph_instance *inst, const graph_transition *t)
{
    for (uint32_t k = 0; k < t->condition_count; k++)
        if (!condition_holds(inst, &inst->g->conditions[t->first_condition + k]))
            return false;
    return true;
}

static void release(rune_graph_instance *inst, int32_t slot)
{
    if (slot >= 0)
        inst->slots[slot].live = false;
}

static void fire(rune_graph_instance *inst, size_t li, const graph_transition *t)
{
    const rune_graph *g = inst->g;
    layer_run *l = &inst->layers[li];
    uint32_t to = g->layers[li].first_state + t->to;
    bool fades = rune__graph_transition_fades(t);
    if (!fades) {
        /* a cut, or an inertialization (the character carries the pose it
         * showed into the destination: only the destination plays) */
        release(inst, l->src);
        release(inst, l->cur);
        l->src = -1;
        l->frozen = false;
        if (t->blend == RUNE_BLEND_INERTIALIZE && t->duration > inst->inertialize)
            inst->inertialize = t->duration;
    } else if (l->fading) {
        /* an interruption: the last blended pose is the new, frozen
         * source; a fade that no evaluation has blended yet (updates
         * without evaluations between) is blended now, at the plays'
         * times, instead of freezing an older fade's pose */
        if (!l->last_fresh)
            rune__graph_layer_pose(inst, li);
        rune_pose_copy(&l->pose[LP_FROZEN], &l->pose[LP_LAST]);
        if (g->layers[li].blend == RUNE_LAYER_ADDITIVE) /* an override layer has no references */
            rune_pose_copy(&l->pose[LP_FROZEN_REF], &l->pose[LP_LAST_REF]);
        release(inst, l->src);
        release(inst, l->cur);
        l->src = -1;
        l->frozen = true;
    } else {
        l->src = l->cur;
        l->frozen = false;
    }
    /* the second slot when the first plays (made only for the states a
     * transition can enter while they play: graph_instance.c) */
    int32_t slot = (int32_t)(2 * to);
    if (inst->slots[slot].live && inst->slots[slot + 1].player)
        slot++;
    play_slot *p = &inst->slots[slot];
    p->live = true;
    p->from = 0.0;
    rune_motion_player_set_progress(p->player, 0.0);
    rune_motion_player_set_params(p->player, inst->params);
    l->cur = slot;
    l->last_fresh = false;
    l->elapsed = 0.0f;
    l->duration = t->duration;
    l->interruptible = t->interruptible;
    l->fading = fades;
    /* triggers are consumed by the transition that fires, only */
    for (uint32_t k = 0; k < t->condition_count; k++) {
        const rune_condition_desc *c = &g->conditions[t->first_condition + k];
        if (c->op == RUNE_COND_TRIGGERED)
            inst->params[c->param] = 0.0f;
    }
}

static void select_transition(rune_graph_instance *inst, size_t li)
{
    const rune_graph *g = inst->g;
    const graph_layer *gl = &g->layers[li];
    layer_run *l = &inst->layers[li];
    if (l->fading && !l->interruptible)
        return;
    int32_t cur = (int32_t)(inst->slots[l->cur].state - gl->first_state);
    if (l->route_pos < l->route_len) {
        const graph_transition *t = &g->transitions[l->route[l->route_pos]];
        if (t->from != -1 && t->from != cur) {
            l->route_len = l->route_pos = 0; /* the layer left the route */
            return;
        }
        if (exit_reached(inst, l, t)) {
            l->route_pos++;
            fire(inst, li, t);
        }
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < gl->transition_count; k++) {
            const graph_transition *t = &g->transitions[gl->first_transition + k];
            bool any = t->from == -1;
            if (pass == 0 ? !any || (int32_t)t->to == cur : t->from != cur)
                continue;
            if (conditions_hold(inst, t) && exit_reached(inst, l, t)) {
                fire(inst, li, t);
                return;
            }
        }
}

static void advance_play(rune_graph_instance *inst, int32_t slot, float dt, rune_signal_queue *q, uint32_t source)
{
    play_slot *p = &inst->slots[slot];
    p->from = rune_motion_player_progress(p->player);
    rune_motion_player_set_params(p->player, inst->params);
    rune_motion_player_advance(p->player, dt, inst->g->states[p->state].speed, q, source);
}

void rune_graph_update(rune_graph_instance *inst, float dt, rune_signal_queue *q, uint32_t source)
{
    if (!isfinite(dt))
        dt = 0.0f;
    for (size_t li = 0; li < inst->g->layer_count; li++) {
        layer_run *l = &inst->layers[li];
        /* markers come from one play: the source before the midpoint of the
         * fade as this frame will show it, the destination after */
        float a = l->fading && l->duration > 0.0f ? fminf(1.0f, (l->elapsed + fabsf(dt)) / l->duration) : 1.0f;
        bool from_source = l->fading && a < 0.5f;
        advance_play(inst, l->cur, dt, from_source ? NULL : q, source);
        if (l->fading && !l->frozen && l->src >= 0)
            advance_play(inst, l->src, dt, from_source ? q : NULL, source);
        rune_fade_advance(&l->weight, dt);
        if (l->fading) {
            l->elapsed += fabsf(dt);
            if (l->elapsed >= l->duration) {
                l->fading = false;
                release(inst, l->src);
                l->src = -1;
                l->frozen = false;
            }
        }
    }
    rune__graph_sync(inst);
    for (size_t li = 0; li < inst->g->layer_count; li++)
        select_transition(inst, li);
}

bool rune_graph_travel(rune_graph_instance *inst, uint32_t layer, uint32_t state)
{
    const rune_graph *g = inst->g;
    if (layer >= g->layer_count || state >= g->layers[layer].state_count)
        return false;
    const graph_layer *gl = &g->layers[layer];
    layer_run *l = &inst->layers[layer];
    uint32_t start = inst->slots[l->cur].state - gl->first_state;
    /* breadth-first over states; via[s] = transition that first reached s */
    int32_t via[RUNE_MOTION_MAX_LEAVES];
    uint32_t queue[RUNE_MOTION_MAX_LEAVES];
    if (gl->state_count > RUNE_MOTION_MAX_LEAVES)
        return false;
    for (uint32_t s = 0; s < gl->state_count; s++)
        via[s] = -2;
    via[start] = -1;
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    while (head < tail && via[state] == -2) {
        uint32_t s = queue[head++];
        for (uint32_t k = 0; k < gl->transition_count; k++) {
            const graph_transition *t = &g->transitions[gl->first_transition + k];
            if ((t->from == (int32_t)s || t->from == -1) && via[t->to] == -2) {
                via[t->to] = (int32_t)(gl->first_transition + k);
                queue[tail++] = t->to;
            }
        }
    }
    if (via[state] == -2)
        return false;
    /* walk back from the target; an any-state edge leaves from `start` */
    size_t n = 0;
    uint32_t rev[RUNE_GRAPH_MAX_ROUTE];
    for (uint32_t s = state; s != start;) {
        if (n == RUNE_GRAPH_MAX_ROUTE)
            return false;
        const graph_transition *t = &g->transitions[via[s]];
        rev[n++] = (uint32_t)via[s];
        s = t->from == -1 ? start : (uint32_t)t->from;
    }
    for (size_t i = 0; i < n; i++)
        l->route[i] = rev[n - 1 - i];
    l->route_len = n;
    l->route_pos = 0;
    return true;
}
